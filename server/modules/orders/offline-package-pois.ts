import { Readable } from 'node:stream'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import type { DatabaseConfig } from '../../config'
import type { Database } from '../../plugins/db'

/** What the plan knows of a project's POI list before the writer reads it. */
export interface PackagePoisSummary {
  count: number
  /** The templates the POIs use, each once, sorted. */
  templateIds: string[]
}

/** How many POIs the project has and which templates they use: one grouped query, no rows. */
export async function summarizePackagePois(
  db: Database,
  projectId: string,
): Promise<PackagePoisSummary> {
  const rows = await db
    .selectFrom('pois')
    .select(['category_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('project_id', '=', projectId)
    .groupBy('category_id')
    .execute()
  return {
    count: rows.reduce((sum, row) => sum + Number(row.count), 0),
    // sorted here as the reader sorts them (a database's collation may order text otherwise)
    templateIds: rows.map((row) => row.category_id).sort(),
  }
}

/**
 * The POI list as the writer read it (the same two facts as {@link PackagePoisSummary}): the
 * build compares them with its plan's, so the manifest's count and templates.json always match
 * the rows in the package.
 */
export type PoiListTally = PackagePoisSummary

/**
 * Reads POI lists as JSON for a package thread, over a connection of its own: every list read
 * between `begin` and `end` comes from one snapshot of the database, so `pois.json` and the
 * viewer's `data.js` hold the very same rows even while people edit POIs.
 */
export interface PoiListReader {
  begin(): Promise<void>
  /**
   * The project's POIs, every column of every row, in list order (created_at, id), as one JSON
   * array and a line break, a few hundred rows at a time (never the whole list in memory).
   * `tally` hears the rows when the stream has ended.
   */
  open(projectId: string, tally: (read: PoiListTally) => void): Readable
  /** Ends the snapshot (a build that failed ends it too). */
  end(): Promise<void>
  close(): Promise<void>
}

/** Rows turned into one chunk of JSON text: a few hundred kilobytes. */
const rowsPerChunk = 500

/** One row as the reader gets it: the row's JSON, written by the database, and its template. */
type PoiJsonRow = [json: string, templateId: string]

/**
 * The JSON array of `rows` (pulled `rowsPerChunk` at a time), one string chunk per pull. Each
 * row's JSON is written by the database itself: with 10,000 POIs, reading rows into JavaScript
 * objects and stringifying them cost more CPU than zipping the whole package (profiled with
 * bench/offline-package.ts). Numbers keep full precision on both (a whole double may read `5.0`
 * from SQLite where JavaScript wrote `5`, the same JSON number).
 */
function jsonArrayOf(
  nextRows: () => Promise<PoiJsonRow[]>,
  tally: (read: PoiListTally) => void,
  onEnd: () => Promise<void>,
): Readable {
  let count = 0
  const templateIds = new Set<string>()
  let isDone = false
  const chunks = async function* () {
    try {
      yield '['
      for (;;) {
        const rows = await nextRows()
        if (rows.length === 0) break
        let text = count === 0 ? '' : ','
        for (let index = 0; index < rows.length; index++) {
          const [json, templateId] = rows[index] as PoiJsonRow
          text += index === 0 ? json : `,${json}`
          templateIds.add(templateId)
        }
        count += rows.length
        yield text
      }
      yield ']\n'
      isDone = true
    } finally {
      await onEnd()
    }
    if (isDone) tally({ count, templateIds: [...templateIds].sort() })
  }
  // bytes, not objects: the zip reads ahead by a chunk, not by 16 of them
  return Readable.from(chunks(), { objectMode: false })
}

/** Only a UUID is ever written into the cursor's query text. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A reader of the database `config` names (SQLite read-only; PostgreSQL one connection). */
export function openPoiListReader(config: DatabaseConfig): PoiListReader {
  return config.kind === 'sqlite' ? sqliteReader(config.file) : postgresReader(config)
}

function sqliteReader(file: string): PoiListReader {
  const connection = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
  connection.pragma('busy_timeout = 5000')
  // every column, in the table's order (as `select *` names them)
  const columns = (
    connection.prepare(`select name from pragma_table_info('pois') order by cid`).all() as Array<{
      name: string
    }>
  ).map(({ name }) => name)
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
  const members = columns.map((name) => `'${name.replaceAll("'", "''")}', ${quote(name)}`)
  const statement = connection
    .prepare(
      `select json_object(${members.join(', ')}), category_id from pois
       where project_id = ? order by created_at, id`,
    )
    .raw()
  return {
    async begin() {
      connection.exec('begin')
      // a deferred transaction takes its snapshot at its first read
      connection.prepare('select count(*) from pois').get()
    },
    open(projectId, tally) {
      // this connection is the thread's own: its rows may stay open across the zip's awaits
      let rows: IterableIterator<PoiJsonRow> | undefined
      return jsonArrayOf(
        async () => {
          rows ??= statement.iterate(projectId) as IterableIterator<PoiJsonRow>
          const chunk: PoiJsonRow[] = []
          for (let next = rows.next(); !next.done; next = rows.next()) {
            chunk.push(next.value)
            if (chunk.length === rowsPerChunk) break
          }
          return chunk
        },
        tally,
        async () => {
          rows?.return?.()
        },
      )
    },
    async end() {
      if (connection.inTransaction) connection.exec('rollback')
    },
    async close() {
      connection.close()
    },
  }
}

function postgresReader(config: { url: string; schema: string | undefined }): PoiListReader {
  let client: pg.Client | undefined
  let cursors = 0
  const connected = async () => {
    if (client) return client
    const opened = new pg.Client({
      connectionString: config.url,
      ...(config.schema === undefined ? {} : { options: `-c search_path=${config.schema}` }),
    })
    await opened.connect()
    client = opened
    return opened
  }
  return {
    async begin() {
      await (await connected()).query('begin isolation level repeatable read read only')
    },
    open(projectId, tally) {
      if (!uuidPattern.test(projectId)) throw new Error(`not a project id: ${projectId}`)
      const cursor = `package_pois_${++cursors}`
      let isDeclared = false
      return jsonArrayOf(
        async () => {
          const db = await connected()
          if (!isDeclared) {
            await db.query(
              `declare ${cursor} no scroll cursor for
               select row_to_json(pois)::text, category_id from pois
               where project_id = ${db.escapeLiteral(projectId)} order by created_at, id`,
            )
            isDeclared = true
          }
          const fetched = await db.query<PoiJsonRow>({
            text: `fetch forward ${rowsPerChunk} from ${cursor}`,
            rowMode: 'array',
          })
          return fetched.rows
        },
        tally,
        async () => {
          if (isDeclared && client) await client.query(`close ${cursor}`).catch(() => {})
        },
      )
    },
    async end() {
      await client?.query('rollback')
    },
    async close() {
      await client?.end()
      client = undefined
    },
  }
}
