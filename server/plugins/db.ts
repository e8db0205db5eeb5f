import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import BetterSqlite3 from 'better-sqlite3'
import {
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PluginTransformResultArgs,
  SqliteDialect,
  sql,
} from 'kysely'
import pg from 'pg'
import type { DatabaseConfig } from '../config'
import type { Tables } from '../migrations/tables'

/** The two supported SQL engines. */
export type DatabaseDialect = 'sqlite' | 'postgres'

/** The Kysely instance the repositories use. */
export type Database = Kysely<Tables>

/** An open database: the query builder, which engine it is, and how to close it. */
export interface DatabaseHandle {
  db: Database
  dialect: DatabaseDialect
  /** The PostgreSQL schema tables live in, when DATABASE_SCHEMA sets one. */
  schema: string | undefined
  /**
   * The SQLite connection itself (undefined on PostgreSQL), for hot paths that keep prepared
   * statements (IoT ingest). Use it only inside a transaction of `db`: Kysely holds its one
   * connection for the whole transaction, so these statements join it and nothing interleaves.
   */
  sqlite: BetterSqlite3.Database | undefined
  /** Answers whether the database responds to a trivial query. */
  ping(): Promise<void>
  close(): Promise<void>
}

/** How long a SQLite writer waits for a lock held by another connection before failing. */
const sqliteBusyTimeoutMs = 5_000

/**
 * Opens the configured database. SQLite runs in WAL mode with `synchronous=FULL`, so a
 * transaction acknowledged to a client survives the process being killed (and a power cut),
 * and enforces foreign keys (off by default in SQLite).
 */
export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'sqlite') {
    mkdirSync(dirname(config.file), { recursive: true })
    const connection = new BetterSqlite3(config.file)
    connection.pragma('journal_mode = WAL')
    connection.pragma('synchronous = FULL')
    connection.pragma('foreign_keys = ON')
    connection.pragma(`busy_timeout = ${sqliteBusyTimeoutMs}`)
    const db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: connection }),
      plugins: [new EventLoopTurns()],
    })
    // Asked of the connection itself, not through Kysely's one-connection lock: health answers
    // at once while a long transaction (100,000 POIs) holds the lock, and `select 1` inside
    // that transaction changes nothing.
    const statement = connection.prepare('select 1 as ok')
    return handleFor(db, 'sqlite', undefined, connection, async () => {
      statement.get()
    })
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // Each connection resolves unqualified table names in the configured schema.
    ...(config.schema === undefined ? {} : { options: `-c search_path=${config.schema}` }),
  })
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) })
  return handleFor(db, 'postgres', config.schema, undefined)
}

/**
 * Gives the event loop a turn between SQLite statements once they have held it for
 * {@link sqliteTurnMs}: better-sqlite3 runs each statement synchronously and Kysely's awaits
 * between them are microtasks, so a transaction of thousands of statements (a list call's
 * 100,000 POIs) otherwise held every other request until it ended. Other requests' queries
 * still wait for the transaction (one connection), but everything else they do goes on.
 */
class EventLoopTurns implements KyselyPlugin {
  /** When the current run of statements without a turn of the event loop began. */
  #runStartedAtMs = 0
  #isInRun = false

  transformQuery: KyselyPlugin['transformQuery'] = (args) => args.node

  async transformResult(args: PluginTransformResultArgs) {
    if (!this.#isInRun) {
      this.#isInRun = true
      this.#runStartedAtMs = performance.now()
      // runs at the event loop's next turn, whoever gives it: the run ends there
      setImmediate(() => {
        this.#isInRun = false
      })
    } else if (performance.now() - this.#runStartedAtMs >= sqliteTurnMs) {
      await nextTurn()
    }
    return args.result
  }
}

/** Longest a run of SQLite statements holds the event loop before it gives a turn. */
const sqliteTurnMs = 10

function handleFor(
  db: Database,
  dialect: DatabaseDialect,
  schema: string | undefined,
  sqlite: BetterSqlite3.Database | undefined,
  ping: () => Promise<void> = async () => {
    await sql`select 1 as ok`.execute(db)
  },
): DatabaseHandle {
  let isClosed = false
  return {
    db,
    dialect,
    schema,
    sqlite,
    ping,
    async close() {
      if (isClosed) return
      isClosed = true
      await db.destroy()
    },
  }
}

/**
 * True when an error is a unique-constraint violation, in either dialect, so services can
 * answer `conflict` instead of `internal` when two requests race for the same name.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  )
}
