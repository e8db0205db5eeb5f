import { sql } from 'kysely'
import type { Database, DatabaseDialect } from '../../plugins/db'

/** A project's POIs as the package writes them, and what the plan needs to know of them. */
export interface PackagePois {
  /** Every POI row, every column, in list order (created_at, id), as one JSON array. */
  json: string
  count: number
  /** The templates the POIs use, each once. */
  templateIds: string[]
}

/**
 * Reads a project's POIs as JSON written by the database itself. With 10,000 POIs, reading the
 * rows into JavaScript objects and stringifying them cost more CPU than zipping the whole
 * package (profiled with bench/offline-package.ts); SQLite's json_object and PostgreSQL's
 * json_agg write the same array in one value. Numbers keep full precision on both (the SQLite
 * better-sqlite3 bundles writes the shortest round-trip form); a whole double may read `5.0`
 * from SQLite where JavaScript wrote `5`, the same JSON number.
 */
export async function readPackagePois(
  db: Database,
  dialect: DatabaseDialect,
  projectId: string,
): Promise<PackagePois> {
  let json: string
  if (dialect === 'postgres') {
    const { rows } = await sql<{ json: string }>`
      select coalesce(json_agg(p order by p.created_at, p.id), '[]'::json)::text as json
      from pois p where p.project_id = ${projectId}`.execute(db)
    json = rows[0]?.json ?? '[]'
  } else {
    // every column, in the table's order (as `select *` names them)
    const { rows: columns } = await sql<{ name: string }>`
      select name from pragma_table_info('pois') order by cid`.execute(db)
    const members = sql.join(
      columns.map(({ name }) => sql`${sql.lit(name)}, ${sql.ref(name)}`),
      sql`, `,
    )
    const { rows } = await sql<{ json: string | null }>`
      select json_group_array(json_object(${members}) order by created_at, id) as json
      from pois where project_id = ${projectId}`.execute(db)
    json = rows[0]?.json ?? '[]'
  }
  const templates = await db
    .selectFrom('pois')
    .select((builder) => ['category_id', builder.fn.countAll<number | string>().as('count')])
    .where('project_id', '=', projectId)
    .groupBy('category_id')
    .orderBy('category_id')
    .execute()
  return {
    json,
    count: templates.reduce((sum, row) => sum + Number(row.count), 0),
    templateIds: templates.map((row) => row.category_id),
  }
}
