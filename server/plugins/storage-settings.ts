import type { S3ClientConfig } from '@aws-sdk/client-s3'
import { z } from 'zod'

/**
 * Where the file store keeps uploaded files (docs/deploy.md "Object storage"): the folder
 * DATA_DIR/files (the default), or an S3-compatible bucket named by STORAGE_URL and reached with
 * the usual AWS variables, so several server processes on several machines share one store.
 */
export type StorageSettings = { kind: 'folder' } | S3StorageSettings

/** An S3-compatible bucket: AWS S3, MinIO, Ceph RGW, Cloudflare R2 … */
export interface S3StorageSettings {
  kind: 's3'
  bucket: string
  /** Put before every key: '' or a path ending in '/'. */
  prefix: string
  region: string
  /** The store's address when it is not AWS itself (MinIO, Ceph, R2 …). */
  endpoint: string | undefined
  /** The bucket in the path (`host/bucket/key`), as self-hosted stores usually want. */
  forcePathStyle: boolean
  /** Unset: the SDK's own chain (environment, shared profile, instance or pod role …). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined
  /**
   * `redirect`: a file is answered with a redirect to a signed address of the store, which then
   * sends the bytes; `proxy`: this server reads them from the store and sends them (a store
   * private to the servers).
   */
  serve: 'redirect' | 'proxy'
  /** How long a signed address of the store stays valid. */
  signedUrlSeconds: number
}

const storageUrlPattern = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/\S*)?$/

const endpointText = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// address` })

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const storageEnvironmentShape = {
  STORAGE_URL: z
    .string()
    .regex(
      storageUrlPattern,
      'STORAGE_URL must be s3://bucket or s3://bucket/prefix (leave it unset for files in DATA_DIR/files)',
    )
    .optional(),
  STORAGE_SERVE: z
    .enum(['redirect', 'proxy'], { error: 'STORAGE_SERVE must be redirect or proxy' })
    .default('proxy'),
  STORAGE_SIGNED_URL_SECONDS: z
    .string()
    .regex(/^\d+$/, 'STORAGE_SIGNED_URL_SECONDS must be a whole number from 60 to 604800')
    .transform(Number)
    .refine(
      (value) => value >= 60 && value <= 604_800,
      'STORAGE_SIGNED_URL_SECONDS must be from 60 to 604800 (7 days, the most S3 signs for)',
    )
    .default(3600),
  STORAGE_S3_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: 'STORAGE_S3_PATH_STYLE must be true or false',
    })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional(),
  AWS_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'AWS_REGION must be a region name such as eu-central-1')
    .optional(),
  AWS_ENDPOINT_URL_S3: endpointText('AWS_ENDPOINT_URL_S3').optional(),
  AWS_ENDPOINT_URL: endpointText('AWS_ENDPOINT_URL').optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
}

const storageEnvironmentSchema = z.object(storageEnvironmentShape)

/** Variables of these settings whose values never appear in an error message. */
export const storageSecretVariables = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const

/** The settings from the parsed variables. */
export function storageSettingsOf(
  values: z.output<typeof storageEnvironmentSchema>,
): StorageSettings {
  const match = values.STORAGE_URL === undefined ? null : storageUrlPattern.exec(values.STORAGE_URL)
  if (match === null) return { kind: 'folder' }
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '')
  const endpoint = values.AWS_ENDPOINT_URL_S3 ?? values.AWS_ENDPOINT_URL
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = values
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: prefix === '' ? '' : `${prefix}/`,
    region: values.AWS_REGION ?? 'us-east-1',
    endpoint,
    forcePathStyle: values.STORAGE_S3_PATH_STYLE ?? endpoint !== undefined,
    credentials:
      accessKeyId === undefined || secretAccessKey === undefined
        ? undefined
        : {
            accessKeyId,
            secretAccessKey,
            ...(values.AWS_SESSION_TOKEN === undefined
              ? {}
              : { sessionToken: values.AWS_SESSION_TOKEN }),
          },
    serve: values.STORAGE_SERVE,
    signedUrlSeconds: values.STORAGE_SIGNED_URL_SECONDS,
  }
}

/**
 * How an S3 client reaches the bucket of these settings; every client of the bucket (the file
 * store's, the resumable uploads') is made with it.
 */
export function s3ClientConfigOf(settings: S3StorageSettings): S3ClientConfig {
  return {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    // Checksums only where S3 demands them: by default the SDK sends bodies aws-chunked with a
    // CRC32 trailer, which several S3-compatible stores keep verbatim, framing and all.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }
}
