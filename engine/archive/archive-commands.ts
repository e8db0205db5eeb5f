import type { CommandHandlers } from '../api/commands'
import type { EngineContext } from '../core/engine-context'

/** Handlers of the `archive.*` commands: the work runs on the unzip worker pool. */
export function createArchiveHandlers(
  context: EngineContext,
): Pick<CommandHandlers, 'archive.list' | 'archive.extract'> {
  return {
    'archive.list': ({ source, limits }) => context.unzip.list(source, limits),

    'archive.extract': async ({ source, signal, ...options }) => {
      const job = context.startJob('archive.extract', signal)
      try {
        return await context.unzip.extract(source, {
          ...options,
          signal: job.signal,
          onProgress: (progress) => {
            job.reportProgress(progress.doneBytes, progress.totalBytes)
            context.events.emit('archive.progressed', { jobId: job.jobId, ...progress })
          },
        })
      } finally {
        job.finish()
      }
    },
  }
}
