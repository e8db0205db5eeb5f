/**
 * Why an archive was refused or could not be read. The codes cross the worker boundary as plain
 * strings (an Error's own fields do not survive structured cloning), and the engine and UI map
 * them to messages, so each one names a situation a user can act on.
 */
export type ZipErrorCode =
  /** The bytes are not a zip archive at all. */
  | 'archive.notZip'
  /** The archive ends early (an interrupted upload or download). */
  | 'archive.truncated'
  /** The archive's structures contradict each other or the data does not inflate. */
  | 'archive.corrupt'
  /** An entry's checksum does not match its extracted bytes. */
  | 'archive.checksumMismatch'
  /** An entry's name would land outside the extraction folder (`../`, absolute, drive letter). */
  | 'archive.unsafeEntryName'
  /** Two entries share a name, so which one wins would depend on the tool. */
  | 'archive.duplicateEntry'
  /** More entries than the configured limit. */
  | 'archive.tooManyEntries'
  /** One entry is larger than the configured limit. */
  | 'archive.entryTooLarge'
  /** All entries together are larger than the configured limit. */
  | 'archive.tooLarge'
  /** An entry expands far more than real data does: a zip bomb. */
  | 'archive.suspiciousCompression'
  /** The entry is password-protected. */
  | 'archive.encrypted'
  /** The entry uses a compression method other than stored or deflate (e.g. LZMA, zstd). */
  | 'archive.unsupportedMethod'
  /** A requested entry name is not in the archive. */
  | 'archive.entryNotFound'
  /** The caller aborted the extraction. */
  | 'archive.aborted'

/** An archive problem with a stable code; `detail` names the entry or limit involved. */
export class ZipError extends Error {
  override readonly name = 'ZipError'
  readonly code: ZipErrorCode
  readonly detail: string | undefined

  constructor(code: ZipErrorCode, message: string, detail?: string) {
    super(message)
    this.code = code
    this.detail = detail
  }
}

/** The JSON-safe form of a ZipError, as it crosses from the worker. */
export interface ZipErrorData {
  code: ZipErrorCode
  message: string
  detail: string | undefined
}

/** Type guard so callers can branch on archive problems without `instanceof` across realms. */
export function isZipError(error: unknown): error is ZipError {
  return error instanceof ZipError
}
