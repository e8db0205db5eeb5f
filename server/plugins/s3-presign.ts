import { createHash, createHmac } from 'node:crypto'
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'

/** The headers a signed read address makes the store answer with (S3's `response-*`). */
export interface ReadOverrides {
  ResponseContentType?: string | undefined
  ResponseCacheControl?: string | undefined
  ResponseContentDisposition?: string | undefined
}

/** Signs read addresses (GET object) of one bucket. */
export interface ReadPresigner {
  sign(
    key: string,
    overrides: ReadOverrides,
    signing: { dateMs: number; expiresIn: number },
  ): Promise<string>
}

const overrideNames = {
  ResponseContentType: 'response-content-type',
  ResponseCacheControl: 'response-cache-control',
  ResponseContentDisposition: 'response-content-disposition',
} as const

/** Query parameters SigV4 itself adds; anything else in a signed address is the operation's. */
const signingParameters = new Set([
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Security-Token',
  'X-Amz-Signature',
])

/** A key no bucket needs to hold: only its signed address is made, never fetched. */
const probeKey = 'presign-probe'

/** What every read address of the bucket shares, learnt from one address the SDK signed. */
interface AddressTemplate {
  origin: string
  host: string
  /** The path up to the key: `/<bucket>/` path-style, `/` on a bucket's own host. */
  pathPrefix: string
  /** The operation's own parameters (`x-id=GetObject`, the unsigned payload's hash). */
  fixed: ReadonlyArray<readonly [string, string]>
  region: string
  service: string
}

const byName = ([a]: readonly [string, string], [b]: readonly [string, string]) =>
  a < b ? -1 : a > b ? 1 : 0

/** RFC 3986 escaping, as SigV4 and the SDK's query strings use it. */
function escapeUri(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

function templateOf(probeUrl: string): AddressTemplate | undefined {
  const url = new URL(probeUrl)
  const query = url.searchParams
  const credential = query.get('X-Amz-Credential')?.split('/') ?? []
  // anything but plain SigV4 over the host alone (SigV4a, S3 Express, signed SSE-C headers)
  // stays with the SDK
  if (
    query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' ||
    query.get('X-Amz-SignedHeaders') !== 'host' ||
    credential.length < 5 ||
    !url.pathname.endsWith(`/${probeKey}`)
  ) {
    return undefined
  }
  return {
    origin: url.origin,
    host: url.host,
    pathPrefix: url.pathname.slice(0, -probeKey.length),
    fixed: [...query].filter(([name]) => !signingParameters.has(name)),
    region: credential[credential.length - 3]!,
    service: credential[credential.length - 2]!,
  }
}

/**
 * Signs read addresses the way the SDK's `getSignedUrl` does (the same address, character for
 * character: s3-presign.test.ts), for a small part of its cost: the SDK clones its middleware
 * stack, resolves the endpoint rules and derives the signing key for every address (about a
 * millisecond here), where an address is one canonical request, one SHA-256 and one HMAC with
 * a key derived once a day. What the endpoint rules decide (the host, path- or host-style
 * bucket, the signing region and the operation's parameters) is learnt once from one address
 * the SDK signs; a store the plain scheme does not fit is signed by the SDK every time.
 */
export function createReadPresigner(client: S3Client, bucket: string): ReadPresigner {
  let template: Promise<AddressTemplate | undefined> | undefined
  let signingKey: { id: string; key: Buffer } | undefined

  const sdkSign = (
    key: string,
    overrides: ReadOverrides,
    signing: { dateMs: number; expiresIn: number },
  ) =>
    getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key, ...overrides }), {
      expiresIn: signing.expiresIn,
      signingDate: new Date(signing.dateMs),
    })

  const keyFor = (secret: string, shortDate: string, region: string, service: string) => {
    const id = `${secret}\n${shortDate}\n${region}\n${service}`
    if (signingKey?.id !== id) {
      let key = createHmac('sha256', `AWS4${secret}`).update(shortDate).digest()
      for (const part of [region, service, 'aws4_request']) {
        key = createHmac('sha256', key).update(part).digest()
      }
      signingKey = { id, key }
    }
    return signingKey.key
  }

  return {
    async sign(key, overrides, signing) {
      template ??= sdkSign(probeKey, {}, { dateMs: Date.now(), expiresIn: 60 }).then(templateOf)
      const shape = await template
      if (shape === undefined) return sdkSign(key, overrides, signing)
      const credentials = await client.config.credentials()
      const longDate = new Date(signing.dateMs)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')
        .replace(/[-:]/g, '')
      const shortDate = longDate.slice(0, 8)
      const scope = `${shortDate}/${shape.region}/${shape.service}/aws4_request`
      const parameters: Array<readonly [string, string]> = [
        ...shape.fixed,
        ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
        ['X-Amz-Credential', `${credentials.accessKeyId}/${scope}`],
        ['X-Amz-Date', longDate],
        ['X-Amz-Expires', String(signing.expiresIn)],
        ['X-Amz-SignedHeaders', 'host'],
      ]
      if (credentials.sessionToken) {
        parameters.push(['X-Amz-Security-Token', credentials.sessionToken])
      }
      for (const [name, parameter] of Object.entries(overrideNames)) {
        const value = overrides[name as keyof ReadOverrides]
        if (value !== undefined) parameters.push([parameter, value])
      }
      parameters.sort(byName)
      const query = parameters
        .map(([name, value]) => `${escapeUri(name)}=${escapeUri(value)}`)
        .join('&')
      // the key's segments escaped one by one, '/' kept (S3 signs the path as sent)
      const path = `${shape.pathPrefix}${key.split('/').map(escapeUri).join('/')}`
      const canonicalRequest = `GET\n${path}\n${query}\nhost:${shape.host}\n\nhost\nUNSIGNED-PAYLOAD`
      const stringToSign = `AWS4-HMAC-SHA256\n${longDate}\n${scope}\n${createHash('sha256').update(canonicalRequest).digest('hex')}`
      const signature = createHmac(
        'sha256',
        keyFor(credentials.secretAccessKey, shortDate, shape.region, shape.service),
      )
        .update(stringToSign)
        .digest('hex')
      // the SDK lists the parameters sorted, the signature among them
      parameters.push(['X-Amz-Signature', signature])
      parameters.sort(byName)
      const signedQuery = parameters
        .map(([name, value]) => `${escapeUri(name)}=${escapeUri(value)}`)
        .join('&')
      return `${shape.origin}${path}?${signedQuery}`
    },
  }
}
