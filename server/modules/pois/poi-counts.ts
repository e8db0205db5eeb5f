import { sql } from 'kysely'
import type { Database } from '../../plugins/db'

/**
 * How many POIs a project has, in all and per template and per floor, kept beside the POIs in
 * the same transactions that change them: `findPoi` answers a page's total from here when it is
 * filtered by nothing, one template (or a category's templates) or one floor, instead of
 * counting 100,000 index entries per page. Every other filter counts its matches.
 */

/** The count keys a POI adds to. */
export function countKeysOf(poi: { category_id: string; floor_id?: string }): string[] {
  const keys = ['all', templateKey(poi.category_id)]
  if (poi.floor_id) keys.push(floorKey(poi.floor_id))
  return keys
}

/** The key of one template's count. */
export const templateKey = (templateId: string) => `template:${templateId}`
/** The key of one floor's count. */
export const floorKey = (floorId: string) => `floor:${floorId}`

/** A change of the counts: POIs added (+) or removed (−) under some keys of a project. */
export class CountChanges {
  private readonly deltas = new Map<string, { projectId: string; key: string; delta: number }>()

  /** Adds `delta` to every key of `poi` in its project. */
  add(projectId: string, poi: { category_id: string; floor_id?: string }, delta: number): this {
    for (const key of countKeysOf(poi)) this.addKey(projectId, key, delta)
    return this
  }

  /** Adds `delta` to one key. */
  addKey(projectId: string, key: string, delta: number): this {
    const id = `${projectId}\u0000${key}`
    const entry = this.deltas.get(id) ?? { projectId, key, delta: 0 }
    entry.delta += delta
    this.deltas.set(id, entry)
    return this
  }

  /** Writes the changes (in the caller's transaction). */
  async write(transaction: Database): Promise<void> {
    for (const { projectId, key, delta } of this.deltas.values()) {
      if (delta === 0) continue
      await transaction
        .insertInto('poi_counts')
        .values({ project_id: projectId, key, count: delta })
        .onConflict((conflict) =>
          conflict
            .columns(['project_id', 'key'])
            .doUpdateSet({ count: sql<number>`poi_counts.count + ${delta}` }),
        )
        .execute()
    }
  }
}

/** The sum of some counts of a project (0 for keys never counted). */
export async function countOf(
  db: Database,
  projectId: string,
  keys: readonly string[],
): Promise<number> {
  if (keys.length === 0) return 0
  const rows = await db
    .selectFrom('poi_counts')
    .select('count')
    .where('project_id', '=', projectId)
    .where('key', 'in', [...keys])
    .execute()
  return rows.reduce((sum, row) => sum + Number(row.count), 0)
}

/** Counts a project's POIs from scratch (after a copy), replacing what was stored. */
export async function recountProject(transaction: Database, projectId: string): Promise<void> {
  await transaction.deleteFrom('poi_counts').where('project_id', '=', projectId).execute()
  await sql`
    insert into poi_counts (project_id, key, count)
    select project_id, 'all', count(*) from pois where project_id = ${projectId} group by project_id
    union all
    select project_id, 'template:' || category_id, count(*) from pois
      where project_id = ${projectId} group by project_id, category_id
    union all
    select project_id, 'floor:' || floor_id, count(*) from pois
      where project_id = ${projectId} and floor_id <> '' group by project_id, floor_id
  `.execute(transaction)
}
