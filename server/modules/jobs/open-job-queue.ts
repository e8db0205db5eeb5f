import type { DatabaseConfig } from '../../config'
import type { NamedFiles } from '../../plugins/storage'
import { createJobQueue, type JobQueue, type JobQueueOptions } from './job-queue'
import type { JobQueueSettings } from './job-queue-settings'
import { createPgJobQueue } from './pg-job-queue'
import { routeSharedJobs } from './shared-job-router'

/**
 * The app's job queue as configured: in-process, or (JOB_QUEUE=postgres) the shared queue for the
 * kinds that may run anywhere with the in-process one for the rest. Each process runs as many
 * shared jobs at once as it has slots.
 */
export function openJobQueue(
  settings: JobQueueSettings,
  database: DatabaseConfig,
  options: Pick<JobQueueOptions, 'slots'> & {
    onError: (error: unknown) => void
    /** Where the shared queue's large bytes travel (see PgJobQueueOptions.bytes). */
    bytes?: NamedFiles
  },
): JobQueue {
  const local = createJobQueue({ ...(options.slots ? { slots: options.slots } : {}) })
  if (settings.kind === 'local') return local
  if (database.kind !== 'postgres') throw new Error('the shared job queue needs PostgreSQL')
  const shared = createPgJobQueue({
    connectionString: database.url,
    schema: settings.schema,
    runsJobs: settings.runsJobsHere,
    claimMs: settings.claimMs,
    onError: options.onError,
    ...(options.bytes ? { bytes: options.bytes } : {}),
    ...(options.slots ? { slots: options.slots } : {}),
  })
  return routeSharedJobs(local, shared)
}
