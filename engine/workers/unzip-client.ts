import * as Comlink from 'comlink'
import type { ArchiveLimits } from '../../workers/unzip/archive-limits'
import type { ArchiveInput } from '../../workers/unzip/archive-source'
import type { ExtractedArchive } from '../../workers/unzip/extracted-archive'
import type { UnzipWorkerApi } from '../../workers/unzip/unzip.worker'
import type { WorkerOutcome } from '../../workers/unzip/unzip-api'
import type { ExtractProgress } from '../../workers/unzip/zip-extractor'
import type { ArchiveListing } from '../../workers/unzip/zip-reader'
import { EngineError } from '../api/errors'
import type { WorkerEndpoint, WorkerPool } from './create-worker-client'

/** Starts the real unzip worker; the bundler emits it as its own chunk. */
export function createUnzipWorker(): WorkerEndpoint {
  return new Worker(new URL('../../workers/unzip/unzip.worker.ts', import.meta.url), {
    type: 'module',
    name: 'unzip',
  })
}

/** Options of {@link UnzipService.extract}. */
export interface UnzipExtractRequest {
  names?: readonly string[]
  limits?: Partial<ArchiveLimits>
  verifyChecksums?: boolean
  signal?: AbortSignal
  onProgress?: (progress: ExtractProgress) => void
}

/** Listing and extraction on the unzip worker pool, with errors turned into EngineErrors. */
export interface UnzipService {
  list(source: ArchiveInput, limits?: Partial<ArchiveLimits>): Promise<ArchiveListing>
  extract(source: ArchiveInput, request?: UnzipExtractRequest): Promise<ExtractedArchive>
}

/**
 * Wraps the pool. Inputs are structured-cloned into the worker: a Blob/File is passed as a
 * handle (nothing copied), a Uint8Array is copied. Results come back transferred.
 */
export function createUnzipService(pool: WorkerPool<UnzipWorkerApi>): UnzipService {
  return {
    list: (source, limits) => pool.run(async (api) => unwrap(await api.list(source, { limits }))),

    extract: (source, { signal, onProgress, ...options } = {}) => {
      if (signal?.aborted) return Promise.reject(abortedError())
      const job = pool.run(
        async (api) => {
          // An AbortSignal cannot cross threads; a message on a transferred port can.
          const abort = new MessageChannel()
          const onAbort = () => abort.port1.postMessage('abort')
          signal?.addEventListener('abort', onAbort, { once: true })
          try {
            return unwrap(
              await api.extract(
                source,
                Comlink.transfer({ ...options, abortPort: abort.port2 }, [abort.port2]),
                onProgress && Comlink.proxy(onProgress),
              ),
            )
          } finally {
            signal?.removeEventListener('abort', onAbort)
            abort.port1.close()
          }
        },
        // A forged entry inflated in one call can keep the worker busy for seconds.
        { signal },
      )
      return job.catch((error: unknown) => {
        if (signal?.aborted && error === signal.reason) throw abortedError()
        throw error
      })
    },
  }
}

function abortedError(): EngineError {
  return new EngineError('archive.aborted', 'The extraction was cancelled.')
}

function unwrap<Value>(outcome: WorkerOutcome<Value>): Value {
  if (outcome.ok) return outcome.value
  throw new EngineError(outcome.error.code, outcome.error.message, outcome.error.detail)
}
