import { proxy, ref } from 'valtio'
import type { Vector3Tuple } from '../../engine/api'
import type { PoiTemplateLook, ScenePoi } from '../../engine/api'
import * as poisApi from '../api/pois'
import type {
  CreatePoiListItem,
  Poi,
  PoiCustomInput,
  PoiSceneTemplate,
  ProjectPoisDatum,
  UpdatePoiBody,
} from '../api/pois'
import { showErrorToast } from '../components/feedback/error-text'
import type { PoiScene } from '../engine-bridge/poi-scene'

/**
 * The open project's POIs on the client (issue 16): loaded in one compact answer
 * (`findProjectPoiDetail`), held here, edited optimistically, and pushed to the scene through
 * the engine bridge (engine/api/poi-commands.ts). Both editors and the shared POI screens
 * (src/pages/pois) read and edit POIs only through this store.
 *
 * 100,000 POIs are too many to proxy one by one, so the records live in a plain Map of frozen
 * entries (replaced, never mutated) and the valtio state carries a `revision` that moves on every
 * change; components read `useSnapshot(store.state).revision` and then `store.entries()`.
 *
 * Optimistic edits (POI-DESIGN "Optimistic edits"): a change is applied to the records and the
 * scene at once, then sent; the answer replaces a temporary id with the server's, a refusal
 * rolls the change back and shows the server's message. Calls on one POI are sent in order.
 */

/** A POI as the store holds and the screens list it (the fields the scene and lists need). */
export interface PoiEntry {
  readonly id: string
  readonly name: string
  /** The template (the record's `category_id`). */
  readonly templateId: string
  /** City: [lng°, lat°, height m]; building: scene metres. */
  readonly position: Vector3Tuple
  readonly heading: number
  readonly pitch: number
  readonly roll: number
  /** Building: the floor it stands on; null in a city. */
  readonly floorId: string | null
  /** The parent POI, '' for none. */
  readonly pid: string
  readonly devicecode: string
  readonly level: number
  readonly distanceMin: number | null
  readonly distanceMax: number | null
  /** Applied here but not yet confirmed by the server (a create or change in flight). */
  readonly isPending: boolean
}

/** A template as the store draws and lists POIs of it (the contract's scene template). */
export type PoiTemplateInfo = PoiSceneTemplate

/** A POI to create. */
export interface NewPoi {
  name: string
  template: PoiTemplateInfo
  position: Vector3Tuple
  heading?: number
  pitch?: number
  roll?: number
  floorId?: string | null
  pid?: string
  devicecode?: string
  /** Values for some custom properties (the rest come from the template). */
  customs?: PoiCustomInput[]
  /** A copy: the POI it copies (its custom properties come along with `isCopyProperties`). */
  sourceId?: string
}

/** Fields of a POI to change; what is left out stays. */
export interface PoiChanges {
  name?: string
  /** Another template (its look and group follow). */
  template?: PoiTemplateInfo
  position?: Vector3Tuple
  heading?: number
  pitch?: number
  roll?: number
  floorId?: string | null
  pid?: string
  devicecode?: string
  /** Custom property values to set (server only: the scene does not draw them). */
  customs?: PoiCustomInput[]
}

/** The calls the store makes; tests hand in an in-memory server. */
export interface PoiStoreServices {
  findProjectPois: (
    projectId: string,
    options?: { signal?: AbortSignal },
  ) => Promise<ProjectPoisDatum>
  createPoi: (body: poisApi.CreatePoiBody) => Promise<Poi>
  createPoiList: (
    projectId: string,
    list: CreatePoiListItem[],
    isCopyProperties: boolean,
  ) => Promise<{ count: number; list: Poi[] }>
  updatePoi: (body: UpdatePoiBody) => Promise<Poi>
  updatePoiList: (list: UpdatePoiBody[]) => Promise<number>
  deletePoiList: (ids: string[]) => Promise<number>
}

/** The server's calls. */
export const serverPoiStoreServices: PoiStoreServices = {
  findProjectPois: poisApi.findProjectPois,
  createPoi: poisApi.createPoi,
  createPoiList: poisApi.createPoiList,
  updatePoi: poisApi.updatePoi,
  updatePoiList: poisApi.updatePoiList,
  deletePoiList: poisApi.deletePoiList,
}

/** How POI classify groups POIs: by their template's category, or by template. */
export type PoiGrouping = 'category' | 'template'

/** Which scene the POIs belong to (how `position` reads). */
export type PoiFrame = 'city' | 'building'

