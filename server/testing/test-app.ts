import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import pg from 'pg'
import type { Envelope } from '../../contract/envelope'
import { buildApp } from '../app'
import { type Config, loadConfig } from '../config'
import { migrateToLatest } from '../migrations'
import { demoAccount, seedDatabase } from '../modules/accounts/seed'
import { createManualClock, type ManualClock } from './manual-clock'

/** The seeded admin of every test app. */
export const testAdmin = { name: 'admin', password: 'test-admin-password' } as const
/** The seeded demo editor (same as production's seed). */
export const testEditor = demoAccount

/** A migrated, seeded app on its own database, and how to dispose of it. */
export interface TestApp {
  app: FastifyInstance
  config: Config
  clock: ManualClock
  /** Closes the app and deletes its data directory (and its PostgreSQL schema). */
  close(): Promise<void>
}

/**
 * Builds the real app on a fresh database: a new SQLite file in a temporary DATA_DIR or, when
 * DATABASE_URL is a postgres:// address, a new schema in that database (dropped by `close`), so
 * test files never see each other's rows. `env` overrides variables (e.g. TOKEN_IDLE_MINUTES).
 * Logging is off unless `env.LOG_LEVEL` says otherwise, and so is the budget of refused requests
 * per client unless `env.REFUSED_REQUESTS_BURST` sets one (server/plugins/refusal-budget.ts).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>
    logStream?: { write(line: string): void }
    /** Extra routes for a test (e.g. to exercise defineRoute), registered before `ready`. */
    routes?: (app: FastifyInstance) => void
    /** False leaves the database empty (migrated, no users), to test the seed itself. */
    seed?: boolean
    /**
     * A second app instance on this app's database and DATA_DIR (two API processes, issue 22):
     * nothing is migrated or seeded again, and closing it leaves the data to its first app.
     */
    sharing?: TestApp
  } = {},
): Promise<TestApp> {
  const { sharing } = options
  const dataDir = sharing?.config.dataDir ?? (await mkdtemp(join(tmpdir(), 'twinscape-test-')))
  const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
    ? process.env.DATABASE_URL
    : undefined
  const sharedSchema =
    sharing?.config.database.kind === 'postgres' ? sharing.config.database.schema : undefined
  const schema =
    postgresUrl === undefined
      ? undefined
      : (sharedSchema ?? `test_${randomBytes(6).toString('hex')}`)
  if (postgresUrl !== undefined && schema !== undefined && sharing === undefined) {
    await runOnPostgres(postgresUrl, `create schema ${schema}`)
  }
  const removeData = async () => {
    if (sharing !== undefined) return
    if (postgresUrl !== undefined && schema !== undefined) {
      await runOnPostgres(postgresUrl, `drop schema if exists ${schema} cascade`)
    }
    await rm(dataDir, { recursive: true, force: true })
  }
  const clock = createManualClock()
  let config: Config
  let app: FastifyInstance | undefined
  try {
    config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_NAME: testAdmin.name,
      ADMIN_PASSWORD: testAdmin.password,
      LOG_LEVEL: 'silent',
      WEB_DIR: join(dataDir, 'no-web-build'),
      // Suites fire hundreds of bad inputs from one address; the budget's own tests turn it on.
      REFUSED_REQUESTS_BURST: '0',
      // a broker per test app only where a test asks for one (MQTT: 'on', MQTT_PORT: '0')
      MQTT: 'off',
      ...(postgresUrl === undefined ? {} : { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema }),
      ...options.env,
    })
    app = await buildApp(config, {
      clock,
      ...(options.logStream === undefined ? {} : { logStream: options.logStream }),
    })
    options.routes?.(app)
    const { database, repositories, services } = app.deps
    if (sharing === undefined) await migrateToLatest(database.db, { schema: database.schema })
    if (options.seed !== false && sharing === undefined) {
      await seedDatabase({ config, users: repositories.users, usersService: services.users })
    }
    await app.ready()
  } catch (error) {
    // Leave nothing behind when a test's set-up fails: no open pool, no schema, no folder.
    await app?.close()
    await removeData()
    throw error
  }
  const readyApp = app
  return {
    app: readyApp,
    config,
    clock,
    async close() {
      await readyApp.close()
      await removeData()
    },
  }
}

/** Runs one statement on the PostgreSQL server (schema set-up and clean-up). */
export async function runOnPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** One API call's answer: HTTP status, the parsed envelope and the raw headers. */
export interface ApiAnswer<Datum = unknown> {
  statusCode: number
  envelope: Envelope<Datum>
  headers: Record<string, unknown>
}

/**
 * Calls the API through `inject`: `json` sends JSON, `form` sends form-encoded text (a string
 * is sent as is, an object is encoded flat), `token` goes in the Token header.
 */
export async function callApi<Datum = unknown>(
  app: FastifyInstance,
  call: {
    url: string
    method?: InjectOptions['method']
    token?: string
    json?: unknown
    form?: string | Record<string, string>
    headers?: Record<string, string>
  },
): Promise<ApiAnswer<Datum>> {
  const headers: Record<string, string> = { ...call.headers }
  if (call.token !== undefined) headers.token = call.token
  let payload: string | undefined
  if (call.json !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(call.json)
  } else if (call.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    payload = typeof call.form === 'string' ? call.form : new URLSearchParams(call.form).toString()
  }
  const response = await app.inject({
    method: call.method ?? 'POST',
    url: call.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  })
  return {
    statusCode: response.statusCode,
    envelope: response.json() as Envelope<Datum>,
    headers: response.headers,
  }
}

/** Signs in and returns the token; fails the test if sign-in does not succeed. */
export async function signIn(
  app: FastifyInstance,
  credentials: { name: string; password: string },
): Promise<string> {
  const answer = await callApi<{ token: string }>(app, { url: '/web/login', json: credentials })
  if (answer.envelope.code !== '0') {
    throw new Error(`sign-in as ${credentials.name} failed: ${answer.envelope.message}`)
  }
  return answer.envelope.datum.token
}
