import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { describe, expect, it } from 'vitest'
import { createReadPresigner, type ReadOverrides } from './s3-presign'

/**
 * The store checks a signed address against its own signature of the same request (s3rver,
 * the tests' store, does not check SigV4 at all), so the one proof that an address opens the
 * file on AWS, MinIO or R2 is that it is the SDK's address: the same characters, every time.
 */

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
}

const stores: Record<string, { client: S3Client; bucket: string }> = {
  'a self-hosted store (path-style, own port)': {
    client: new S3Client({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials,
    }),
    bucket: 'twinscape-test',
  },
  'AWS (the bucket in the host name)': {
    client: new S3Client({ region: 'eu-central-1', credentials }),
    bucket: 'twinscape-tiles',
  },
  'AWS with a session token (a role)': {
    client: new S3Client({
      region: 'ap-northeast-2',
      credentials: { ...credentials, sessionToken: 'IQoJb3JpZ2luX2VjE/token+with=signs' },
    }),
    bucket: 'tiles.with.dots',
  },
}

const keys = [
  'prefix/tilesets/0f0e/tileset.json',
  'prefix/tilesets/0f0e/data/L4/tile 1 (ü+%).b3dm',
  "files/ab/weird!'()*~name",
  'offline-packages/p/한국어 패키지.zip',
]

const answers: ReadOverrides[] = [
  {},
  {
    ResponseContentType: 'application/octet-stream',
    ResponseCacheControl: 'private, max-age=31536000, immutable',
  },
  {
    ResponseContentType: 'application/json',
    ResponseCacheControl: 'private, max-age=31536000, immutable',
    ResponseContentDisposition: `attachment; filename="structure.json"; filename*=UTF-8''%EA%B5%AC%EC%A1%B0.json`,
  },
]

describe.each(Object.entries(stores))(
  'signed read addresses on %s',
  (_name, { client, bucket }) => {
    it("are the SDK's addresses, character for character", async () => {
      const presigner = createReadPresigner(client, bucket)
      // a window start mid-day and one just before midnight (the key's day changes after it)
      for (const dateMs of [Date.UTC(2026, 10, 28, 20, 30), Date.UTC(2026, 10, 28, 23, 59, 59)]) {
        for (const expiresIn of [3600, 604_800]) {
          for (const key of keys) {
            for (const overrides of answers) {
              const ours = await presigner.sign(key, overrides, { dateMs, expiresIn })
              const sdk = await getSignedUrl(
                client,
                new GetObjectCommand({ Bucket: bucket, Key: key, ...overrides }),
                { expiresIn, signingDate: new Date(dateMs) },
              )
              expect(ours).toBe(sdk)
            }
          }
        }
      }
    })
  },
)

describe('signed read addresses', () => {
  it('follow the credentials the client has now (rotated role credentials)', async () => {
    // credentials close to their expiry are fetched again by the SDK, as a role's are
    const soon = () => new Date(Date.now() + 60_000)
    let current = { ...credentials, expiration: soon() }
    const client = new S3Client({ region: 'us-east-1', credentials: async () => current })
    const presigner = createReadPresigner(client, 'twinscape-tiles')
    const signing = { dateMs: Date.UTC(2026, 10, 28, 20, 30), expiresIn: 3600 }
    const before = await presigner.sign('a/b.b3dm', {}, signing)
    current = { accessKeyId: 'AKIDROTATED', secretAccessKey: 'another-secret', expiration: soon() }
    const after = await presigner.sign('a/b.b3dm', {}, signing)
    expect(after).not.toBe(before)
    expect(after).toContain('X-Amz-Credential=AKIDROTATED%2F20261128')
    expect(after).toBe(
      await getSignedUrl(
        client,
        new GetObjectCommand({ Bucket: 'twinscape-tiles', Key: 'a/b.b3dm' }),
        {
          expiresIn: 3600,
          signingDate: new Date(signing.dateMs),
        },
      ),
    )
  })
})
