import { isIP } from 'node:net'
import { isAbsolute, join, resolve } from 'node:path'
import { z } from 'zod'
import { passwordMaxLength } from '../contract/auth'
import { signingKeyBytes, signingKeyOfText } from './modules/access/url-signer'
import type { MapProxySettings } from './modules/map-proxy/map-proxy.service'
import {
  type AccountSecuritySettings,
  accountSecurityEnvironmentShape,
  accountSecuritySettingsOf,
} from './modules/auth/account-security-settings'
import {
  type EmbeddedProductsSettings,
  embeddedProductsEnvironmentShape,
  embeddedProductsSettingsOf,
} from './modules/iot/embedded-products'
import {
  type JobQueueSettings,
  jobQueueEnvironmentShape,
  jobQueueSettingsOf,
} from './modules/jobs/job-queue-settings'
import { type IotSettings, iotEnvironmentShape, iotSettingsOf } from './modules/iot/iot-settings'
import {
  type MqttSettings,
  mqttEnvironmentShape,
  mqttSettingsOf,
} from './modules/iot/mqtt/mqtt-settings'
import {
  type StorageSettings,
  storageEnvironmentShape,
  storageSecretVariables,
  storageSettingsOf,
} from './plugins/storage-settings'

/** Log levels pino understands; `silent` turns logging off. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof logLevels)[number]

/** Where the data lives: a SQLite file in the data directory, or a PostgreSQL server. */
export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema: string | undefined }

/**
 * The budget of refused requests per client (server/plugins/refusal-budget.ts): how many
 * refused requests one client may cause before its requests are refused unread, `burst` at
 * once, then `perMinute` more each minute (a token bucket).
 */
export interface RefusalBudgetSettings {
  /** 0 turns the budget off (tests that fire thousands of bad inputs from one address). */
  burst: number
  perMinute: number
  /** Most client addresses remembered; beyond it, full or oldest buckets are forgotten. */
  maxAddresses?: number
  /**
   * How long a request of a client out of budget is held unread before its 429 is sent (a
   * flooding client waits that long per request instead of reconnecting at once); 0 answers at
   * once.
   */
  holdMs?: number
}

/** The server's settings, read once at start-up from the environment (docs/configuration.md). */
export interface Config {
  port: number
  host: string
  /** Absolute path of DATA_DIR. */
  dataDir: string
  /**
   * Uploaded files, content-addressed (server/plugins/storage.ts); with an S3 store, where
   * uploads are spooled while they are hashed.
   */
  filesDir: string
  /** The folder (default) or an S3-compatible bucket for uploaded files. */
  storage: StorageSettings
  /** Outgoing SMS/e-mail of the default local provider, one JSON object a line. */
  outboxFile: string
  database: DatabaseConfig
  adminName: string
  /** Unset: a strong password is generated when the admin is first created, and printed once. */
  adminPassword: string | undefined
  seedDemoUser: boolean
  tokenIdleMs: number
  tokenLifetimeMs: number
  logLevel: LogLevel
  /** The built web app (`vite build` output). */
  webDir: string
  /** Largest file a multipart upload may carry. */
  uploadLimitBytes: number
  /** Unfinished and unclaimed resumable (tus) uploads, one file and one `.json` each. */
  resumableDir: string
  /** Largest resumable upload. */
  resumableUploadLimitBytes: number
  /** An unfinished or unclaimed resumable upload is deleted this long after its creation. */
  resumableUploadExpiryMs: number
  /** Largest IndoorGML file a building project may carry. */
  gmlUploadLimitBytes: number
  /** Largest oblique-photography upload (zip or .3tz), and the most it may expand to. */
  tilesetUploadLimitBytes: number
  /** Largest PMTiles basemap upload. */
  basemapUploadLimitBytes: number
  /**
   * The key of every signed file address (URL_SIGNING_KEY); unset: the one in the database,
   * made once (server/modules/access/signing-key.ts).
   */
  urlSigningKey: Buffer | undefined
  trustProxy: boolean
  /** Server processes `npm run serve` starts on this machine (node:cluster); more than 1 needs PostgreSQL. */
  clusterWorkers: number
  /**
   * Refused requests (400, 413, 415) one client address may cause before its /web/ calls are
   * answered 429 unread (server/plugins/refusal-budget.ts); a burst of 0 turns it off.
   */
  refusalBudget: RefusalBudgetSettings
  /** `Strict-Transport-Security` max-age sent on answers to https requests; 0 sends none. */
  hstsMaxAgeSeconds: number
  /** Remote origins the web app may load maps, video and embedded pages from (CSP). */
  cspExtraOrigins: string[]
  /** A Nominatim-compatible geocoder tried before the offline one, or undefined for offline only. */
  geocoderUrl: string | undefined
  /** How long the online geocoder may take before the offline answer is used instead. */
  geocoderTimeoutMs: number
  /** A MapLibre style the map picker uses instead of the offline style, or undefined. */
  mapStyleUrl: string | undefined
  /** The map proxy for online styles (server/modules/map-proxy). */
  mapProxy: MapProxySettings
  /** Sign-in, sign-up code, e-mail check and guest limits; the message gateway. */
  accountSecurity: AccountSecuritySettings
  /** Time-series retention and the per-device ingest rate (issue 17). */
  iot: IotSettings
  /** MQTT ingest through a local mosquitto (issue 17). */
  mqtt: MqttSettings
  /** The ThingsBoard and shadow-render editor the console embeds (issue 17 item 9). */
  embeddedProducts: EmbeddedProductsSettings
  /** Background jobs in this process, or on the queue shared through PostgreSQL (issue 22). */
  jobQueue: JobQueueSettings
}

