import { poiLimits } from '../../../contract/pois'
import { type ServerMessage, serverMessage } from '../../../contract/messages'
import { fieldErrorOf, type AppError } from '../../http/app-error'
import type { Database } from '../../plugins/db'
import type { AuthUser } from '../accounts/users.service'
import type { TemplateRow } from '../templates/template-access'
import { chunksOf, idChunkSize } from './poi-records'

/**
 * The rules a POI's final state must meet in its project (issue 16 "Data", "Bad input"), checked
 * for a whole list before anything is written, so a list call is refused as a whole. Each
 * problem names the list index and the field, so a batch file can report its row and column.
 */

/** The fields of a POI the rules read (as it will be stored). */
export interface PoiDraft {
  name: string
  category_id: string
  x: number
  y: number
  z: number
  floor_id: string
  pid: string
  devicecode: string
  distance_min: number | null
  distance_max: number | null
  modelList: readonly string[]
}

/** One broken rule: the item's index in the call, the field and what is wrong. */
export interface PoiProblem {
  index: number
  field: keyof PoiDraft | 'source_id'
  message: ServerMessage
}

/** What the rules need to know of the project, read once per call. */
export interface PoiProjectContext {
  projectId: string
  kind: 'city' | 'building'
  floorIds: ReadonlySet<string>
  modelIds: ReadonlySet<string>
  /** The templates of the drafts that the caller may use (own or shared; admins any). */
  templates: ReadonlyMap<string, TemplateRow>
}

/** City heights: ± this many metres. */
const cityHeightLimit = poiLimits.cityMaxHeight

/** Reads the project's floors, models and the drafts' usable templates. */
export async function loadProjectContext(
  handle: Database,
  user: AuthUser,
  project: { id: string; kind: 'city' | 'building' },
  templateIds: Iterable<string>,
): Promise<PoiProjectContext> {
  const floorIds =
    project.kind === 'building'
      ? (
          await handle
            .selectFrom('building_floors')
            .select('id')
            .where('project_id', '=', project.id)
            .execute()
        ).map((row) => row.id)
      : []
  const modelIds =
    project.kind === 'building'
      ? await handle
          .selectFrom('building_models')
          .select('id')
          .where('project_id', '=', project.id)
          .execute()
      : await handle
          .selectFrom('gis_models')
          .select('id')
          .where('project_id', '=', project.id)
          .execute()
  const templates = new Map<string, TemplateRow>()
  for (const chunk of chunksOf([...new Set(templateIds)], idChunkSize)) {
    const rows = await handle
      .selectFrom('poi_templates')
      .selectAll()
      .where('id', 'in', chunk)
      .execute()
    for (const row of rows) {
      // someone else's template is as unknown as a made-up id
      if (row.owner_id === '' || row.owner_id === user.id || user.role === 'admin') {
        templates.set(row.id, row)
      }
    }
  }
  return {
    projectId: project.id,
    kind: project.kind,
    floorIds: new Set(floorIds),
    modelIds: new Set(modelIds.map((row) => row.id)),
    templates,
  }
}

/** The problems of one draft that need nothing but the project context. */
export function draftProblems(
  context: PoiProjectContext,
  index: number,
  draft: PoiDraft,
): PoiProblem[] {
  const problems: PoiProblem[] = []
  const add = (field: PoiProblem['field'], message: ServerMessage) =>
    problems.push({ index, field, message })
  if (!context.templates.has(draft.category_id)) {
    add('category_id', serverMessage('poi.templateNotUsable'))
  }
  if (context.kind === 'city') {
    if (!(draft.x >= -180 && draft.x <= 180)) add('x', serverMessage('poi.longitudeRange'))
    if (!(draft.y >= -90 && draft.y <= 90)) add('y', serverMessage('poi.latitudeRange'))
    if (!(draft.z >= -cityHeightLimit && draft.z <= cityHeightLimit)) {
      add('z', serverMessage('poi.heightRange', { min: -cityHeightLimit, max: cityHeightLimit }))
    }
    if (draft.floor_id !== '') add('floor_id', serverMessage('poi.floorNotFound'))
  } else {
    const limit = poiLimits.sceneMaxMetres
    for (const axis of ['x', 'y', 'z'] as const) {
      if (!(Math.abs(draft[axis]) <= limit)) {
        add(axis, serverMessage('poi.sceneRange', { min: -limit, max: limit }))
      }
    }
    if (draft.floor_id === '') add('floor_id', serverMessage('poi.selectFloor'))
    else if (!context.floorIds.has(draft.floor_id)) {
      add('floor_id', serverMessage('poi.floorNotFound'))
    }
  }
  if (
    draft.distance_min !== null &&
    draft.distance_max !== null &&
    draft.distance_min > draft.distance_max
  ) {
    add('distance_min', serverMessage('poi.distanceOrder'))
  }
  for (const modelId of draft.modelList) {
    if (!context.modelIds.has(modelId)) {
      add('modelList', serverMessage('poi.modelNotFound'))
      break
    }
  }
  return problems
}

