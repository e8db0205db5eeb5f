import type { Multipart, MultipartFile } from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { AppError } from './app-error'
import { nestFormPairs } from './form-body'

/**
 * The one path by which every route reads a multipart body (issue 13, class 4): defineRoute's
 * stored files, the image upload (checked in memory), and the archive/GML uploads streamed to a
 * private file (./upload-route.ts) all go through {@link readMultipartForm}, so a malformed
 * body (no boundary, cut short, bad part headers) answers the same `validation` envelope
 * everywhere, and the bytes a request may hold in memory are bounded in one place.
 */

/** Bounds of one multipart body. */
export interface MultipartLimits {
  /** Field names that may carry files; a file in any other field is refused. */
  fileFields: readonly string[]
  maxFiles: number
  maxFields: number
  /** Per file; a bigger file is refused with `tooLarge` and the route's message. */
  maxFileSizeBytes: number
}

/**
 * All plain fields of one request together: the same as the JSON and form body limit, so a
 * form cannot hold more memory by arriving as multipart (busboy alone allows 1 MiB per field).
 */
export const maxMultipartFieldBytes = 1_048_576

/** Options of {@link readMultipartForm}. */
export interface ReadMultipartOptions {
  limits: MultipartLimits
  /**
   * Receives each file part in order, with the plain fields that came before it; it must read
   * or discard `part.file` before it returns. Throwing refuses the request.
   */
  onFile(part: MultipartFile, fieldsBefore: ReadonlyArray<readonly [string, string]>): Promise<void>
  /** The message of the `tooLarge` refusal of a file over `maxFileSizeBytes`. */
  fileTooLargeError: () => AppError
}

/**
 * Reads a multipart body: plain fields are nested like a form body (`a[b]=…`), files go to
 * `onFile`. Every failure is an AppError (or a framework error with a 4xx status), except a
 * failure of the server itself (a disk error), which stays as it is and answers `internal`.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  options: ReadMultipartOptions,
): Promise<Record<string, unknown>> {
  const { limits } = options
  const pairs: Array<[string, string]> = []
  let fieldBytes = 0
  let parts: AsyncIterator<Multipart>
  try {
    parts = request.parts({
      limits: {
        fields: limits.maxFields,
        fieldSize: maxMultipartFieldBytes,
        // One more than allowed, so our own checks answer first, with a clear message.
        files: limits.maxFiles + 1,
        fileSize: limits.maxFileSizeBytes + 1,
        parts: limits.maxFields + limits.maxFiles + 1,
      },
    })
  } catch (error) {
    throw asRequestError(error)
  }
  let fileCount = 0
  while (true) {
    let next: IteratorResult<Multipart>
    try {
      next = await parts.next()
    } catch (error) {
      throw asRequestError(error)
    }
    if (next.done) break
    const part = next.value
    if (part.type === 'field') {
      const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value)
      fieldBytes += Buffer.byteLength(part.fieldname) + Buffer.byteLength(value)
      if (part.valueTruncated || fieldBytes > maxMultipartFieldBytes) {
        throw new AppError('tooLarge', 'request.formFieldsTooLarge', {
          maximum: maxMultipartFieldBytes / 1_048_576,
        })
      }
      pairs.push([part.fieldname, value])
      continue
    }
    if (!limits.fileFields.includes(part.fieldname)) {
      part.file.resume()
      throw new AppError('validation', 'request.fileNotAccepted', { field: part.fieldname })
    }
    fileCount++
    if (fileCount > limits.maxFiles) {
      part.file.resume()
      throw new AppError('validation', 'request.tooManyFilesOf', { maximum: limits.maxFiles })
    }
    try {
      await options.onFile(part, pairs)
    } catch (error) {
      part.file.resume()
      if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw options.fileTooLargeError()
      }
      throw asRequestError(error)
    }
    if (part.file.truncated) throw options.fileTooLargeError()
  }
  return nestFormPairs(pairs)
}

/**
 * An error met while reading the body, as the caller's mistake: the multipart parser reports a
 * malformed body as a plain Error. Our own refusals, framework errors with a status, and system
 * errors of the server (they carry a `syscall`, e.g. a full disk) pass unchanged.
 */
function asRequestError(error: unknown): unknown {
  const isKnown =
    error instanceof AppError ||
    typeof (error as { statusCode?: unknown }).statusCode === 'number' ||
    typeof (error as { syscall?: unknown }).syscall === 'string'
  if (isKnown) return error
  // The parser's own words go into the English message (logs, API tools); the console shows the id.
  return new AppError(
    'validation',
    'request.malformedMultipart',
    {},
    {
      englishText: `Malformed multipart body: ${(error as Error | undefined)?.message ?? String(error)}`,
    },
  )
}
