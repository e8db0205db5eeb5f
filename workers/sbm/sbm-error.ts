import type { ErrorKind } from '../../contract/errors'

/** The one message a user sees for anything that is not a loadable SBM file (SPEC §5). */
export const NOT_VALID_SBM_MESSAGE = 'Failed to load a model, not a valid SBM file!'

/** Stable code carried by {@link SbmError}, so callers branch on it instead of on the text. */
export const SBM_INVALID_CODE = 'sbm.invalid'

/**
 * A file was refused as SBM. The message is always {@link NOT_VALID_SBM_MESSAGE} (what the user
 * reads); `detail` says which check failed (what a developer reads in logs).
 */
export class SbmError extends Error {
  /** Machine-readable reason, the same for every invalid file. */
  readonly code = SBM_INVALID_CODE
  /** The contract's error kind, so the server answers 415 for it. */
  readonly errorKind: ErrorKind = 'unsupportedFile'
  /** Which check failed, in English, for logs and tests. */
  readonly detail: string

  constructor(detail: string) {
    super(NOT_VALID_SBM_MESSAGE)
    this.name = 'SbmError'
    this.detail = detail
  }
}

/** Code of {@link SbmDownloadError}: the file could not be fetched, so nothing is known about it. */
export const SBM_DOWNLOAD_FAILED_CODE = 'sbm.downloadFailed'

/** A worker was given a URL and could not fetch it (network error, HTTP status). */
export class SbmDownloadError extends Error {
  readonly code = SBM_DOWNLOAD_FAILED_CODE
  /**
   * True when the download failed before its body (no answer, an error status): the page's own
   * download throws such failures instead of answering them (engine/building/model-download.ts).
   */
  readonly isBeforeBody: boolean

  constructor(message: string, { isBeforeBody = false }: { isBeforeBody?: boolean } = {}) {
    super(message)
    this.name = 'SbmDownloadError'
    this.isBeforeBody = isBeforeBody
  }
}

/** Plain-data form of a load error that survives structured clone (comlink drops `code`). */
export interface SbmErrorData {
  code: typeof SBM_INVALID_CODE | typeof SBM_DOWNLOAD_FAILED_CODE
  message: string
  detail: string
  /** Set on a download that failed before its body (SbmDownloadError.isBeforeBody). */
  isBeforeBody?: true
}

/** Converts an error into {@link SbmErrorData}; anything unexpected while reading is an invalid file. */
export function toSbmErrorData(error: unknown): SbmErrorData {
  if (error instanceof SbmDownloadError) {
    return {
      code: SBM_DOWNLOAD_FAILED_CODE,
      message: error.message,
      detail: error.message,
      ...(error.isBeforeBody ? { isBeforeBody: true as const } : {}),
    }
  }
  const detail =
    error instanceof SbmError
      ? error.detail
      : error instanceof Error
        ? error.message
        : String(error)
  return { code: SBM_INVALID_CODE, message: NOT_VALID_SBM_MESSAGE, detail }
}