/** The reactive part of the store. */
export interface PoiStoreState {
  projectId: string | null
  frame: PoiFrame | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  /** Why the load failed (show with `errorText`). */
  loadError: unknown
  /** Moves on every change of the records or templates. */
  revision: number
  count: number
  selectedIds: string[]
  /** POI classify: what a group is (a template's category node, or the template itself). */
  grouping: PoiGrouping
  /** POI classify: groups hidden in the scene (ids of the current grouping). */
  hiddenGroupIds: string[]
  ghostCount: number
  /** Calls sent and not answered yet. */
  pendingCount: number
  /** Steps `undo()` can take back. */
  undoDepth: number
  /** The last refused edit (already shown to the user), for screens and tests. */
  lastFailure: { error: unknown; revision: number } | null
}

/** An edit `undo()` takes back. */
type UndoStep =
  | { kind: 'update'; id: string; before: PoiChanges }
  | { kind: 'create'; ids: string[] }
  | { kind: 'delete'; entries: PoiEntry[] }

/** Undo keeps this many steps. */
export const poiUndoLimit = 50

/** A temporary id: shown and drawn until the server's id replaces it. */
export function isTemporaryPoiId(id: string): boolean {
  return id.startsWith('tmp-')
}

/** The picture of a template: its icon, else its 3D preview picture ('' none). */
export function templatePictureUrl(template: PoiTemplateInfo): string {
  if (template.iconpath) return template.iconpath
  if (template.jpg_name) return joinPath(template.filepath, template.jpg_name)
  return ''
}

