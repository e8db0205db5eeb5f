import { describe, expect, it } from 'vitest'
import { createJobQueue, type JobContext, type JobKind } from './job-queue'
import { createThreadRunner, ThreadStoppedError } from './thread-runner'

const taskThread = new URL('../../testing/task-thread.mjs', import.meta.url)

/** A kind whose runs finish only when the test says so, recording the order they start in. */
function controlledKind(lane: 'cpu' | 'io' = 'cpu') {
  const started: string[] = []
  const finishers = new Map<string, () => void>()
  const kind: JobKind<{ label: string }, string> = {
    name: 'test.controlled',
    lane,
    timeLimitMs: 60_000,
    run: ({ label }) =>
      new Promise<string>((resolve) => {
        started.push(label)
        finishers.set(label, () => resolve(label))
      }),
  }
  const finish = async (label: string) => {
    finishers.get(label)!()
    // let the queue start the next job
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { kind, started, finish }
}

describe('job queue', () => {
  it("serves another user's one job right after the job in the slot, whatever one user queued", async () => {
    const jobs = createJobQueue({ slots: { cpu: 1 }, maxQueuedPerUser: 10 })
    const { kind, started, finish } = controlledKind()
    const aJobs = Array.from({ length: 10 }, (_, index) =>
      jobs.submit(kind, 'user-a', { label: `a${index + 1}` }),
    )
    const bJob = jobs.submit(kind, 'user-b', { label: 'b1' })
    expect(started).toEqual(['a1'])
    expect(bJob.status().state).toBe('queued')
    await finish('a1')
    // B's job is next: delayed by the one job that held the slot, not by A's nine waiting
    expect(started).toEqual(['a1', 'b1'])
    await finish('b1')
    await expect(bJob.result).resolves.toBe('b1')
    for (let index = 2; index <= 10; index++) await finish(`a${index}`)
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'])
    await expect(Promise.all(aJobs.map((job) => job.result))).resolves.toHaveLength(10)
    await jobs.close()
  })

  it("alternates between users' queues and refuses one user's jobs beyond their share", async () => {
    const jobs = createJobQueue({ slots: { cpu: 1 }, maxQueuedPerUser: 2 })
    const { kind, started, finish } = controlledKind()
    jobs.submit(kind, 'a', { label: 'a1' })
    jobs.submit(kind, 'a', { label: 'a2' })
    jobs.submit(kind, 'a', { label: 'a3' })
    const refused = jobs.submit(kind, 'a', { label: 'a4' })
    await expect(refused.result).rejects.toMatchObject({ kind: 'unavailable' })
    jobs.submit(kind, 'b', { label: 'b1' })
    jobs.submit(kind, 'b', { label: 'b2' })
    for (const label of ['a1', 'b1', 'a2', 'b2', 'a3']) await finish(label)
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3'])
    expect(jobs.load()).toEqual({ running: 0, queued: 0 })
    await jobs.close()
  })

  it('reports progress, cancels queued and running jobs, and keeps statuses by id', async () => {
    const jobs = createJobQueue({ slots: { io: 1 } })
    let seenSignal: AbortSignal | undefined
    const kind: JobKind<null, string> = {
      name: 'test.progress',
      lane: 'io',
      timeLimitMs: 60_000,
      run: (_input, context: JobContext) =>
        new Promise<string>((_resolve, reject) => {
          seenSignal = context.signal
          context.reportProgress(0.25)
          context.signal.addEventListener('abort', () => reject(context.signal.reason))
        }),
    }
    const running = jobs.submit(kind, 'u', null)
    const waiting = jobs.submit(kind, 'u', null)
    const fractions: number[] = []
    running.onProgress((fraction) => fractions.push(fraction))
    expect(jobs.status(running.id)).toMatchObject({ state: 'running', progress: 0.25 })
    await expect(jobs.cancel(waiting.id)).resolves.toBe(true)
    await expect(waiting.result).rejects.toMatchObject({ kind: 'conflict' })
    running.cancel()
    await expect(running.result).rejects.toThrow('cancelled')
    expect(seenSignal?.aborted).toBe(true)
    expect(jobs.status(running.id)).toMatchObject({ state: 'cancelled', attempts: 1 })
    expect(jobs.status(waiting.id)).toMatchObject({ state: 'cancelled', attempts: 0 })
    await expect(jobs.cancel(running.id)).resolves.toBe(false)
    await jobs.close()
  })

  it('retries a run that failed in a retryable way, and stops at maxAttempts', async () => {
    const jobs = createJobQueue()
    let runs = 0
    const flaky: JobKind<number, string> = {
      name: 'test.flaky',
      lane: 'cpu',
      timeLimitMs: 60_000,
      maxAttempts: 3,
      isRetryable: (error) => error instanceof ThreadStoppedError,
      run: async (failures) => {
        runs++
        if (runs <= failures) throw new ThreadStoppedError('exit code 3')
        return 'done'
      },
    }
    const job = jobs.submit(flaky, 'u', 2)
    await expect(job.result).resolves.toBe('done')
    expect(job.status()).toMatchObject({ state: 'succeeded', attempts: 3 })
    runs = 0
    const hopeless = jobs.submit(flaky, 'u', 5)
    await expect(hopeless.result).rejects.toBeInstanceOf(ThreadStoppedError)
    expect(hopeless.status().attempts).toBe(3)
    await jobs.close()
  })
})

describe('job queue with worker threads', () => {
  const threadKind = (
    runner: ReturnType<typeof createThreadRunner>,
    timeLimitMs: number,
  ): JobKind<Record<string, unknown>, Record<string, unknown>> => ({
    name: 'test.thread',
    lane: 'cpu',
    timeLimitMs,
    run: (input, { signal }) => runner.run(input, { signal }),
  })

  it('terminates a runaway thread at the time limit; the next user still gets the slot', async () => {
    const runner = createThreadRunner({ entry: taskThread })
    const jobs = createJobQueue({ slots: { cpu: 1 } })
    try {
      const kind = threadKind(runner, 500)
      const runaway = jobs.submit(kind, 'a', { spin: true })
      const next = jobs.submit(kind, 'b', { echo: 'hello' })
      await expect(runaway.result).rejects.toMatchObject({
        kind: 'unavailable',
        message: expect.stringMatching(/took longer than/),
      })
      expect(runaway.status()).toMatchObject({ state: 'failed' })
      await expect(next.result).resolves.toEqual({ echo: 'hello' })
      expect(jobs.load()).toEqual({ running: 0, queued: 0 })
    } finally {
      await jobs.close()
      await runner.close()
    }
  })

  it('stops a thread that outgrows its heap limit without harming the server', async () => {
    const runner = createThreadRunner({
      entry: taskThread,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    })
    const jobs = createJobQueue({ slots: { cpu: 1 } })
    try {
      const kind = threadKind(runner, 60_000)
      const hoarder = jobs.submit(kind, 'a', { hoard: true })
      await expect(hoarder.result).rejects.toMatchObject({ kind: 'tooLarge' })
      await expect(jobs.submit(kind, 'a', { after: 1 }).result).resolves.toEqual({ after: 1 })
    } finally {
      await jobs.close()
      await runner.close()
    }
  })

  it("hands the thread's progress reports to the job before its answer", async () => {
    const runner = createThreadRunner({ entry: taskThread })
    const jobs = createJobQueue({ slots: { io: 1 } })
    try {
      const job = jobs.submit(
        {
          name: 'test.progress',
          lane: 'io',
          timeLimitMs: 60_000,
          run: (input, { signal, reportProgress }) =>
            runner.run(input, { signal, onProgress: reportProgress }),
        } satisfies JobKind<Record<string, unknown>, Record<string, unknown>>,
        'a',
        { progress: [0.25, 0.5, 0.75] },
      )
      const heard: number[] = []
      job.onProgress((fraction) => heard.push(fraction))
      await expect(job.result).resolves.toMatchObject({ progress: [0.25, 0.5, 0.75] })
      expect(heard).toEqual([0.25, 0.5, 0.75])
      expect(job.status().progress).toBe(0.75)
    } finally {
      await jobs.close()
      await runner.close()
    }
  })
})