/** A configuration the server cannot start with; the message names every wrong variable. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

const integerText = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `${name} must be from ${min} to ${max}`)

const booleanText = (name: string) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
      error: `${name} must be true or false`,
    })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')

const httpUrlText = (name: string) =>
  z.string().refine((text) => {
    try {
      return ['http:', 'https:'].includes(new URL(text).protocol)
    } catch {
      return false
    }
  }, `${name} must be an http:// or https:// address`)

const environmentSchema = z.object({
  PORT: integerText('PORT', 0, 65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\/.+/,
      'DATABASE_URL must be a postgres:// address (leave it unset for SQLite in DATA_DIR)',
    )
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(
      /^[a-z_][a-z0-9_]{0,62}$/,
      'DATABASE_SCHEMA must be a lower-case SQL name (letters, digits, _)',
    )
    .optional(),
  ADMIN_NAME: z
    .string()
    .regex(/^\S{1,64}$/, 'ADMIN_NAME must be 1 to 64 characters without spaces')
    .default('admin'),
  ADMIN_PASSWORD: z
    .string()
    .min(8, 'ADMIN_PASSWORD must have at least 8 characters')
    .max(passwordMaxLength, `ADMIN_PASSWORD must have at most ${passwordMaxLength} characters`)
    .optional(),
  SEED_DEMO_USER: booleanText('SEED_DEMO_USER').default(true),
  TOKEN_IDLE_MINUTES: integerText('TOKEN_IDLE_MINUTES', 1, 525_600).default(30),
  TOKEN_LIFETIME_HOURS: integerText('TOKEN_LIFETIME_HOURS', 1, 8_760).default(12),
  LOG_LEVEL: z
    .enum(logLevels, { error: `LOG_LEVEL must be one of ${logLevels.join(', ')}` })
    .default('info'),
  WEB_DIR: z.string().min(1).default('./dist/web'),
  UPLOAD_LIMIT_MB: integerText('UPLOAD_LIMIT_MB', 1, 1_048_576).default(2048),
  RESUMABLE_UPLOAD_LIMIT_MB: integerText('RESUMABLE_UPLOAD_LIMIT_MB', 1, 4_194_304).default(20_480),
  RESUMABLE_UPLOAD_EXPIRY_HOURS: integerText('RESUMABLE_UPLOAD_EXPIRY_HOURS', 1, 8_760).default(24),
  GML_UPLOAD_LIMIT_MB: integerText('GML_UPLOAD_LIMIT_MB', 1, 10_240).default(200),
  TILESET_UPLOAD_LIMIT_MB: integerText('TILESET_UPLOAD_LIMIT_MB', 1, 4_194_304).default(20_480),
  BASEMAP_UPLOAD_LIMIT_MB: integerText('BASEMAP_UPLOAD_LIMIT_MB', 1, 4_194_304).default(20_480),
  URL_SIGNING_KEY: z
    .string()
    .transform((text, context) => {
      const key = signingKeyOfText(text)
      if (key === undefined) {
        context.addIssue({
          code: 'custom',
          message: `URL_SIGNING_KEY must be at least ${signingKeyBytes} random bytes as hex or base64 (e.g. openssl rand -base64 32)`,
        })
        return z.NEVER
      }
      return key
    })
    .optional(),
  TRUST_PROXY: booleanText('TRUST_PROXY').default(false),
  CLUSTER_WORKERS: integerText('CLUSTER_WORKERS', 1, 64).default(1),
  REFUSED_REQUESTS_BURST: integerText('REFUSED_REQUESTS_BURST', 0, 1_000_000).default(60),
  REFUSED_REQUESTS_PER_MINUTE: integerText('REFUSED_REQUESTS_PER_MINUTE', 1, 1_000_000).default(60),
  REFUSED_REQUESTS_HOLD_MS: integerText('REFUSED_REQUESTS_HOLD_MS', 0, 60_000).default(1000),
  HSTS_MAX_AGE_SECONDS: integerText('HSTS_MAX_AGE_SECONDS', 0, 63_072_000).default(15_552_000),
  CSP_EXTRA_ORIGINS: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter((origin) => origin !== ''))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(https?|wss?):(\/\/[^\s/'";]+)?$/,
            'CSP_EXTRA_ORIGINS must list origins like https://tiles.example.com (or a scheme like https:), separated by spaces',
          ),
      ),
    )
    .default([]),
  GEOCODER_URL: httpUrlText('GEOCODER_URL').optional(),
  GEOCODER_TIMEOUT_MS: integerText('GEOCODER_TIMEOUT_MS', 100, 60_000).default(3000),
  MAP_STYLE_URL: httpUrlText('MAP_STYLE_URL').optional(),
  MAP_PROXY_HOSTS: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter((host) => host !== ''))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(\*|(\*\.)?[a-zA-Z0-9.-]+|\[[0-9a-fA-F:.]+\])$/,
            'MAP_PROXY_HOSTS must list host names like tiles.example.com or *.example.com (or *), separated by spaces',
          ),
      ),
    )
    .optional(),
  MAP_PROXY_TIMEOUT_MS: integerText('MAP_PROXY_TIMEOUT_MS', 100, 120_000).default(10_000),
  MAP_PROXY_RESPONSE_LIMIT_KB: integerText('MAP_PROXY_RESPONSE_LIMIT_KB', 1, 1_048_576).default(
    20_480,
  ),
  MAP_CACHE_LIMIT_MB: integerText('MAP_CACHE_LIMIT_MB', 1, 4_194_304).default(2048),
  MAP_CACHE_FRESH_HOURS: integerText('MAP_CACHE_FRESH_HOURS', 0, 87_600).default(168),
  MAP_KEEP_REGION_MAX_TILES: integerText('MAP_KEEP_REGION_MAX_TILES', 1, 1_000_000).default(5000),
  MAP_PROXY_TEST_PRIVATE_ADDRESSES: z
    .string()
    .transform((text) => text.split(/[\s,]+/).filter((address) => address !== ''))
    .pipe(
      z.array(
        z
          .string()
          .refine(
            (address) => isIP(address) !== 0,
            'MAP_PROXY_TEST_PRIVATE_ADDRESSES must list IP addresses (for tests only)',
          ),
      ),
    )
    .default([]),
  ...accountSecurityEnvironmentShape,
  ...iotEnvironmentShape,
  ...mqttEnvironmentShape,
  ...embeddedProductsEnvironmentShape,
  ...storageEnvironmentShape,
  ...jobQueueEnvironmentShape,
})

/** Every environment variable the server reads (deploy files are checked against it). */
export const configVariableNames: readonly string[] = Object.keys(environmentSchema.shape)