/**
 * Device codes of the final state: no code twice among `drafts`, and none used by another POI
 * of the project (`others` answers the POIs holding some codes; drafts' own ids are skipped).
 */
export async function devicecodeProblems(
  handle: Database,
  projectId: string,
  drafts: ReadonlyArray<{ index: number; id?: string; draft: PoiDraft }>,
): Promise<PoiProblem[]> {
  const problems: PoiProblem[] = []
  const seen = new Map<string, number>()
  const draftIds = new Set(drafts.flatMap((entry) => (entry.id === undefined ? [] : [entry.id])))
  for (const { index, draft } of drafts) {
    if (draft.devicecode === '') continue
    if (seen.has(draft.devicecode)) {
      problems.push({
        index,
        field: 'devicecode',
        message: serverMessage('poi.devicecodeRepeated', { devicecode: draft.devicecode }),
      })
    } else seen.set(draft.devicecode, index)
  }
  for (const chunk of chunksOf([...seen.keys()], idChunkSize)) {
    const holders = await handle
      .selectFrom('pois')
      .select(['id', 'devicecode'])
      .where('project_id', '=', projectId)
      .where('devicecode', 'in', chunk)
      .execute()
    for (const holder of holders) {
      // a POI of this call keeps or gives up its code in this call
      if (draftIds.has(holder.id)) continue
      problems.push({
        index: seen.get(holder.devicecode)!,
        field: 'devicecode',
        message: serverMessage('poi.devicecodeTaken', { devicecode: holder.devicecode }),
      })
    }
  }
  return problems
}

/**
 * Parents: each `pid` must be a POI of the project, and following parents from it must never
 * come back to the POI itself ('Unable to link parent POI.'). `pending` holds the parents this
 * call gives (they win over the stored ones).
 */
export async function parentProblems(
  handle: Database,
  projectId: string,
  drafts: ReadonlyArray<{ index: number; id?: string; draft: PoiDraft }>,
  pending: ReadonlyMap<string, string>,
): Promise<PoiProblem[]> {
  const problems: PoiProblem[] = []
  const stored = new Map<string, { pid: string } | null>()
  const storedOf = async (id: string) => {
    if (!stored.has(id)) {
      const row = await handle
        .selectFrom('pois')
        .select('pid')
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      stored.set(id, row ?? null)
    }
    return stored.get(id) ?? null
  }
  for (const { index, id, draft } of drafts) {
    if (draft.pid === '') continue
    if (id !== undefined && draft.pid === id) {
      problems.push({ index, field: 'pid', message: serverMessage('poi.parentCycle') })
      continue
    }
    if ((await storedOf(draft.pid)) === null) {
      problems.push({ index, field: 'pid', message: serverMessage('poi.parentNotFound') })
      continue
    }
    if (id === undefined) continue
    // walk up; a chain longer than the project could hold is a cycle too
    let current = draft.pid
    for (let steps = 0; current !== ''; steps++) {
      if (current === id || steps > 100_000) {
        problems.push({ index, field: 'pid', message: serverMessage('poi.parentCycle') })
        break
      }
      current = pending.get(current) ?? (await storedOf(current))?.pid ?? ''
    }
  }
  return problems
}

/** The error of the first problem, its field named as the call sent it (`list.3.x`). */
export function problemError(
  problem: PoiProblem,
  fieldOf: (problem: PoiProblem) => string,
): AppError {
  return fieldErrorOf('validation', fieldOf(problem), problem.message)
}
