import { sql } from 'kysely'
import type { Database } from '../../plugins/db'
import { configurationTables, storedFileEvents } from './metering'

/** One day of a project's metered usage (UTC days). */
export interface UsageDay {
  /** `YYYY-MM-DD`. */
  day: string
  uploadBytes: number
  updateBytes: number
  configurationOperations: number
}

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp. */
const dayOf = (timestamp: string) => timestamp.slice(0, 10)

/**
 * A project's usage per day in `[from, until]` (ISO timestamps), by the rules of
 * `measureProjectUsage` (metering.ts): bytes of files first stored that day (models, the GML
 * file, tilesets by their stats, PMTiles basemaps, library models), bytes of files that replaced
 * earlier ones that day, and configuration rows (POIs, GIS models, drawings, the style) changed
 * that day. Every day of the range is present, zero
 * when nothing happened, so a chart shows the gaps.
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
    days.set(day, { day, uploadBytes: 0, updateBytes: 0, configurationOperations: 0 })
  }
  for (const event of await storedFileEvents(db, projectId)) {
    if (event.at < range.from || event.at > range.until) continue
    const entry = days.get(dayOf(event.at))
    if (!entry) continue
    if (event.kind === 'upload') entry.uploadBytes += event.bytes
    else entry.updateBytes += event.bytes
  }
  const changedDay = sql<string>`substr(updated_at, 1, 10)`
  for (const table of configurationTables) {
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