/**
 * Map hosts the proxy may fetch from when MAP_PROXY_HOSTS is unset: well-known free MapLibre
 * styles and their tile, glyph and sprite servers (docs/configuration.md).
 */
export const defaultMapProxyHosts: readonly string[] = [
  'tiles.openfreemap.org',
  'demotiles.maplibre.org',
  'basemaps.cartocdn.com',
  '*.basemaps.cartocdn.com',
]

/** Variables whose values must not appear in an error message. */
const secretVariables = new Set<string>([
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'MESSAGE_WEBHOOK_URL',
  'URL_SIGNING_KEY',
  ...storageSecretVariables,
])

/**
 * Reads the configuration from environment variables. Empty variables count as unset.
 * Throws a ConfigError naming each invalid variable (and its value unless it is a secret).
 */
export function loadConfig(
  environment: Record<string, string | undefined> = process.env,
  workingDirectory = process.cwd(),
): Config {
  const present: Record<string, string> = {}
  for (const name of Object.keys(environmentSchema.shape)) {
    const value = environment[name]
    if (value !== undefined && value.trim() !== '') present[name] = value.trim()
  }
  const parsed = environmentSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '')
      const shown = secretVariables.has(name) ? '' : ` (got '${present[name] ?? ''}')`
      return `  ${name}: ${issue.message}${shown}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const values = parsed.data
  const absolute = (path: string) => (isAbsolute(path) ? path : resolve(workingDirectory, path))
  const dataDir = absolute(values.DATA_DIR)
  if (values.DATABASE_SCHEMA !== undefined && values.DATABASE_URL === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  DATABASE_SCHEMA: only applies with a postgres:// DATABASE_URL',
    )
  }
  if (values.CLUSTER_WORKERS > 1 && values.DATABASE_URL === undefined) {
    throw new ConfigError(
      "Invalid configuration:\n  CLUSTER_WORKERS: more than one process needs a postgres:// DATABASE_URL (SQLite is one process's)",
    )
  }
  const jobQueue = jobQueueSettingsOf(values)
  if ('problem' in jobQueue) throw new ConfigError(`Invalid configuration:\n  ${jobQueue.problem}`)
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    filesDir: join(dataDir, 'files'),
    storage: storageSettingsOf(values),
    outboxFile: join(dataDir, 'outbox.jsonl'),
    database:
      values.DATABASE_URL === undefined
        ? { kind: 'sqlite', file: join(dataDir, 'twinscape.sqlite') }
        : { kind: 'postgres', url: values.DATABASE_URL, schema: values.DATABASE_SCHEMA },
    adminName: values.ADMIN_NAME,
    adminPassword: values.ADMIN_PASSWORD,
    seedDemoUser: values.SEED_DEMO_USER,
    tokenIdleMs: values.TOKEN_IDLE_MINUTES * 60_000,
    tokenLifetimeMs: values.TOKEN_LIFETIME_HOURS * 3_600_000,
    logLevel: values.LOG_LEVEL,
    webDir: absolute(values.WEB_DIR),
    uploadLimitBytes: values.UPLOAD_LIMIT_MB * 1_048_576,
    resumableDir: join(dataDir, 'resumable'),
    resumableUploadLimitBytes: values.RESUMABLE_UPLOAD_LIMIT_MB * 1_048_576,
    resumableUploadExpiryMs: values.RESUMABLE_UPLOAD_EXPIRY_HOURS * 3_600_000,
    gmlUploadLimitBytes: values.GML_UPLOAD_LIMIT_MB * 1_048_576,
    tilesetUploadLimitBytes: values.TILESET_UPLOAD_LIMIT_MB * 1_048_576,
    basemapUploadLimitBytes: values.BASEMAP_UPLOAD_LIMIT_MB * 1_048_576,
    urlSigningKey: values.URL_SIGNING_KEY,
    trustProxy: values.TRUST_PROXY,
    clusterWorkers: values.CLUSTER_WORKERS,
    refusalBudget: {
      burst: values.REFUSED_REQUESTS_BURST,
      perMinute: values.REFUSED_REQUESTS_PER_MINUTE,
      holdMs: values.REFUSED_REQUESTS_HOLD_MS,
    },
    hstsMaxAgeSeconds: values.HSTS_MAX_AGE_SECONDS,
    // online styles come through the map proxy: nothing to add to the CSP for them
    cspExtraOrigins: values.CSP_EXTRA_ORIGINS,
    geocoderUrl: values.GEOCODER_URL,
    geocoderTimeoutMs: values.GEOCODER_TIMEOUT_MS,
    mapStyleUrl: values.MAP_STYLE_URL,
    mapProxy: {
      allowedHosts: [
        ...(values.MAP_PROXY_HOSTS ?? defaultMapProxyHosts),
        ...(values.MAP_STYLE_URL === undefined ? [] : [new URL(values.MAP_STYLE_URL).hostname]),
      ],
      allowedPrivateAddresses: values.MAP_PROXY_TEST_PRIVATE_ADDRESSES,
      timeoutMs: values.MAP_PROXY_TIMEOUT_MS,
      responseLimitBytes: values.MAP_PROXY_RESPONSE_LIMIT_KB * 1024,
      cacheDirectory: join(dataDir, 'map-cache'),
      cacheLimitBytes: values.MAP_CACHE_LIMIT_MB * 1_048_576,
      cacheFreshMs: values.MAP_CACHE_FRESH_HOURS * 3_600_000,
      keepRegionMaxTiles: values.MAP_KEEP_REGION_MAX_TILES,
    },
    accountSecurity: accountSecuritySettingsOf(values),
    iot: iotSettingsOf(values),
    mqtt: mqttSettingsOf(values),
    embeddedProducts: embeddedProductsSettingsOf(values),
    jobQueue,
  }
}
