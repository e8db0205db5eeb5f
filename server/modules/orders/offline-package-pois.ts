import { open } from 'node:fs/promises'
import { type RawBuilder, sql } from 'kysely'
import type { Database, DatabaseDialect } from '../../plugins/db'

/** A project's POI list as the package holds it, written to a file of the build's own. */
export interface SpooledPois {
  /** The file: every POI row, every column, in list order (created_at, id), as one JSON array. */
  path: string
  sizeBytes: number
  count: number
  /** The templates the POIs use, each once, sorted. */
  templateIds: string[]
}

/** POIs read and written per query: a few hundred kilobytes of JSON in memory at a time. */
const defaultChunkSize = 500

/**
 * Each POI row as JSON text, written by the database itself: with 10,000 POIs, reading the rows
 * into JavaScript objects and stringifying them cost more CPU than zipping the whole package
 * (profiled with bench/offline-package.ts). Numbers keep full precision on both (the SQLite
 * better-sqlite3 bundles writes the shortest round-trip form); a whole double may read `5.0`
 * from SQLite where JavaScript wrote `5`, the same JSON number.
 */
async function rowJsonOf(db: Database, dialect: DatabaseDialect): Promise<RawBuilder<string>> {
  if (dialect === 'postgres') return sql<string>`row_to_json(pois)::text`
  // every column, in the table's order (as `select *` names them)
  const { rows: columns } = await sql<{ name: string }>`
    select name from pragma_table_info('pois') order by cid`.execute(db)
  const members = sql.join(
    columns.map(({ name }) => sql`${sql.lit(name)}, ${sql.ref(name)}`),
    sql`, `,
  )
  return sql<string>`json_object(${members})`
}

/**
 * Writes a project's POIs as one JSON array (then a line break) to `path`, a chunk of rows at a
 * time, so a package of 10,000 POIs never holds their megabytes of JSON in memory: the list's
 * order is read first (ids only), then the rows' JSON by id, chunk after chunk. The package's
 * `pois.json` and the viewer's `data.js` both stream from the file. A POI deleted between the
 * two reads is left out; count and templates are those of the rows written.
 */
export async function spoolPackagePois(
  db: Database,
  dialect: DatabaseDialect,
  projectId: string,
  path: string,
  chunkSize = defaultChunkSize,
): Promise<SpooledPois> {
  const order = await db
    .selectFrom('pois')
    .select('id')
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const rowJson = await rowJsonOf(db, dialect)
  const templateIds = new Set<string>()
  let count = 0
  let sizeBytes = 0
  const file = await open(path, 'w')
  try {
    const write = async (text: string) => {
      const { bytesWritten } = await file.write(text)
      sizeBytes += bytesWritten
    }
    await write('[')
    for (let start = 0; start < order.length; start += chunkSize) {
      const rows = await db
        .selectFrom('pois')
        .select([rowJson.as('json'), 'category_id'])
        .where(
          'id',
          'in',
          order.slice(start, start + chunkSize).map((row) => row.id),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute()
      if (rows.length === 0) continue
      for (const row of rows) templateIds.add(row.category_id)
      await write(`${count === 0 ? '' : ','}${rows.map((row) => row.json).join(',')}`)
      count += rows.length
    }
    await write(']\n')
  } finally {
    await file.close()
  }
  return { path, sizeBytes, count, templateIds: [...templateIds].sort() }
}
