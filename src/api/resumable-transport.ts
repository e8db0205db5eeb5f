import { Upload } from 'tus-js-client'
import { tokenHeaderName } from '../../contract/auth'
import type { Envelope } from '../../contract/envelope'
import { OK_CODE, OVERTIME_CODE } from '../../contract/errors'
import {
  type ResumableUploadPurpose,
  resumableUploadPath,
  uploadIdOfLocation,
} from '../../contract/resumable-upload'
import type { RouteDatum, RouteDescriptor } from '../../contract/route'
import { ApiError, pathBelowWeb, requestTimeoutMs } from './client'

/**
 * Uploads with real byte progress (decisions.md "Upload progress is real"): resumable tus
 * uploads for large files and multipart posts over XMLHttpRequest (fetch reports no upload
 * progress). Free of app state, so it runs in Node too; `resumable-upload.ts` binds it to the
 * signed-in session.
 */

type TusSource = ConstructorParameters<typeof Upload>[0]
type TusOptions = ConstructorParameters<typeof Upload>[1]

/** Options of one resumable upload. */
export interface ResumableUploadOptions {
  /** What the file is for; the route that takes the upload id may refuse other purposes. */
  purpose: ResumableUploadPurpose
  /** Bytes the server has acknowledged or that are in flight, and the file's size. */
  onProgress?: (sentBytes: number, totalBytes: number) => void
  /** Aborting cancels the upload and deletes what the server has of it. */
  signal?: AbortSignal
  /** The file name for sources that have none (a Buffer in Node); a File's own name wins. */
  fileName?: string
}

/** How the transport reaches the server. */
export interface UploadTransportOptions {
  /** The user token for the `Token` header, read before every request (it may change). */
  getToken: () => string | null
  /** Called when the server answers '2011'. */
  onSessionTimeout: () => void
  /** '/web' in the browser; an absolute `http://host:port/web` in Node. */
  baseUrl?: string
  /** Bytes per PATCH request. */
  chunkSizeBytes?: number
  /** Waits before each retry of a failed request (tus retries network and 5xx failures). */
  retryDelaysMs?: number[]
  /** Where unfinished uploads are remembered for resuming (the browser's localStorage by default). */
  urlStorage?: TusOptions['urlStorage']
}

/** The upload functions of one transport. */
export interface UploadTransport {
  /**
   * Sends a file as a resumable (tus) upload and resolves with its id once the server has every
   * byte; pass the id as `upload_id` to the route that consumes the file. An interrupted upload
   * (dropped connection, page reload) resumes from the server's offset when the same file is
   * uploaded again. Rejects with an {@link ApiError}.
   */
  uploadResumable(file: TusSource, options: ResumableUploadOptions): Promise<{ uploadId: string }>
  /**
   * Posts a multipart form to an upload route of the route table with upload progress,
   * resolving with the answer's datum; rejects with an {@link ApiError} like the fetch client
   * does.
   */
  postWithProgress<Route extends RouteDescriptor>(
    route: Route,
    form: FormData,
    onProgress?: (sentBytes: number, totalBytes: number) => void,
    options?: { signal?: AbortSignal },
  ): Promise<RouteDatum<Route>>
}

/** Default chunk: large enough that per-request overhead is small, small enough to retry. */
export const defaultChunkSizeBytes = 8 * 1024 * 1024

/** Default retry waits: quick first, then backing off over about a minute. */
export const defaultRetryDelaysMs = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000]

function parseEnvelope(text: string): Envelope | null {
  try {
    const parsed = JSON.parse(text) as unknown
    if (parsed !== null && typeof parsed === 'object' && 'code' in parsed) return parsed as Envelope
  } catch {
    // tus answers its protocol errors in plain text
  }
  return null
}

function abortedError(): ApiError {
  return new ApiError({
    reason: 'aborted',
    envelope: null,
    httpStatus: null,
    fallbackMessage: 'The upload was cancelled.',
  })
}

function nameOf(file: TusSource, fallback: string | undefined): string {
  const name = (file as { name?: unknown }).name
  return typeof name === 'string' && name !== '' ? name : (fallback ?? 'file')
}

