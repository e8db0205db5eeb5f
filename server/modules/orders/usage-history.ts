import { sql } from 'kysely'
import type { Database } from '../../plugins/db'

/** One day of a project's metered usage (UTC days). */
export interface UsageDay {
  /** `YYYY-MM-DD`. */
  day: string
  uploadBytes: number
  configurationOperations: number
}

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp. */
const dayOf = (timestamp: string) => timestamp.slice(0, 10)

/**
 * A project's usage per day in `[from, until]` (ISO timestamps), by the rules of
 * `measureProjectUsage` (metering.ts): bytes of models, the GML file and PMTiles basemaps
 * stored that day (tilesets by their stats), and POIs and GIS models changed that day. Every
 * day of the range is present, zero when nothing happened, so a chart shows the gaps.
 */
export async function dailyProjectUsage(
  db: Database,
  projectId: string,
  range: { from: string; until: string },
): Promise<UsageDay[]> {
  const days = new Map<string, UsageDay>()
  for (
    let moment = Date.parse(`${dayOf(range.from)}T00:00:00.000Z`);
    moment <= Date.parse(range.until);
    moment += 86_400_000
  ) {
    const day = new Date(moment).toISOString().slice(0, 10)
    days.set(day, { day, uploadBytes: 0, configurationOperations: 0 })
  }
  const day = sql<string>`substr(created_at, 1, 10)`
  for (const table of ['building_models', 'project_gml_files', 'basemap_files'] as const) {
    const rows = await db
      .selectFrom(table)
      .select([
        day.as('day'),
        (builder) => builder.fn.sum<number | string>('size_bytes').as('bytes'),
      ])
      .where('project_id', '=', projectId)
      .where('created_at', '>=', range.from)
      .where('created_at', '<=', range.until)
      .groupBy(day)
      .execute()
    for (const row of rows) {
      const entry = days.get(row.day)
      if (entry) entry.uploadBytes += Number(row.bytes)
    }
  }
  const tilesets = await db
    .selectFrom('tilesets')
    .select(['created_at', 'stats_json'])
    .where('project_id', '=', projectId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<=', range.until)
    .where('stats_json', 'is not', null)
    .execute()
  for (const tileset of tilesets) {
    const stats = JSON.parse(tileset.stats_json ?? '{}') as { total_bytes?: unknown }
    const entry = days.get(dayOf(tileset.created_at))
    if (entry && typeof stats.total_bytes === 'number') entry.uploadBytes += stats.total_bytes
  }
  const changedDay = sql<string>`substr(updated_at, 1, 10)`
  for (const table of ['pois', 'gis_models'] as const) {
    const rows = await db
      .selectFrom(table)
      .select([
        changedDay.as('day'),
        (builder) => builder.fn.countAll<number | string>().as('count'),
      ])
      .where('project_id', '=', projectId)
      .where('updated_at', '>=', range.from)
      .where('updated_at', '<=', range.until)
      .groupBy(changedDay)
      .execute()
    for (const row of rows) {
      const entry = days.get(row.day)
      if (entry) entry.configurationOperations += Number(row.count)
    }
  }
  return [...days.values()]
}
