import type { Database } from '../../plugins/db'

/**
 * What a project stored in a window of time (issue 20 item 2), read from the rows the other
 * areas keep, so nothing has to report usage separately and nothing can be missed:
 * - upload traffic: bytes of the files that made a new record — building models, the project's
 *   GML file, tilesets (their stored bytes), PMTiles basemaps, the model library's GLB/SBM
 *   files and documents attached to model details — counted once, when first stored, at the
 *   size they had then;
 * - update traffic: bytes of the files that replaced a record's earlier file (a model's new
 *   SBM, a new GML file, a tileset's new content), from the history of replaced files
 *   (`file_replacements`, migration 0019; the same file uploaded again is no update);
 * - configuration traffic: the {@link configurationTables}' rows created or changed in the
 *   window, one operation each (a record changed twice counts once: the rows keep one timestamp).
 * The window is `(since, until]` in the fixed-width ISO text the tables use; `since` null means
 * from the project's start.
 */
export interface ProjectUsage {
  uploadBytes: number
  updateBytes: number
  configurationOperations: number
}

/**
 * Where configuration lives (issue 20: style, POI and draw changes; and the single-building
 * models' settings): each row created or changed counts as one operation.
 */
export const configurationTables = ['pois', 'gis_models', 'area_draws', 'project_styles'] as const

/** Bytes per metered MB (lines are counted in whole MB, rounded up). */
export const bytesPerMegabyte = 1_048_576

/** Whole MB a number of bytes is billed as (any part of a MB counts as one). */
export function billedMegabytes(bytes: number): number {
  return Math.ceil(bytes / bytesPerMegabyte)
}

/** One file stored for a project: a record's first file (upload) or a replacement (update). */
export interface StoredFileEvent {
  kind: 'upload' | 'update'
  /** When it was stored (ISO text). */
  at: string
  bytes: number
}

/**
 * Every file stored for the project that the rows still tell of: each record's first upload
 * and each replacement. A record's row holds its latest file; each replacement names the file
 * it replaced (size, when stored). A replaced file that no earlier replacement of the record
 * brought was an upload; so is a row's file that no replacement brought. A deleted record's
 * replacements stay in the history; an unreplaced record's upload goes with its row.
 */
export async function storedFileEvents(
  db: Database,
  projectId: string,
): Promise<StoredFileEvent[]> {
  const replacements = await db
    .selectFrom('file_replacements')
    .select(['area', 'record_id', 'previous_size_bytes', 'previous_stored_at', 'size_bytes'])
    .select('created_at')
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  const events: StoredFileEvent[] = []
  // `area/record/time` of every file a replacement brought, and each record's latest
  const broughtByReplacement = new Set<string>()
  const latestReplacement = new Map<string, string>()
  for (const replacement of replacements) {
    const record = `${replacement.area}/${replacement.record_id}`
    broughtByReplacement.add(`${record}/${replacement.created_at}`)
    latestReplacement.set(record, replacement.created_at)
    events.push({
      kind: 'update',
      at: replacement.created_at,
      bytes: Number(replacement.size_bytes),
    })
  }
  for (const replacement of replacements) {
    const record = `${replacement.area}/${replacement.record_id}`
    if (!broughtByReplacement.has(`${record}/${replacement.previous_stored_at}`)) {
      events.push({
        kind: 'upload',
        at: replacement.previous_stored_at,
        bytes: Number(replacement.previous_size_bytes),
      })
    }
  }
  /** The row's own file, unless a replacement brought it (then it is counted above). */
  const rowFile = (record: string, storedAt: string, bytes: number) => {
    if (!broughtByReplacement.has(`${record}/${storedAt}`)) {
      events.push({ kind: 'upload', at: storedAt, bytes })
    }
  }
  // a model or tileset keeps its row (and created_at) when its file is replaced
  const models = await db
    .selectFrom('building_models')
    .select(['id', 'created_at', 'size_bytes'])
    .where('project_id', '=', projectId)
    .execute()
  for (const model of models) {
    const record = `model/${model.id}`
    rowFile(record, latestReplacement.get(record) ?? model.created_at, Number(model.size_bytes))
  }
  // a tileset's bytes are in its stats (its files live in a version folder, not one row)
  const tilesets = await db
    .selectFrom('tilesets')
    .select(['id', 'created_at', 'stats_json'])
    .where('project_id', '=', projectId)
    .where('stats_json', 'is not', null)
    .execute()
  for (const tileset of tilesets) {
    const bytes = tilesetBytes(tileset.stats_json)
    const record = `tileset/${tileset.id}`
    if (bytes !== null) rowFile(record, latestReplacement.get(record) ?? tileset.created_at, bytes)
  }
  // the project's GML row is written anew with each file: its created_at is when it was stored
  const gml = await db
    .selectFrom('project_gml_files')
    .select(['created_at', 'size_bytes'])
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  if (gml) rowFile(`gml/${projectId}`, gml.created_at, Number(gml.size_bytes))
  // basemaps, the model library's files and model details' documents are added and removed,
  // never replaced
  for (const table of ['basemap_files', 'city_models', 'model_documents'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['created_at', 'size_bytes'])
      .where('project_id', '=', projectId)
      .execute()
    for (const row of rows) {
      events.push({ kind: 'upload', at: row.created_at, bytes: Number(row.size_bytes) })
    }
  }
  return events
}

/** A tileset's stored bytes from its stats JSON (null when the stats do not say). */
export function tilesetBytes(statsJson: string | null): number | null {
  const stats = JSON.parse(statsJson ?? '{}') as { total_bytes?: unknown }
  return typeof stats.total_bytes === 'number' ? stats.total_bytes : null
}

/** Measures a project's usage in the window `(since, until]`. */
export async function measureProjectUsage(
  db: Database,
  projectId: string,
  window: { since: string | null; until: string },
): Promise<ProjectUsage> {
  const since = window.since ?? ''
  const { until } = window
  let uploadBytes = 0
  let updateBytes = 0
  for (const event of await storedFileEvents(db, projectId)) {
    if (event.at <= since || event.at > until) continue
    if (event.kind === 'upload') uploadBytes += event.bytes
    else updateBytes += event.bytes
  }
  let configurationOperations = 0
  for (const table of configurationTables) {
    const row = await db
      .selectFrom(table)
      .select((builder) => builder.fn.countAll<number | string>().as('count'))
      .where('project_id', '=', projectId)
      .where('updated_at', '>', since)
      .where('updated_at', '<=', until)
      .executeTakeFirst()
    configurationOperations += Number(row?.count ?? 0)
  }
  return { uploadBytes, updateBytes, configurationOperations }
}