/** Builds the upload functions on a token source. */
export function createUploadTransport(options: UploadTransportOptions): UploadTransport {
  const baseUrl = options.baseUrl ?? '/web'

  const failureOf = (status: number | null, body: string, fallback: string): ApiError => {
    const envelope = parseEnvelope(body)
    if (envelope?.code === OVERTIME_CODE) options.onSessionTimeout()
    const text = body.trim()
    return new ApiError({
      reason: status === null ? 'network' : 'server',
      envelope,
      httpStatus: status,
      fallbackMessage: status === null || text === '' || text.length > 300 ? fallback : text,
    })
  }

  return {
    uploadResumable(file, uploadOptions) {
      return new Promise((resolve, reject) => {
        const { signal } = uploadOptions
        if (signal?.aborted) {
          reject(abortedError())
          return
        }
        let isSettled = false
        const settle = (outcome: () => void) => {
          if (isSettled) return
          isSettled = true
          signal?.removeEventListener('abort', onAbort)
          outcome()
        }
        const upload = new Upload(file, {
          endpoint: `${baseUrl}${resumableUploadPath.replace(/^\/web/, '')}`,
          chunkSize: options.chunkSizeBytes ?? defaultChunkSizeBytes,
          retryDelays: options.retryDelaysMs ?? defaultRetryDelaysMs,
          metadata: {
            filename: nameOf(file, uploadOptions.fileName),
            purpose: uploadOptions.purpose,
          },
          storeFingerprintForResuming: true,
          removeFingerprintOnSuccess: true,
          ...(options.urlStorage === undefined ? {} : { urlStorage: options.urlStorage }),
          onBeforeRequest(request) {
            const token = options.getToken()
            if (token) request.setHeader(tokenHeaderName, token)
          },
          onProgress(sentBytes, totalBytes) {
            uploadOptions.onProgress?.(sentBytes, totalBytes)
          },
          onSuccess() {
            const uploadId = uploadIdOfLocation(upload.url ?? '')
            settle(() =>
              uploadId === undefined
                ? reject(failureOf(null, '', 'The server did not name the upload.'))
                : resolve({ uploadId }),
            )
          },
          onError(error) {
            const response = (
              error as { originalResponse?: { getStatus(): number; getBody(): string } | null }
            ).originalResponse
            settle(() =>
              reject(
                response
                  ? failureOf(response.getStatus(), response.getBody(), error.message)
                  : failureOf(null, '', error.message),
              ),
            )
          },
        })
        // Cancelled by the user: what the server has of it is of no use to anyone.
        const onAbort = () => {
          upload.abort(true).catch(() => undefined)
          settle(() => reject(abortedError()))
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        upload.findPreviousUploads().then(
          (previous) => {
            if (isSettled) return
            const newestFirst = [...previous].sort((a, b) =>
              b.creationTime.localeCompare(a.creationTime),
            )
            const resumable = newestFirst[0]
            if (resumable) upload.resumeFromPreviousUpload(resumable)
            upload.start()
          },
          () => {
            if (!isSettled) upload.start()
          },
        )
      })
    },

    postWithProgress<Route extends RouteDescriptor>(
      route: Route,
      form: FormData,
      onProgress?: (sentBytes: number, totalBytes: number) => void,
      postOptions: { signal?: AbortSignal } = {},
    ) {
      type Datum = RouteDatum<Route>
      return new Promise<Datum>((resolve, reject) => {
        const { signal } = postOptions
        if (signal?.aborted) {
          reject(abortedError())
          return
        }
        const request = new XMLHttpRequest()
        request.open(route.method, `${baseUrl}${pathBelowWeb(route)}`)
        request.timeout = requestTimeoutMs
        request.setRequestHeader('Accept', 'application/json')
        const token = options.getToken()
        if (token) request.setRequestHeader(tokenHeaderName, token)
        request.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress?.(event.loaded, event.total)
        }
        const onAbort = () => request.abort()
        signal?.addEventListener('abort', onAbort, { once: true })
        const finish = (outcome: () => void) => {
          signal?.removeEventListener('abort', onAbort)
          outcome()
        }
        request.onload = () =>
          finish(() => {
            const envelope = parseEnvelope(request.responseText)
            if (envelope === null) {
              reject(
                new ApiError({
                  reason: 'network',
                  envelope: null,
                  httpStatus: request.status,
                  fallbackMessage: `HTTP ${request.status} ${request.statusText}`.trim(),
                }),
              )
              return
            }
            if (envelope.code === OVERTIME_CODE) options.onSessionTimeout()
            const isOk = envelope.code === OK_CODE && request.status >= 200 && request.status < 300
            if (!isOk) {
              reject(
                new ApiError({
                  reason: 'server',
                  envelope,
                  httpStatus: request.status,
                  fallbackMessage: `HTTP ${request.status}`,
                }),
              )
              return
            }
            resolve(envelope.datum as Datum)
          })
        request.onerror = () =>
          finish(() =>
            reject(
              new ApiError({
                reason: 'network',
                envelope: null,
                httpStatus: null,
                fallbackMessage: 'The upload could not reach the server.',
              }),
            ),
          )
        request.ontimeout = () =>
          finish(() =>
            reject(
              new ApiError({
                reason: 'timeout',
                envelope: null,
                httpStatus: null,
                fallbackMessage: 'The upload timed out.',
              }),
            ),
          )
        request.onabort = () => finish(() => reject(abortedError()))
        request.send(form)
      })
    },
  }
}
