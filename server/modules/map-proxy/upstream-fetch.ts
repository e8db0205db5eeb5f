import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import {
  checkUpstreamUrl,
  guardedLookup,
  type Resolver,
  systemResolver,
  type UpstreamPolicy,
} from './address-guard'

/** What an upstream answered, read whole (map resources are small: styles, tiles, glyphs). */
export interface UpstreamAnswer {
  status: number
  contentType: string
  body: Buffer
  /** The address that answered, after redirects. */
  finalUrl: string
}

/** Why an upstream fetch failed, for the proxy's error envelope. */
export class UpstreamFailure extends Error {
  override name = 'UpstreamFailure'
  constructor(
    readonly reason: 'timeout' | 'tooLarge' | 'network' | 'status' | 'redirects',
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

/** Limits of one upstream fetch. */
export interface FetchLimits {
  timeoutMs: number
  maxBytes: number
  maxRedirects: number
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/**
 * Fetches a map resource from an allowed public server: the URL, each redirect's target and
 * each resolved address are checked against the policy before connecting; the whole exchange
 * (redirects included) has one deadline; bodies over `maxBytes` (after decompression) are cut
 * off. Only a 200 answer is returned; anything else is an {@link UpstreamFailure}.
 */
export async function fetchUpstream(
  url: URL,
  policy: UpstreamPolicy,
  limits: FetchLimits,
  resolver: Resolver = systemResolver,
): Promise<UpstreamAnswer> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs)
  try {
    let current = url
    for (let hop = 0; ; hop++) {
      checkUpstreamUrl(current, policy)
      const response = await open(current, policy, resolver, controller.signal)
      const location = response.headers.location
      if (redirectStatuses.has(response.statusCode ?? 0) && location) {
        response.resume()
        if (hop >= limits.maxRedirects) {
          throw new UpstreamFailure('redirects', 'The map server redirected too many times.')
        }
        current = new URL(location, current)
        continue
      }
      if (response.statusCode !== 200) {
        response.resume()
        throw new UpstreamFailure(
          'status',
          `The map server answered HTTP ${response.statusCode}.`,
          response.statusCode,
        )
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN)
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        response.destroy()
        throw tooLarge(limits.maxBytes)
      }
      const body = await readLimited(decoded(response), limits.maxBytes)
      return {
        status: 200,
        contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
        body,
        finalUrl: current.href,
      }
    }
  } catch (error) {
    if (controller.signal.aborted) {
      throw new UpstreamFailure(
        'timeout',
        `The map server did not answer within ${limits.timeoutMs} ms.`,
      )
    }
    throw error
  } finally {
    clearTimeout(timer)
  }
}

function tooLarge(maxBytes: number): UpstreamFailure {
  return new UpstreamFailure(
    'tooLarge',
    `The map resource is larger than ${Math.round(maxBytes / 1024)} KB (MAP_PROXY_RESPONSE_LIMIT_KB).`,
  )
}

function open(
  url: URL,
  policy: UpstreamPolicy,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const request = send(url, {
      method: 'GET',
      signal,
      lookup: guardedLookup(policy, resolver) as never,
      headers: {
        accept: '*/*',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'Twinscape map proxy',
      },
    })
    request.on('response', resolve)
    request.on('error', (error) => {
      if (error.name === 'UpstreamRefusedError' || signal.aborted) reject(error)
      else
        reject(
          new UpstreamFailure('network', `The map server could not be reached (${error.message}).`),
        )
    })
    request.end()
  })
}

/** The body without its content encoding (vector tiles often come gzipped). */
function decoded(response: IncomingMessage): NodeJS.ReadableStream {
  switch (String(response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip())
    case 'deflate':
      return response.pipe(createInflate())
    case 'br':
      return response.pipe(createBrotliDecompress())
    default:
      return response
  }
}

async function readLimited(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let total = 0
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer
      total += buffer.byteLength
      if (total > maxBytes) throw tooLarge(maxBytes)
      chunks.push(buffer)
    }
  } catch (error) {
    ;(stream as unknown as { destroy?: () => void }).destroy?.()
    if (error instanceof UpstreamFailure) throw error
    throw new UpstreamFailure(
      'network',
      `The map server's answer broke off (${(error as Error).message}).`,
    )
  }
  return Buffer.concat(chunks)
}
