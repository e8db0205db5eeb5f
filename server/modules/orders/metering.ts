import type { Database } from '../../plugins/db'

/**
 * What a project stored in a window of time (issue 20 item 2), read from the rows the other
 * areas keep, so nothing has to report usage separately and nothing can be missed:
 * - upload traffic: bytes of the files added in the window: building models, the GML file
 *   (a replaced GML file is a new upload), tilesets (their stored bytes) and PMTiles basemaps;
 * - update traffic: not measured yet (no area keeps a history of replaced files), so 0;
 * - configuration traffic: POIs and single-building models created or changed in the window,
 *   one operation each (a record changed twice counts once: the rows keep one timestamp).
 * The window is `(since, until]` in the fixed-width ISO text the tables use; `since` null means
 * from the project's start.
 */
export interface ProjectUsage {
  uploadBytes: number
  updateBytes: number
  configurationOperations: number
}

/** Bytes per metered MB (lines are counted in whole MB, rounded up). */
export const bytesPerMegabyte = 1_048_576

/** Whole MB a number of bytes is billed as (any part of a MB counts as one). */
export function billedMegabytes(bytes: number): number {
  return Math.ceil(bytes / bytesPerMegabyte)
}

/** Measures a project's usage in the window `(since, until]`. */
export async function measureProjectUsage(
  db: Database,
  projectId: string,
  window: { since: string | null; until: string },
): Promise<ProjectUsage> {
  const since = window.since ?? ''
  const { until } = window
  const sumOf = async (
    table: 'building_models' | 'project_gml_files' | 'basemap_files',
  ): Promise<number> => {
    const row = await db
      .selectFrom(table)
      .select((builder) => builder.fn.sum<number | string | null>('size_bytes').as('bytes'))
      .where('project_id', '=', projectId)
      .where('created_at', '>', since)
      .where('created_at', '<=', until)
      .executeTakeFirst()
    return Number(row?.bytes ?? 0)
  }
  let uploadBytes =
    (await sumOf('building_models')) +
    (await sumOf('project_gml_files')) +
    (await sumOf('basemap_files'))
  // a tileset's bytes are in its stats (its files live in a version folder, not one row)
  const tilesets = await db
    .selectFrom('tilesets')
    .select('stats_json')
    .where('project_id', '=', projectId)
    .where('created_at', '>', since)
    .where('created_at', '<=', until)
    .where('stats_json', 'is not', null)
    .execute()
  for (const tileset of tilesets) {
    const stats = JSON.parse(tileset.stats_json ?? '{}') as { total_bytes?: unknown }
    if (typeof stats.total_bytes === 'number') uploadBytes += stats.total_bytes
  }
  const countChanged = async (table: 'pois' | 'gis_models'): Promise<number> => {
    const row = await db
      .selectFrom(table)
      .select((builder) => builder.fn.countAll<number | string>().as('count'))
      .where('project_id', '=', projectId)
      .where('updated_at', '>', since)
      .where('updated_at', '<=', until)
      .executeTakeFirst()
    return Number(row?.count ?? 0)
  }
  return {
    uploadBytes,
    updateBytes: 0,
    configurationOperations: (await countChanged('pois')) + (await countChanged('gis_models')),
  }
}
