import * as Comlink from 'comlink'
import type { ArchiveLimits } from '../../workers/unzip/archive-limits'
import type { ArchiveInput } from '../../workers/unzip/archive-source'
import type { ExtractedArchive } from '../../workers/unzip/extracted-archive'
import { mergeExtractedArchives, planExtractionGroups } from '../../workers/unzip/extraction-groups'
import type { UnzipWorkerApi } from '../../workers/unzip/unzip.worker'
import type { UnzipExtractOptions, UnzipOutcome } from '../../workers/unzip/unzip-api'
import type { ExtractProgress } from '../../workers/unzip/zip-extractor'
import { ZipError, type ZipErrorCode } from '../../workers/unzip/zip-errors'
import type { ArchiveListing } from '../../workers/unzip/zip-reader'
import { type ArchiveErrorCode, EngineError } from '../api/errors'
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

/** Options of {@link createUnzipService}. */
export interface UnzipServiceOptions {
  /** How many workers one extraction may use at once (the pool's size). */
  maxParallelJobs: number
  /**
   * Each worker of a split extraction gets at least this much compressed data (default 8 MiB);
   * below it, starting another job costs more than it saves.
   */
  minimumGroupCompressedBytes?: number
  /** False inflates every entry with fflate instead of the platform's zlib (benchmarks' A/B). */
  inflateNatively?: boolean
}

/**
 * Wraps the pool. Inputs are structured-cloned into the worker: a Blob/File is passed as a
 * handle (nothing copied), a Uint8Array is copied. Results come back transferred.
 *
 * A large Blob is extracted by several workers at once, each on a consecutive run of entries:
 * inflating is CPU-bound and the main thread is idle meanwhile, so on a machine with two or more
 * cores this divides the wall time. Bytes already in memory are not split, because every
 * worker would need its own copy of them.
 */
export function createUnzipService(
  pool: WorkerPool<UnzipWorkerApi>,
  {
    maxParallelJobs,
    minimumGroupCompressedBytes = 8 * 1024 * 1024,
    inflateNatively,
  }: UnzipServiceOptions,
): UnzipService {
  const list = (source: ArchiveInput, limits?: Partial<ArchiveLimits>) =>
    pool.run(async (api) => unwrap(await api.list(source, { limits })))

  /** One extraction job on one worker; `signal` cancels it through the worker's abort port. */
  const extractOnWorker = (
    source: ArchiveInput,
    options: Omit<UnzipExtractOptions, 'abortPort'>,
    signal: AbortSignal | undefined,
    onProgress: ((progress: ExtractProgress) => void) | undefined,
  ) =>
    pool.run(
      async (api) => {
        // An AbortSignal cannot cross threads; a message on a transferred port can.
        const abort = new MessageChannel()
        const onAbort = () => abort.port1.postMessage('abort')
        signal?.addEventListener('abort', onAbort, { once: true })
        try {
          return unwrap(
            await api.extract(
              source,
              Comlink.transfer({ ...options, inflateNatively, abortPort: abort.port2 }, [
                abort.port2,
              ]),
              onProgress && Comlink.proxy(onProgress),
            ),
          )
        } finally {
          signal?.removeEventListener('abort', onAbort)
          abort.port1.close()
        }
      },
      // A forged entry inflated in one call can keep a worker busy for seconds.
      { signal },
    )

  const extractInParallel = async (
    source: Blob,
    { signal, onProgress, names, ...options }: UnzipExtractRequest,
  ): Promise<ExtractedArchive> => {
    const groups = planExtractionGroups(
      await list(source, options.limits),
      names,
      maxParallelJobs,
      minimumGroupCompressedBytes,
    )
    if (groups.length === 1) {
      return extractOnWorker(source, { ...options, names }, signal, onProgress)
    }
    // One failing group stops the others; the caller's signal stops all of them.
    const groupsController = new AbortController()
    const groupsSignal = signal
      ? AbortSignal.any([signal, groupsController.signal])
      : groupsController.signal
    const progressByGroup: ExtractProgress[] = []
    const reportGroupProgress = (group: number) => (progress: ExtractProgress) => {
      progressByGroup[group] = progress
      const sum = (pick: (item: ExtractProgress) => number) =>
        progressByGroup.reduce((total, item) => total + pick(item), 0)
      onProgress?.({
        doneBytes: sum((item) => item.doneBytes),
        totalBytes: sum((item) => item.totalBytes),
        doneEntries: sum((item) => item.doneEntries),
        totalEntries: sum((item) => item.totalEntries),
      })
    }
    try {
      const parts = await Promise.all(
        groups.map((groupNames, group) =>
          extractOnWorker(
            source,
            { ...options, names: groupNames },
            groupsSignal,
            reportGroupProgress(group),
          ),
        ),
      )
      return mergeExtractedArchives(parts)
    } catch (error) {
      groupsController.abort()
      throw error
    }
  }

  return {
    list,
    extract: (source, request = {}) => {
      const { signal } = request
      if (signal?.aborted) return Promise.reject(abortedError())
      const job =
        maxParallelJobs > 1 && source instanceof Blob
          ? extractInParallel(source, request)
          : extractOnWorker(
              source,
              {
                names: request.names,
                limits: request.limits,
                verifyChecksums: request.verifyChecksums,
              },
              signal,
              request.onProgress,
            )
      return job.catch((error: unknown) => {
        if (
          signal?.aborted &&
          !(error instanceof EngineError && error.code !== 'archive.aborted')
        ) {
          throw abortedError()
        }
        throw toEngineFailure(error)
      })
    },
  }
}

function abortedError(): EngineError {
  return new EngineError('archive.aborted', 'The extraction was cancelled.')
}

/** Planning a split runs the pure archive code on this thread, which throws ZipErrors. */
function toEngineFailure(error: unknown): unknown {
  return error instanceof ZipError
    ? new EngineError(error.code, error.message, error.detail)
    : error
}

function unwrap<Value>(outcome: UnzipOutcome<Value>): Value {
  if (outcome.ok) return outcome.value
  throw new EngineError(outcome.error.code, outcome.error.message, outcome.error.detail)
}

/** Fails to compile when the engine's archive codes and the unzip worker's drift apart. */
type SameCodes = [ArchiveErrorCode] extends [ZipErrorCode]
  ? [ZipErrorCode] extends [ArchiveErrorCode]
    ? true
    : false
  : false
const archiveCodesAgree: SameCodes = true
void archiveCodesAgree
