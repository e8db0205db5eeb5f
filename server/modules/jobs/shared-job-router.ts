import type { JobQueue } from './job-queue'

/**
 * One {@link JobQueue} over two: kinds that may run anywhere (`runsAnywhere`: conversions,
 * tileset ingests, offline-package builds) go to the shared queue, the rest (work a request
 * waits for in this process, such as a POI list body built in a thread) to the local one.
 */
export function routeSharedJobs(local: JobQueue, shared: JobQueue): JobQueue {
  const queueOf = (kind: { runsAnywhere?: boolean }) => (kind.runsAnywhere ? shared : local)
  return {
    register(kind) {
      queueOf(kind).register(kind)
    },
    submit(kind, userId, input) {
      return queueOf(kind).submit(kind, userId, input)
    },
    status: (jobId) => local.status(jobId) ?? shared.status(jobId),
    cancel: async (jobId) => (await local.cancel(jobId)) || shared.cancel(jobId),
    load(lane) {
      const [mine, theirs] = [local.load(lane), shared.load(lane)]
      return { running: mine.running + theirs.running, queued: mine.queued + theirs.queued }
    },
    async close() {
      await Promise.all([local.close(), shared.close()])
    },
    sweepLeftovers: async () => (await local.sweepLeftovers()) + (await shared.sweepLeftovers()),
  }
}
