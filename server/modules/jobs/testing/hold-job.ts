import type { JobKind } from '../job-queue'

/** A job's input in the queue tests: its id, so the run can say which job it holds. */
export interface HoldInput {
  tag: string
  /** Milliseconds the run holds before it answers; absent: until aborted. */
  holdMs?: number
}

/**
 * A test kind that holds its slot (until `holdMs` passed, or until aborted) and answers which
 * process ran it, so a test can tell whose run finished a job.
 */
export function holdJob(
  onStart: (tag: string) => void = () => {},
): JobKind<HoldInput, { pid: number; tag: string }> {
  return {
    name: 'test.hold',
    lane: 'io',
    timeLimitMs: 60_000,
    runsAnywhere: true,
    run(input, { signal, reportProgress }) {
      onStart(input.tag)
      reportProgress(0.5)
      return new Promise((resolve, reject) => {
        const answer = () => resolve({ pid: process.pid, tag: input.tag })
        const timer = input.holdMs === undefined ? undefined : setTimeout(answer, input.holdMs)
        signal.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(signal.reason)
        })
      })
    },
  }
}
