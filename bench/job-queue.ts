/**
 * Job queue overhead (issue 22): 1,000 small jobs through the shared queue on PostgreSQL
 * (pg-boss; submitted and run in this process, as one API process that also runs jobs) against
 * the same 1,000 calls made directly. Overhead per job = (queue wall time − direct wall time) ÷
 * jobs, per round; the goal is ≤ 5 ms median. Also each job's submit → result latency (queued
 * behind the others, so it shows the queue's depth, not its cost).
 *
 * Needs DATABASE_URL (postgres://…); the queue's tables go to a fresh schema, dropped after.
 * JOB_QUEUE_BENCH_JOBS (default 1000), JOB_QUEUE_BENCH_ROUNDS (default 5).
 * Writes bench/results/job-queue.json.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { JobKind } from '../server/modules/jobs/job-queue'
import { createPgJobQueue } from '../server/modules/jobs/pg-job-queue'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

const jobCount = Number(process.env.JOB_QUEUE_BENCH_JOBS ?? 1000)
const roundCount = Number(process.env.JOB_QUEUE_BENCH_ROUNDS ?? 5)

/** The small job: a checksum over a few hundred bytes, as plain data in and out. */
function checksum(input: { values: number[] }): { sum: number } {
  let sum = 0
  for (const value of input.values) sum = (sum * 31 + value) % 1_000_003
  return { sum }
}

export async function runJobQueueBench(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url?.startsWith('postgres')) throw new Error('job-queue needs DATABASE_URL=postgres://…')
  const schema = `bench_${randomBytes(5).toString('hex')}_jobs`
  const queue = createPgJobQueue({
    connectionString: url,
    schema,
    runsJobs: true,
    slots: { cpu: 2, io: 2 },
    pollMs: 50,
    onError: (error) => console.error(error),
  })
  const kind: JobKind<{ values: number[] }, { sum: number }> = {
    name: 'bench.checksum',
    lane: 'cpu',
    timeLimitMs: 60_000,
    runsAnywhere: true,
    run: async (input) => checksum(input),
  }
  queue.register(kind)
  const inputs = Array.from({ length: jobCount }, (_, index) => ({
    values: Array.from({ length: 64 }, (_, at) => (index * 64 + at) % 251),
  }))
  const quiet = new QuietRounds()
  const overheadMs: number[] = []
  const queueMs: number[] = []
  const directMs: number[] = []
  const latencies: number[] = []
  try {
    // round 0 warms up the queue's tables, plans and connections
    for (let round = 0; round <= roundCount; round++) {
      const timed = round > 0
      const result = await quiet.round(
        `round ${round}`,
        async () => {
          const directStart = performance.now()
          let check = 0
          for (const input of inputs) check += (await kind.run(input, noContext)).sum
          const direct = performance.now() - directStart
          const queueStart = performance.now()
          const jobs = inputs.map((input) => {
            const submittedAt = performance.now()
            return queue.submit(kind, 'bench', input).result.then((value) => ({
              sum: value.sum,
              latencyMs: performance.now() - submittedAt,
            }))
          })
          const answers = await Promise.all(jobs)
          const queued = performance.now() - queueStart
          const queueCheck = answers.reduce((total, answer) => total + answer.sum, 0)
          if (queueCheck !== check) throw new Error('the queue answered other sums than the calls')
          return { direct, queued, latencies: answers.map((answer) => answer.latencyMs) }
        },
        timed,
      )
      if (!timed) continue
      directMs.push(result.direct)
      queueMs.push(result.queued)
      overheadMs.push((result.queued - result.direct) / jobCount)
      latencies.push(...result.latencies)
    }
  } finally {
    await queue.close()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(`drop schema if exists ${schema} cascade`)
    await client.end()
  }
  const overhead = measure(overheadMs, 'ms')
  const report = {
    benchmark: 'job-queue',
    description: `${jobCount} small jobs (a checksum over 64 numbers) submitted at once to the shared queue on PostgreSQL (pg-boss 10) and run by this process's workers (2 slots), against the same calls made directly one after another; ${roundCount} timed rounds after a warm-up. Overhead per job = (queue wall − direct wall) ÷ jobs. Goal ≤ 5 ms median.`,
    machine: machineInfo(null),
    jobs: jobCount,
    overheadPerJobMs: overhead,
    meetsTarget: overhead.median <= 5,
    queueWallMs: measure(queueMs, 'ms'),
    directWallMs: measure(directMs, 'ms'),
    latencyMs: {
      median: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
    },
    ratios: [
      ratioOf(
        'queue',
        'direct calls',
        'wall time of all jobs (ms)',
        measure(queueMs, 'ms').median,
        measure(directMs, 'ms').median,
      ),
    ],
  }
  const path = writeBenchResult('job-queue', report, quiet)
  console.log(
    JSON.stringify(
      { overheadPerJobMs: overhead, meetsTarget: report.meetsTarget, latencyMs: report.latencyMs },
      null,
      2,
    ),
  )
  console.log(`written to ${path}`)
}

const noContext = { signal: new AbortController().signal, reportProgress() {}, attempt: 1 }
