import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

describe('loadConfig', () => {
  it('has working defaults with an empty environment', () => {
    const config = loadConfig({}, '/srv/twinscape')
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/twinscape/data',
      filesDir: '/srv/twinscape/data/files',
      outboxFile: '/srv/twinscape/data/outbox.jsonl',
      database: { kind: 'sqlite', file: '/srv/twinscape/data/twinscape.sqlite' },
      adminName: 'admin',
      adminPassword: undefined,
      seedDemoUser: true,
      tokenIdleMs: 30 * 60_000,
      tokenLifetimeMs: 12 * 3_600_000,
      logLevel: 'info',
      webDir: '/srv/twinscape/dist/web',
      trustProxy: false,
      cspExtraOrigins: [],
    })
  })

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/twin',
        DATABASE_URL: 'postgres://app@db:5432/twin',
        DATABASE_SCHEMA: 'twin_a',
        ADMIN_NAME: 'root',
        ADMIN_PASSWORD: 'long enough secret',
        SEED_DEMO_USER: 'false',
        TOKEN_IDLE_MINUTES: '5',
        TOKEN_LIFETIME_HOURS: '1',
        LOG_LEVEL: 'warn',
        WEB_DIR: 'web',
        UPLOAD_LIMIT_MB: '10',
        TRUST_PROXY: '1',
        CSP_EXTRA_ORIGINS: 'https://tiles.example.com wss://live.example.com:8443',
      },
      '/app',
    )
    expect(config).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: '/var/lib/twin',
      database: { kind: 'postgres', url: 'postgres://app@db:5432/twin', schema: 'twin_a' },
      adminName: 'root',
      adminPassword: 'long enough secret',
      seedDemoUser: false,
      tokenIdleMs: 5 * 60_000,
      tokenLifetimeMs: 3_600_000,
      logLevel: 'warn',
      webDir: '/app/web',
      uploadLimitBytes: 10 * 1_048_576,
      trustProxy: true,
      cspExtraOrigins: ['https://tiles.example.com', 'wss://live.example.com:8443'],
    })
  })

  it('runs one process unless CLUSTER_WORKERS asks for more on PostgreSQL', () => {
    expect(loadConfig({}).clusterWorkers).toBe(1)
    expect(
      loadConfig({ CLUSTER_WORKERS: '3', DATABASE_URL: 'postgres://app@db/twin' }).clusterWorkers,
    ).toBe(3)
  })

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(8080)
    expect(loadConfig({ DATABASE_URL: '' }).database.kind).toBe('sqlite')
  })

  it.each([
    [{ PORT: 'eighty' }, /PORT: PORT must be a whole number from 0 to 65535 \(got 'eighty'\)/],
    [{ PORT: '70000' }, /PORT: .*from 0 to 65535/],
    [{ TOKEN_IDLE_MINUTES: '0' }, /TOKEN_IDLE_MINUTES/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ address/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true or false/],
    [{ CSP_EXTRA_ORIGINS: "https://a.com 'unsafe-eval'" }, /CSP_EXTRA_ORIGINS/],
    [{ DATABASE_SCHEMA: 'twin' }, /DATABASE_SCHEMA: only applies with a postgres/],
    [{ CLUSTER_WORKERS: '2' }, /CLUSTER_WORKERS: more than one process needs a postgres/],
    [{ CLUSTER_WORKERS: '0' }, /CLUSTER_WORKERS: .*from 1 to 64/],
  ])('refuses %o with a message naming the variable', (environment, message) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError)
    expect(() => loadConfig(environment)).toThrow(message)
  })

  it('names every wrong variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/)
  })

  it('never repeats a secret in its message', () => {
    try {
      loadConfig({ ADMIN_PASSWORD: 'short', DATABASE_URL: 'mysql://user:hunter2@db' })
      expect.unreachable()
    } catch (error) {
      const message = (error as Error).message
      expect(message).toContain('ADMIN_PASSWORD must have at least 8 characters')
      expect(message).toContain('DATABASE_URL')
      expect(message).not.toContain('short')
      expect(message).not.toContain('hunter2')
    }
  })

  it('takes URL_SIGNING_KEY as hex or base64 of 32 bytes or more, and never repeats it', () => {
    const hex = 'ab'.repeat(32)
    expect(loadConfig({}).urlSigningKey).toBeUndefined()
    expect(loadConfig({ URL_SIGNING_KEY: hex }).urlSigningKey).toEqual(Buffer.from(hex, 'hex'))
    const base64 = Buffer.alloc(48, 7).toString('base64')
    expect(loadConfig({ URL_SIGNING_KEY: base64 }).urlSigningKey).toEqual(Buffer.alloc(48, 7))
    for (const weak of ['hunter2', 'ab'.repeat(31), 'not a key at all, with spaces']) {
      try {
        loadConfig({ URL_SIGNING_KEY: weak })
        expect.unreachable()
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError)
        const message = (error as Error).message
        expect(message).toContain('URL_SIGNING_KEY must be at least 32 random bytes')
        expect(message).not.toContain(weak)
      }
    }
  })

  it('keeps files in DATA_DIR/files unless STORAGE_URL names an S3 bucket', () => {
    expect(loadConfig({}, '/srv').storage).toEqual({ kind: 'folder' })
    const { storage } = loadConfig(
      {
        STORAGE_URL: 's3://twin-files/prod/eu/',
        AWS_ENDPOINT_URL_S3: 'http://minio:9000',
        AWS_ACCESS_KEY_ID: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
        STORAGE_SERVE: 'redirect',
      },
      '/srv',
    )
    expect(storage).toEqual({
      kind: 's3',
      bucket: 'twin-files',
      prefix: 'prod/eu/',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      serve: 'redirect',
      signedUrlSeconds: 3600,
    })
    // on AWS itself: virtual-host addressing and the SDK's own credentials
    expect(loadConfig({ STORAGE_URL: 's3://twin-files' }, '/srv').storage).toMatchObject({
      prefix: '',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
      serve: 'proxy',
    })
  })

  it('names each wrong storage variable', () => {
    try {
      loadConfig({
        STORAGE_URL: 'https://twin-files',
        STORAGE_SERVE: 'cdn',
        AWS_ENDPOINT_URL_S3: 'minio:9000',
      })
      expect.unreachable()
    } catch (error) {
      const message = (error as Error).message
      expect(message).toContain('STORAGE_URL must be s3://bucket or s3://bucket/prefix')
      expect(message).toContain('STORAGE_SERVE must be redirect or proxy')
      expect(message).toContain('AWS_ENDPOINT_URL_S3 must be an http:// or https:// address')
    }
  })
})