function joinPath(folder: string, name: string): string {
  if (!folder) return name
  return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`
}

/** How the scene draws POIs of a template. */
export function lookOfTemplate(template: PoiTemplateInfo): PoiTemplateLook {
  const look: PoiTemplateLook = {
    templateId: template.id,
    kind: template.type,
    iconUrl: templatePictureUrl(template),
  }
  if (template.type === '3D' && template.sbm_name)
    look.modelUrl = joinPath(template.filepath, template.sbm_name)
  return look
}

/** The POIs of a compact project answer as entries, in its order. */
export function entriesOfProjectPois(datum: ProjectPoisDatum): PoiEntry[] {
  const entries: PoiEntry[] = new Array(datum.count)
  for (let index = 0; index < datum.count; index++) {
    const templateIndex = datum.template[index] ?? -1
    const floorIndex = datum.floor[index] ?? -1
    entries[index] = Object.freeze({
      id: datum.ids[index] ?? '',
      name: datum.names[index] ?? '',
      templateId: datum.templates[templateIndex]?.id ?? '',
      position: [
        datum.positions[index * 3] ?? 0,
        datum.positions[index * 3 + 1] ?? 0,
        datum.positions[index * 3 + 2] ?? 0,
      ] as const,
      heading: datum.heading[index] ?? 0,
      pitch: datum.pitch[index] ?? 0,
      roll: datum.roll[index] ?? 0,
      floorId: floorIndex >= 0 ? (datum.floors[floorIndex] ?? null) : null,
      pid: datum.pid[index] ?? '',
      devicecode: datum.devicecode[index] ?? '',
      level: datum.level[index] ?? 0,
      distanceMin: datum.distance_min[index] ?? null,
      distanceMax: datum.distance_max[index] ?? null,
      isPending: false,
    })
  }
  return entries
}

/** An entry from a full record (the answers of create and update). */
export function entryOfPoi(poi: Poi): PoiEntry {
  return Object.freeze({
    id: poi.id,
    name: poi.name,
    templateId: poi.category_id,
    position: [poi.x, poi.y, poi.z] as const,
    heading: poi.heading,
    pitch: poi.pitch,
    roll: poi.roll,
    floorId: poi.floor_id || null,
    pid: poi.pid,
    devicecode: poi.devicecode,
    level: poi.level,
    distanceMin: poi.distance_min,
    distanceMax: poi.distance_max,
    isPending: false,
  })
}

/** The template a full record names, as far as the record tells. */
function templateOfPoi(poi: Poi, known: PoiTemplateInfo | undefined): PoiTemplateInfo {
  return {
    id: poi.category_id,
    name: poi.template_name || known?.name || '',
    ...(poi.template_name_key || known?.name_key
      ? { name_key: poi.template_name_key || known?.name_key }
      : {}),
    type: poi.type,
    category_node_id: poi.category_node_id || known?.category_node_id || '',
    poicategory_code: poi.poicategory_code || known?.poicategory_code || '',
    iconpath: poi.iconpath || known?.iconpath || '',
    jpg_name: poi.jpg_name || known?.jpg_name || '',
    sbm_name: poi.sbm_name || known?.sbm_name || '',
    filepath: poi.filepath || known?.filepath || '',
  }
}

/** The fields of an update call for some changes. */
function updateBodyOf(id: string, changes: PoiChanges): UpdatePoiBody {
  const body: UpdatePoiBody = { id }
  if (changes.name !== undefined) body.name = changes.name
  if (changes.template !== undefined) body.category_id = changes.template.id
  if (changes.position !== undefined) {
    body.x = changes.position[0]
    body.y = changes.position[1]
    body.z = changes.position[2]
  }
  if (changes.heading !== undefined) body.heading = changes.heading
  if (changes.pitch !== undefined) body.pitch = changes.pitch
  if (changes.roll !== undefined) body.roll = changes.roll
  if (changes.floorId !== undefined) body.floor_id = changes.floorId ?? ''
  if (changes.pid !== undefined) body.pid = changes.pid
  if (changes.devicecode !== undefined) body.devicecode = changes.devicecode
  if (changes.customs !== undefined) body.customs = changes.customs
  return body
}

/** The create fields of a new POI (one `creatPoiList` item). */
function createItemOf(input: NewPoi, temporaryId: string): CreatePoiListItem {
  const item: CreatePoiListItem = {
    name: input.name,
    category_id: input.template.id,
    x: input.position[0],
    y: input.position[1],
    z: input.position[2],
    heading: input.heading ?? 0,
    pitch: input.pitch ?? 0,
    roll: input.roll ?? 0,
    floor_id: input.floorId ?? '',
    pid: input.pid ?? '',
    devicecode: input.devicecode ?? '',
    // The temporary id goes along so a reader of the server's log can match the two.
    poiid: temporaryId,
  }
  if (input.customs) item.customs = input.customs
  if (input.sourceId) item.source_id = input.sourceId
  return item
}

/** The entry after some changes (template and customs only name the template id). */
function applyChanges(entry: PoiEntry, changes: PoiChanges, isPending: boolean): PoiEntry {
  return Object.freeze({
    ...entry,
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.template !== undefined && { templateId: changes.template.id }),
    ...(changes.position !== undefined && { position: changes.position }),
    ...(changes.heading !== undefined && { heading: changes.heading }),
    ...(changes.pitch !== undefined && { pitch: changes.pitch }),
    ...(changes.roll !== undefined && { roll: changes.roll }),
    ...(changes.floorId !== undefined && { floorId: changes.floorId }),
    ...(changes.pid !== undefined && { pid: changes.pid }),
    ...(changes.devicecode !== undefined && { devicecode: changes.devicecode }),
    isPending,
  })
}

/** What an entry was before `changes` (the inverse step for undo and rollback). */
function changesBefore(
  entry: PoiEntry,
  changes: PoiChanges,
  template: PoiTemplateInfo | undefined,
): PoiChanges {
  const before: PoiChanges = {}
  if (changes.name !== undefined) before.name = entry.name
  if (changes.template !== undefined && template) before.template = template
  if (changes.position !== undefined) before.position = entry.position
  if (changes.heading !== undefined) before.heading = entry.heading
  if (changes.pitch !== undefined) before.pitch = entry.pitch
  if (changes.roll !== undefined) before.roll = entry.roll
  if (changes.floorId !== undefined) before.floorId = entry.floorId
  if (changes.pid !== undefined) before.pid = entry.pid
  if (changes.devicecode !== undefined) before.devicecode = entry.devicecode
  return before
}

/** Options of {@link createPoiStore}. */
export interface PoiStoreOptions {
  /** Shows a refused edit or a failed load; defaults to an error toast. */
  onError?: (error: unknown) => void
}

/** The POI store: state to read reactively, records to read by revision, actions. */
export type PoiStore = ReturnType<typeof createPoiStore>

/** Builds a POI store (the app has one, {@link poiStore}; tests build their own). */
export function createPoiStore(
  services: PoiStoreServices = serverPoiStoreServices,
  options: PoiStoreOptions = {},
) {
  const onError = options.onError ?? showErrorToast
  const state = proxy<PoiStoreState>({
    projectId: null,
    frame: null,
    status: 'idle',
    loadError: null,
    revision: 0,
    count: 0,
    selectedIds: [],
    grouping: 'category',
    hiddenGroupIds: [],
    ghostCount: 0,
    pendingCount: 0,
    undoDepth: 0,
    lastFailure: null,
  })
  const records = new Map<string, PoiEntry>()
  const templates = new Map<string, PoiTemplateInfo>()
  /** Temporary id → the server's id, once known (callers may still hold the temporary one). */
  const aliases = new Map<string, string>()
  /** Temporary id → its create call, resolving to the server's id or null when refused. */
  const creating = new Map<string, Promise<string | null>>()
  /** Per POI: the last call sent, so calls on one POI reach the server in order. */
  const chains = new Map<string, Promise<unknown>>()
  const undoSteps: UndoStep[] = []
  const scenes = new Set<PoiScene>()
  let entriesCache: { revision: number; list: readonly PoiEntry[] } | null = null
  let temporarySequence = 0
  let loadController: AbortController | null = null
  /** Drops answers of calls sent for a project that is no longer open. */
  let generation = 0

  const bump = () => {
    state.revision++
    state.count = records.size
  }

  const groupOf = (entry: PoiEntry): string =>
    state.grouping === 'template'
      ? entry.templateId
      : templates.get(entry.templateId)?.category_node_id || entry.templateId

  const scenePoiOf = (entry: PoiEntry): ScenePoi => ({
    id: entry.id,
    templateId: entry.templateId,
    label: entry.name,
    position: entry.position,
    heading: entry.heading,
    pitch: entry.pitch,
    roll: entry.roll,
    floorId: entry.floorId,
    groupId: groupOf(entry),
  })

  const looks = () => [...templates.values()].map(lookOfTemplate)
  const eachScene = (action: (scene: PoiScene) => Promise<void>) => {
    for (const scene of scenes) void action(scene)
  }
  const drawEntries = (entries: PoiEntry[]) => {
    if (entries.length > 0) eachScene((scene) => scene.upsertPois(entries.map(scenePoiOf)))
  }
  const eraseIds = (ids: string[]) => {
    if (ids.length > 0) eachScene((scene) => scene.removePois(ids))
  }

  /** Adds templates not known yet (or refreshed) and tells the scenes their looks. */
  const learnTemplates = (list: PoiTemplateInfo[]) => {
    let isChanged = false
    for (const template of list) {
      const known = templates.get(template.id)
      if (known && JSON.stringify(known) === JSON.stringify(template)) continue
      templates.set(template.id, template)
      isChanged = true
    }
    if (isChanged) {
      const all = looks()
      eachScene((scene) => scene.setLooks(all))
    }
    return isChanged
  }

  const resolveId = (id: string): string => aliases.get(id) ?? id

  /** The server's id of a POI, waiting for its create call when it has a temporary one. */
  const serverIdOf = async (id: string): Promise<string | null> => {
    const resolved = resolveId(id)
    if (!isTemporaryPoiId(resolved)) return resolved
    return (await creating.get(resolved)) ?? null
  }

  /** Runs `send` after every earlier call on the same POIs. */
  const inOrder = <Result>(ids: string[], send: () => Promise<Result>): Promise<Result> => {
    const earlier = ids.map((id) => chains.get(id)).filter(Boolean)
    const call = Promise.allSettled(earlier).then(send)
    const settled = call.catch(() => undefined)
    for (const id of ids) chains.set(id, settled)
    void settled.then(() => {
      for (const id of ids) if (chains.get(id) === settled) chains.delete(id)
    })
    return call
  }

  const track = async <Result>(work: Promise<Result>): Promise<Result> => {
    state.pendingCount++
    try {
      return await work
    } finally {
      state.pendingCount--
    }
  }

  const fail = (error: unknown) => {
    state.lastFailure = { error: ref(error as object), revision: state.revision }
    onError(error)
  }

  const pushUndo = (step: UndoStep) => {
    undoSteps.push(step)
    if (undoSteps.length > poiUndoLimit) undoSteps.shift()
    state.undoDepth = undoSteps.length
  }

  const setSelection = (ids: string[]) => {
    state.selectedIds = ids
    eachScene((scene) => scene.selectPois(ids))
  }

  /** Replaces temporary ids by the server's in the records, the scene and the selection. */
  const reconcile = (pairs: { temporaryId: string; poi: Poi }[]) => {
    const drawn: PoiEntry[] = []
    const erased: string[] = []
    for (const { temporaryId, poi } of pairs) {
      aliases.set(temporaryId, poi.id)
      const optimistic = records.get(temporaryId)
      records.delete(temporaryId)
      if (!optimistic) continue // deleted while being created: the delete follows on the server id
      // Changes made while the create was in flight win over the answer's fields.
      const entry = Object.freeze({ ...optimistic, id: poi.id, isPending: false })
      records.set(poi.id, entry)
      erased.push(temporaryId)
      drawn.push(entry)
    }
    const templatesOfAnswer = pairs.map(({ poi }) =>
      templateOfPoi(poi, templates.get(poi.category_id)),
    )
    learnTemplates(templatesOfAnswer)
    eraseIds(erased)
    drawEntries(drawn)
    if (state.selectedIds.some((id) => aliases.has(id)))
      setSelection(state.selectedIds.map(resolveId))
    for (const step of undoSteps) if (step.kind === 'create') step.ids = step.ids.map(resolveId)
    bump()
  }

  /** Creates POIs optimistically: one `creatPoi` for one, one `creatPoiList` for more. */
  const createAll = async (
    inputs: NewPoi[],
    settings: { isCopyProperties: boolean; isUndoable: boolean },
  ): Promise<PoiEntry[] | null> => {
    const projectId = state.projectId
    if (!projectId || inputs.length === 0) return inputs.length === 0 ? [] : null
    const callGeneration = generation
    learnTemplates(inputs.map((input) => input.template))
    const temporaryIds = inputs.map(() => `tmp-${++temporarySequence}`)
    const optimistic = inputs.map((input, index) =>
      Object.freeze({
        id: temporaryIds[index] ?? '',
        name: input.name,
        templateId: input.template.id,
        position: input.position,
        heading: input.heading ?? 0,
        pitch: input.pitch ?? 0,
        roll: input.roll ?? 0,
        floorId: input.floorId ?? null,
        pid: input.pid ?? '',
        devicecode: input.devicecode ?? '',
        level: 0,
        distanceMin: null,
        distanceMax: null,
        isPending: true,
      }),
    )
    for (const entry of optimistic) records.set(entry.id, entry)
    drawEntries(optimistic)
    bump()
    const items = inputs.map((input, index) => createItemOf(input, temporaryIds[index] ?? ''))
    // Sources that are still being created are sent under the server's id.
    for (const item of items)
      if (item.source_id) item.source_id = (await serverIdOf(item.source_id)) ?? undefined
    const sent = track(
      items.length === 1 && !items[0]?.source_id
        ? services
            .createPoi({ projectid: projectId, ...(items[0] as CreatePoiListItem) })
            .then((poi) => [poi])
        : services
            .createPoiList(projectId, items, settings.isCopyProperties)
            .then((answer) => answer.list),
    )
    const serverIds = sent.then(
      (list) => list.map((poi) => poi.id),
      () => null,
    )
    temporaryIds.forEach((temporaryId, index) => {
      creating.set(
        temporaryId,
        serverIds.then((ids) => ids?.[index] ?? null),
      )
    })
    try {
      const list = await sent
      if (callGeneration !== generation) return null
      reconcile(list.map((poi, index) => ({ temporaryId: temporaryIds[index] ?? '', poi })))
      if (settings.isUndoable) pushUndo({ kind: 'create', ids: list.map((poi) => poi.id) })
      return list.map((poi) => records.get(poi.id) ?? entryOfPoi(poi))
    } catch (error) {
      if (callGeneration !== generation) return null
      for (const id of temporaryIds) records.delete(id)
      eraseIds(temporaryIds)
      if (state.selectedIds.some((id) => temporaryIds.includes(id)))
        setSelection(state.selectedIds.filter((id) => !temporaryIds.includes(id)))
      bump()
      fail(error)
      return null
    } finally {
      for (const id of temporaryIds) creating.delete(id)
    }
  }

  /** Changes POIs optimistically: `updataPoi` for one, `updataPoiList` for more. */
  const updateAll = async (
    list: { id: string; changes: PoiChanges }[],
    settings: { isUndoable: boolean },
  ): Promise<boolean> => {
    const callGeneration = generation
    const applied: { id: string; before: PoiChanges; previous: PoiEntry; next: PoiEntry }[] = []
    const newTemplates = list.flatMap(({ changes }) => (changes.template ? [changes.template] : []))
    learnTemplates(newTemplates)
    for (const { id, changes } of list) {
      const current = records.get(resolveId(id))
      if (!current) continue
      const next = applyChanges(current, changes, true)
      applied.push({
        id: current.id,
        before: changesBefore(current, changes, templates.get(current.templateId)),
        previous: current,
        next,
      })
      records.set(current.id, next)
    }
    if (applied.length === 0) return false
    drawEntries(applied.map(({ next }) => next))
    bump()
    if (settings.isUndoable)
      for (const { id, before } of applied) pushUndo({ kind: 'update', id, before })
    const changesById = new Map(list.map(({ id, changes }) => [resolveId(id), changes]))
    const ids = applied.map(({ id }) => id)
    try {
      await track(
        inOrder(ids, async () => {
          const bodies: UpdatePoiBody[] = []
          for (const { id } of applied) {
            const serverId = await serverIdOf(id)
            if (serverId) bodies.push(updateBodyOf(serverId, changesById.get(id) ?? {}))
          }
          if (bodies.length === 1 && bodies[0]) await services.updatePoi(bodies[0])
          else if (bodies.length > 1) await services.updatePoiList(bodies)
        }),
      )
      if (callGeneration !== generation) return false
      const confirmed: PoiEntry[] = []
      for (const { id, next } of applied) {
        const serverId = resolveId(id)
        const current = records.get(serverId)
        // Only the entry this call made is confirmed; a later edit stays pending.
        if (current && current === records.get(serverId) && shallowSameFields(current, next)) {
          const done = Object.freeze({ ...current, isPending: false })
          records.set(serverId, done)
          confirmed.push(done)
        }
      }
      if (confirmed.length > 0) bump()
      return true
    } catch (error) {
      if (callGeneration !== generation) return false
      const restored: PoiEntry[] = []
      for (const { id, previous, next } of applied) {
        const serverId = resolveId(id)
        const current = records.get(serverId)
        if (!current || !shallowSameFields(current, next)) continue
        const back = Object.freeze({ ...previous, id: serverId, isPending: false })
        records.set(serverId, back)
        restored.push(back)
      }
      // The refused steps are no longer there to undo.
      if (settings.isUndoable) {
        for (let index = undoSteps.length - 1; index >= 0; index--) {
          const step = undoSteps[index]
          if (step?.kind === 'update' && ids.includes(resolveId(step.id)))
            undoSteps.splice(index, 1)
        }
        state.undoDepth = undoSteps.length
      }
      drawEntries(restored)
      bump()
      fail(error)
      return false
    }
  }

  /** Deletes POIs optimistically with one `deletePoiList`. */
  const removeAll = async (ids: string[], settings: { isUndoable: boolean }): Promise<boolean> => {
    const callGeneration = generation
    const removed: PoiEntry[] = []
    for (const id of ids) {
      const entry = records.get(resolveId(id))
      if (!entry) continue
      removed.push(entry)
      records.delete(entry.id)
    }
    if (removed.length === 0) return false
    const removedIds = removed.map((entry) => entry.id)
    eraseIds(removedIds)
    if (state.selectedIds.some((id) => removedIds.includes(resolveId(id))))
      setSelection(state.selectedIds.filter((id) => !removedIds.includes(resolveId(id))))
    bump()
    try {
      await track(
        inOrder(removedIds, async () => {
          const serverIds: string[] = []
          for (const id of removedIds) {
            const serverId = await serverIdOf(id)
            if (serverId) serverIds.push(serverId)
          }
          if (serverIds.length > 0) await services.deletePoiList(serverIds)
        }),
      )
      if (settings.isUndoable && callGeneration === generation)
        pushUndo({
          kind: 'delete',
          entries: removed.map((entry) => ({ ...entry, id: resolveId(entry.id) })),
        })
      return true
    } catch (error) {
      if (callGeneration !== generation) return false
      const back = removed.map((entry) => {
        const id = resolveId(entry.id)
        const restored = Object.freeze({ ...entry, id, isPending: false })
        records.set(id, restored)
        return restored
      })
      drawEntries(back)
      bump()
      fail(error)
      return false
    }
  }

  const newPoiOfEntry = (entry: PoiEntry): NewPoi | null => {
    const template = templates.get(entry.templateId)
    if (!template) return null
    return {
      name: entry.name,
      template,
      position: entry.position,
      heading: entry.heading,
      pitch: entry.pitch,
      roll: entry.roll,
      floorId: entry.floorId,
      pid: entry.pid,
      devicecode: entry.devicecode,
    }
  }

  return {
    /** The reactive part: read it with `useSnapshot(store.state)`. */
    state,

    /** Every POI, in load order then creation order; the same array until the next change. */
    entries(): readonly PoiEntry[] {
      if (entriesCache?.revision !== state.revision)
        entriesCache = { revision: state.revision, list: [...records.values()] }
      return entriesCache.list
    },

    /** One POI by id (a temporary id still finds it after the server's id replaced it). */
    get(id: string): PoiEntry | undefined {
      return records.get(resolveId(id))
    },

    /** The server's id for an id a screen holds (temporary ids resolve once created). */
    resolveId,

    /** A template the project's POIs use (or a POI was just created from). */
    template(id: string): PoiTemplateInfo | undefined {
      return templates.get(id)
    },

    /** Every known template. */
    templates(): PoiTemplateInfo[] {
      return [...templates.values()]
    },

    /** The group POI classify shows or hides a POI with: its template's category node. */
    groupOf,

    /** Opens a project's POIs: loads them in one call and draws them in every attached scene. */
    async load(projectId: string, frame: PoiFrame): Promise<void> {
      loadController?.abort()
      const controller = new AbortController()
      loadController = controller
      generation++
      records.clear()
      templates.clear()
      aliases.clear()
      creating.clear()
      chains.clear()
      undoSteps.length = 0
      Object.assign(state, {
        projectId,
        frame,
        status: 'loading',
        loadError: null,
        selectedIds: [],
        hiddenGroupIds: [],
        ghostCount: 0,
        undoDepth: 0,
        lastFailure: null,
      } satisfies Partial<PoiStoreState>)
      bump()
      try {
        const datum = await services.findProjectPois(projectId, { signal: controller.signal })
        if (loadController !== controller) return
        for (const template of datum.templates) templates.set(template.id, template)
        for (const entry of entriesOfProjectPois(datum)) records.set(entry.id, entry)
        state.status = 'ready'
        bump()
        const allLooks = looks()
        const all = [...records.values()].map(scenePoiOf)
        eachScene(async (scene) => {
          await scene.setLooks(allLooks)
          await scene.setPois(all)
          await scene.setHiddenGroups([])
          await scene.selectPois([])
        })
      } catch (error) {
        if (loadController !== controller) return
        state.status = 'error'
        state.loadError = ref(error as object)
      }
    },

    /** Loads the open project again (after a batch add, or to retry a failed load). */
    async reload(): Promise<void> {
      if (state.projectId && state.frame) await this.load(state.projectId, state.frame)
    },

    /** Closes the project: forgets its POIs and clears the scenes. */
    reset(): void {
      loadController?.abort()
      loadController = null
      generation++
      records.clear()
      templates.clear()
      aliases.clear()
      undoSteps.length = 0
      Object.assign(state, {
        projectId: null,
        frame: null,
        status: 'idle',
        loadError: null,
        selectedIds: [],
        hiddenGroupIds: [],
        ghostCount: 0,
        undoDepth: 0,
        lastFailure: null,
      } satisfies Partial<PoiStoreState>)
      bump()
      eachScene(async (scene) => {
        await scene.setPois([])
        await scene.setGhosts([])
      })
    },

    /**
     * Draws the store's POIs in a scene from now on (all of them at once, then each change);
     * returns the function that stops. An editor attaches its scene once its engine exists.
     */
    attachScene(scene: PoiScene): () => void {
      scenes.add(scene)
      const allLooks = looks()
      const all = [...records.values()].map(scenePoiOf)
      const hidden = [...state.hiddenGroupIds]
      const selected = [...state.selectedIds]
      void (async () => {
        await scene.setLooks(allLooks)
        await scene.setPois(all)
        await scene.setHiddenGroups(hidden)
        await scene.selectPois(selected)
      })()
      return () => {
        scenes.delete(scene)
      }
    },

    /** Creates one POI (optimistic); resolves it with the server's id, or null when refused. */
    async create(input: NewPoi): Promise<PoiEntry | null> {
      const created = await createAll([input], { isCopyProperties: true, isUndoable: true })
      return created?.[0] ?? null
    },

    /**
     * Creates many POIs in one `creatPoiList` (copies, layouts), all or none. With
     * `isCopyProperties` copies (`sourceId`) take their source's custom property values.
     */
    createMany(
      inputs: NewPoi[],
      settings: { isCopyProperties?: boolean } = {},
    ): Promise<PoiEntry[] | null> {
      return createAll(inputs, {
        isCopyProperties: settings.isCopyProperties ?? true,
        isUndoable: true,
      })
    },

    /** Changes one POI (optimistic); resolves false when refused (then rolled back). */
    update(id: string, changes: PoiChanges): Promise<boolean> {
      return updateAll([{ id, changes }], { isUndoable: true })
    },

    /** Changes many POIs in one `updataPoiList`, all or none. */
    updateMany(list: { id: string; changes: PoiChanges }[]): Promise<boolean> {
      return updateAll(list, { isUndoable: true })
    },

    /**
     * Shows a change in the scene without saving it (a slider being dragged); the next
     * `update` of the POI saves, and {@link PoiStore.cancelPreview} puts it back.
     */
    preview(id: string, changes: PoiChanges): void {
      const current = records.get(resolveId(id))
      if (!current) return
      eachScene((scene) => scene.upsertPois([scenePoiOf(applyChanges(current, changes, true))]))
    },

    /** Draws a POI as its record says again (after a preview that was not saved). */
    cancelPreview(id: string): void {
      const current = records.get(resolveId(id))
      if (current) drawEntries([current])
    },

    /** Deletes POIs (optimistic), all or none; resolves false when refused (then restored). */
    remove(ids: string[]): Promise<boolean> {
      return removeAll(ids, { isUndoable: true })
    },

    /** Takes back the last create, change or delete; resolves false when nothing was undone. */
    async undo(): Promise<boolean> {
      const step = undoSteps.pop()
      state.undoDepth = undoSteps.length
      if (!step) return false
      if (step.kind === 'update')
        return updateAll([{ id: step.id, changes: step.before }], { isUndoable: false })
      if (step.kind === 'create') return removeAll(step.ids, { isUndoable: false })
      // A deleted POI comes back as a new POI with its fields (and its template's properties).
      const inputs = step.entries.map(newPoiOfEntry).filter((input) => input !== null)
      const created = await createAll(inputs, { isCopyProperties: false, isUndoable: false })
      return created !== null
    },

    /** Selects (highlights) POIs in the scene; [] clears. */
    select(ids: string[]): void {
      setSelection(ids.map(resolveId))
    },

    /**
     * POI classify: groups by category or by template from now on. Every group is shown again
     * and the scenes get the POIs with their new group ids.
     */
    setGrouping(grouping: PoiGrouping): void {
      if (state.grouping === grouping) return
      state.grouping = grouping
      state.hiddenGroupIds = []
      const all = [...records.values()].map(scenePoiOf)
      eachScene(async (scene) => {
        await scene.setPois(all)
        await scene.setHiddenGroups([])
      })
    },

    /** POI classify: hides or shows a group in every scene. */
    setGroupHidden(groupId: string, isHidden: boolean): void {
      const hidden = new Set(state.hiddenGroupIds)
      if (isHidden) hidden.add(groupId)
      else hidden.delete(groupId)
      state.hiddenGroupIds = [...hidden]
      const list = [...hidden]
      eachScene((scene) => scene.setHiddenGroups(list))
    },

    /** POI classify: exactly these groups hidden (show all: []). */
    setHiddenGroups(groupIds: string[]): void {
      state.hiddenGroupIds = [...new Set(groupIds)]
      const list = [...state.hiddenGroupIds]
      eachScene((scene) => scene.setHiddenGroups(list))
    },

    /** Copy preview: draws these as ghosts; [] removes them. */
    setGhosts(pois: ScenePoi[]): void {
      state.ghostCount = pois.length
      eachScene((scene) => scene.setGhosts(pois))
    },

    /** A scene POI for a would-be POI (ghosts): the template's look and group. */
    scenePoiOf,

    /** Flies the camera of every attached scene to a POI. */
    flyTo(id: string): void {
      const resolved = resolveId(id)
      eachScene((scene) => scene.flyTo(resolved))
    },
  }
}

/** Whether two entries agree on every field (identity aside). */
function shallowSameFields(a: PoiEntry, b: PoiEntry): boolean {
  return (
    a.name === b.name &&
    a.templateId === b.templateId &&
    a.position[0] === b.position[0] &&
    a.position[1] === b.position[1] &&
    a.position[2] === b.position[2] &&
    a.heading === b.heading &&
    a.pitch === b.pitch &&
    a.roll === b.roll &&
    a.floorId === b.floorId &&
    a.pid === b.pid &&
    a.devicecode === b.devicecode
  )
}

/** The open project's POI store. */
export const poiStore = createPoiStore()
