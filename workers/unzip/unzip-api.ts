import * as Comlink from 'comlink'
import type { ArchiveLimits } from './archive-limits'
import { type ArchiveInput, toArchiveSource } from './archive-source'
import type { ExtractedArchive } from './extracted-archive'
import { type ExtractProgress, extractArchive } from './zip-extractor'
import { type ArchiveListing, readArchiveDirectory } from './zip-reader'
import { ZipError, type ZipErrorData } from './zip-errors'
import { outcomeOf, type WorkerOutcome } from '../protocol/outcome'

/** A worker call's answer: the value, or the archive problem as data (protocol/outcome.ts). */
export type UnzipOutcome<Value> = WorkerOutcome<Value, ZipErrorData>

/** Options of {@link unzipApi.list}. */
export interface UnzipListOptions {
  limits?: Partial<ArchiveLimits>
  fallbackNameEncoding?: string
}

/** Options of {@link unzipApi.extract}; an AbortSignal cannot cross threads, a port can. */
export interface UnzipExtractOptions extends UnzipListOptions {
  names?: readonly string[]
  verifyChecksums?: boolean
  packSizeBytes?: number
  progressIntervalMs?: number
  chunkedAboveCompressedBytes?: number
  inflateNatively?: boolean
  nativeInflateAboveCompressedBytes?: number
  /** Any message on this port aborts the extraction; transfer it with the call. */
  abortPort?: MessagePort
}

/** Archive problems become data; anything else is a bug and throws. */
function zipFailureOf(error: unknown): ZipErrorData | undefined {
  if (!(error instanceof ZipError)) return undefined
  return { code: error.code, message: error.message, detail: error.detail }
}

/**
 * What the unzip worker exposes. Kept apart from `unzip.worker.ts` so the same object can be
 * served in-process over a MessageChannel (tests, and a fallback where workers are missing).
 */
export const unzipApi = {
  /** Lists an archive's entries; reads only its tail. */
  list(input: ArchiveInput, options: UnzipListOptions = {}): Promise<UnzipOutcome<ArchiveListing>> {
    return outcomeOf(() => readArchiveDirectory(toArchiveSource(input), options), zipFailureOf)
  },

  /**
   * Extracts all or the named entries. The packed result is transferred, not copied; progress
   * goes to `onProgress` (a `Comlink.proxy`), throttled, as uncompressed bytes done/total.
   */
  async extract(
    input: ArchiveInput,
    options: UnzipExtractOptions = {},
    onProgress?: (progress: ExtractProgress) => unknown,
  ): Promise<UnzipOutcome<ExtractedArchive>> {
    const { abortPort, ...extractOptions } = options
    const controller = new AbortController()
    if (abortPort) {
      abortPort.onmessage = () => controller.abort()
    }
    try {
      const outcome = await outcomeOf(
        () =>
          extractArchive(input, {
            ...extractOptions,
            signal: controller.signal,
            // A progress report must never fail the work (e.g. the caller released its proxy).
            onProgress:
              onProgress &&
              ((progress) => void Promise.resolve(onProgress(progress)).catch(() => undefined)),
          }),
        zipFailureOf,
      )
      return outcome.ok ? Comlink.transfer(outcome, outcome.value.packs) : outcome
    } finally {
      abortPort?.close()
      // A proxied callback holds a MessageChannel open on both sides until it is released.
      const releaseCallback = (onProgress as { [Comlink.releaseProxy]?: () => void } | undefined)?.[
        Comlink.releaseProxy
      ]
      releaseCallback?.()
    }
  },
}
