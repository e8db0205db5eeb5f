import { ApiError } from '../../../api/client'
import type {
  CreatePoiListItem,
  Poi,
  PoiCustom,
  PoiDetail,
  PoiSceneTemplate,
  ProjectPoisDatum,
  UpdatePoiBody,
} from '../../../api/pois'
import type { CategoryNode, TemplateListItem } from '../../../api/templates'
import { templateOf } from '../../../components/templates/testing/fake-template-services'
import type { PoiStoreServices } from '../../../state/pois'
import type { PoiScreenServices } from '../poi-services'

/**
 * An in-memory POI server for component and store tests (tests only): it answers like the real
 * one (`creatPoi`, `creatPoiList`, `updataPoi(List)`, `deletePoiList`, `findProjectPoiDetail`,
 * `findPoiDetail`), all-or-nothing, with a unique device code per project. `hold()` keeps the
 * answers back until `release()`, so a test can look at the optimistic state in between;
 * `refuseNext(messageId)` makes the next write fail as the server refuses.
 */
export interface FakePoiServer extends PoiStoreServices {
  pois: Map<string, PoiDetail>
  templates: Map<string, PoiSceneTemplate>
  calls: { name: string; body: unknown }[]
  hold(): void
  release(): Promise<void>
  refuseNext(messageId: string, message?: string): void
  findPoiDetail(id: string): Promise<PoiDetail>
}

const stamp = '2026-11-26T10:00:00.000Z'

/** A scene template of the given kind. */
export function sceneTemplate(
  id: string,
  name: string,
  extra: Partial<PoiSceneTemplate> = {},
): PoiSceneTemplate {
  return {
    id,
    name,
    type: '2D',
    category_node_id: `node-${id}`,
    poicategory_code: `code-${id}`,
    iconpath: `/web/files/${id}.png`,
    jpg_name: '',
    sbm_name: '',
    filepath: '',
    ...extra,
  }
}

/** A full POI record. */
export function poiRecord(
  fields: Partial<PoiDetail> & { id: string; category_id: string },
  template?: PoiSceneTemplate,
): PoiDetail {
  return {
    projectid: 'project-1',
    name: fields.id,
    floor_id: '',
    pid: '',
    type: template?.type ?? '2D',
    level: 0,
    state: '',
    heading: 0,
    pitch: 0,
    roll: 0,
    orientation: '',
    pack: '',
    poiid: '',
    poiType: '',
    poi_style: '',
    view_type: '',
    modelList: [],
    category_node_id: template?.category_node_id ?? '',
    poicategory_code: template?.poicategory_code ?? '',
    template_type: '0',
    category_type: '',
    cameraPs: '',
    cameraPss: '',
    cartisian_x: 0,
    cartisian_y: 0,
    cartisian_z: 0,
    x: 0,
    y: 0,
    z: 0,
    devicecode: '',
    distance_min: null,
    distance_max: null,
    event_code: '',
    event_image: '',
    gatecode: '',
    iconpath: template?.iconpath ?? '',
    jpg_name: template?.jpg_name ?? '',
    sbm_name: template?.sbm_name ?? '',
    filepath: template?.filepath ?? '',
    template_name: template?.name ?? '',
    created_at: stamp,
    updated_at: stamp,
    customs: [],
    ...fields,
  }
}

/** Builds a fake server holding `pois` of `templates`. */
export function createFakePoiServer(
  templates: PoiSceneTemplate[] = [sceneTemplate('t1', 'Camera')],
  pois: PoiDetail[] = [],
  templateCustoms: Record<
    string,
    { property_column: string; column_des: string; column_example: string }[]
  > = {},
): FakePoiServer {
  const store = new Map(pois.map((poi) => [poi.id, poi]))
  const templateMap = new Map(templates.map((template) => [template.id, template]))
  const calls: { name: string; body: unknown }[] = []
  let held: (() => void)[] | null = null
  let refusal: { messageId: string; message: string } | null = null
  let sequence = 1000

  const refuse = (messageId: string, message: string) =>
    new ApiError({
      reason: 'server',
      envelope: { code: '409', message, messageId, datum: null },
      httpStatus: 409,
      fallbackMessage: message,
    })

  /** Waits while held, then answers (or throws the queued refusal). */
  const answer = async <Result>(
    name: string,
    body: unknown,
    work: () => Result,
  ): Promise<Result> => {
    calls.push({ name, body })
    if (held) await new Promise<void>((resolve) => held?.push(resolve))
    const refused = refusal
    if (refused && name !== 'findProjectPoiDetail' && name !== 'findPoiDetail') {
      refusal = null
      throw refuse(refused.messageId, refused.message)
    }
    return work()
  }

  const checkDevicecodes = (changed: Map<string, PoiDetail>) => {
    const seen = new Map<string, string>()
    const all = new Map([...store, ...changed])
    for (const poi of all.values()) {
      if (!poi.devicecode) continue
      const other = seen.get(poi.devicecode)
      if (other && other !== poi.id)
        throw refuse('poi.devicecodeTaken', `The device code ${poi.devicecode} is taken.`)
      seen.set(poi.devicecode, poi.id)
    }
  }

  const customsOf = (poiId: string, templateId: string): PoiCustom[] =>
    (templateCustoms[templateId] ?? []).map((attribute, index) => ({
      id: `${poiId}-c${index}`,
      poi_id: poiId,
      property_column: attribute.property_column,
      column_des: attribute.column_des,
      column_value: attribute.column_example,
    }))

  const made = (
    item: CreatePoiListItem,
    projectId: string,
    isCopyProperties: boolean,
  ): PoiDetail => {
    const template = templateMap.get(item.category_id)
    if (!template) throw refuse('poi.selectCategory', 'Select the POI category')
    const id = `p${++sequence}`
    const source = item.source_id ? store.get(item.source_id) : undefined
    if (item.source_id && !source)
      throw refuse('poi.sourceNotFound', 'The POI to copy is not a POI of this project.')
    let customs = customsOf(id, template.id)
    if (source && isCopyProperties)
      customs = source.customs.map((custom, index) => ({
        ...custom,
        id: `${id}-c${index}`,
        poi_id: id,
      }))
    for (const input of item.customs ?? []) {
      const existing = customs.find((custom) => custom.property_column === input.property_column)
      if (existing) existing.column_value = input.column_value
      else
        customs.push({
          id: `${id}-c${customs.length}`,
          poi_id: id,
          property_column: input.property_column,
          column_des: input.column_des ?? input.property_column,
          column_value: input.column_value,
        })
    }
    return poiRecord(
      {
        id,
        projectid: projectId,
        category_id: template.id,
        name: item.name,
        x: Number(item.x),
        y: Number(item.y),
        z: Number(item.z ?? 0),
        heading: Number(item.heading ?? 0),
        pitch: Number(item.pitch ?? 0),
        roll: Number(item.roll ?? 0),
        floor_id: item.floor_id ?? '',
        pid: item.pid ?? '',
        devicecode: item.devicecode ?? '',
        poiid: item.poiid ?? '',
        customs,
      },
      template,
    )
  }

  const changed = (body: UpdatePoiBody): PoiDetail => {
    const current = store.get(body.id)
    if (!current)
      throw refuse(
        'poi.notYours',
        'Some of these POIs are not yours or do not exist; nothing was changed.',
      )
    const { id: _id, customs: customInputs, ...fields } = body
    const next: PoiDetail = {
      ...current,
      ...(fields as Partial<PoiDetail>),
      customs: current.customs.map((c) => ({ ...c })),
    }
    if (body.category_id) {
      const template = templateMap.get(body.category_id)
      if (!template) throw refuse('poi.selectCategory', 'Select the POI category')
      Object.assign(next, {
        type: template.type,
        template_name: template.name,
        iconpath: template.iconpath,
        category_node_id: template.category_node_id,
      })
    }
    for (const input of customInputs ?? []) {
      const existing = next.customs.find(
        (custom) => custom.property_column === input.property_column,
      )
      if (existing) existing.column_value = input.column_value
      else
        next.customs.push({
          id: `${next.id}-c${next.customs.length}`,
          poi_id: next.id,
          property_column: input.property_column,
          column_des: input.column_des ?? input.property_column,
          column_value: input.column_value,
        })
    }
    return next
  }

  return {
    pois: store,
    templates: templateMap,
    calls,
    hold() {
      held = []
    },
    async release() {
      const waiting = held ?? []
      held = null
      for (const resolve of waiting) resolve()
      // Lets the released answers run their continuations.
      for (let tick = 0; tick < 20; tick++) await Promise.resolve()
      await new Promise((resolve) => setTimeout(resolve, 0))
    },
    refuseNext(messageId, message = messageId) {
      refusal = { messageId, message }
    },
    findProjectPois: (projectId) =>
      answer('findProjectPoiDetail', { projectid: projectId }, () =>
        projectDatum(projectId, [...store.values()], templateMap),
      ),
    findPoiDetail: (id) =>
      answer('findPoiDetail', { id }, () => {
        const poi = store.get(id)
        if (!poi) throw refuse('poi.notFound', 'This POI does not exist.')
        return structuredClone(poi)
      }),
    createPoi: (body) =>
      answer('creatPoi', body, () => {
        const { projectid, ...item } = body
        const poi = made(item, projectid, true)
        checkDevicecodes(new Map([[poi.id, poi]]))
        store.set(poi.id, poi)
        return structuredClone(poi)
      }),
    createPoiList: (projectId, list, isCopyProperties) =>
      answer('creatPoiList', { projectid: projectId, list, isCopyProperties }, () => {
        const created = list.map((item) => made(item, projectId, isCopyProperties))
        checkDevicecodes(new Map(created.map((poi) => [poi.id, poi])))
        for (const poi of created) store.set(poi.id, poi)
        return { count: created.length, list: created.map((poi) => structuredClone(poi)) }
      }),
    updatePoi: (body) =>
      answer('updataPoi', body, () => {
        const next = changed(body)
        checkDevicecodes(new Map([[next.id, next]]))
        store.set(next.id, next)
        return structuredClone(next)
      }),
    updatePoiList: (list) =>
      answer('updataPoiList', { list }, () => {
        const next = list.map(changed)
        checkDevicecodes(new Map(next.map((poi) => [poi.id, poi])))
        for (const poi of next) store.set(poi.id, poi)
        return next.length
      }),
    deletePoiList: (ids) =>
      answer('deletePoiList', { ids }, () => {
        if (ids.some((id) => !store.has(id)))
          throw refuse(
            'poi.notYours',
            'Some of these POIs are not yours or do not exist; nothing was changed.',
          )
        for (const id of ids) store.delete(id)
        return ids.length
      }),
  }
}

/** The compact project answer of some records. */
export function projectDatum(
  projectId: string,
  pois: Poi[],
  templates: Map<string, PoiSceneTemplate>,
): ProjectPoisDatum {
  const usedTemplates = [...new Set(pois.map((poi) => poi.category_id))]
    .map((id) => templates.get(id))
    .filter((template) => template !== undefined)
  const floors = [...new Set(pois.map((poi) => poi.floor_id).filter(Boolean))]
  return {
    projectid: projectId,
    count: pois.length,
    templates: usedTemplates,
    floors,
    ids: pois.map((poi) => poi.id),
    names: pois.map((poi) => poi.name),
    template: pois.map((poi) =>
      usedTemplates.findIndex((template) => template.id === poi.category_id),
    ),
    positions: pois.flatMap((poi) => [poi.x, poi.y, poi.z]),
    heading: pois.map((poi) => poi.heading),
    pitch: pois.map((poi) => poi.pitch),
    roll: pois.map((poi) => poi.roll),
    floor: pois.map((poi) => (poi.floor_id ? floors.indexOf(poi.floor_id) : -1)),
    pid: pois.map((poi) => poi.pid),
    devicecode: pois.map((poi) => poi.devicecode),
    level: pois.map((poi) => poi.level),
    distance_min: pois.map((poi) => poi.distance_min),
    distance_max: pois.map((poi) => poi.distance_max),
  }
}

/** A scene that records every command it is given (tests only). */
export function createRecordingScene(prefix: 'city' | 'building' = 'city') {
  const commands: { name: string; args: unknown }[] = []
  const drawn = new Map<string, unknown>()
  const record =
    (name: string) =>
    async (args: unknown): Promise<void> => {
      commands.push({ name, args })
    }
  return {
    commands,
    drawn,
    /** Names of the commands received, in order. */
    names: () => commands.map((command) => command.name),
    scene: {
      prefix,
      setLooks: record('setPoiLooks'),
      setPois: async (pois: { id: string }[]) => {
        commands.push({ name: 'setPois', args: pois })
        drawn.clear()
        for (const poi of pois) drawn.set(poi.id, poi)
      },
      upsertPois: async (pois: { id: string }[]) => {
        commands.push({ name: 'upsertPois', args: pois })
        for (const poi of pois) drawn.set(poi.id, poi)
      },
      removePois: async (ids: string[]) => {
        commands.push({ name: 'removePois', args: ids })
        for (const id of ids) drawn.delete(id)
      },
      selectPois: record('selectPois'),
      setHiddenGroups: record('setHiddenPoiGroups'),
      setGhosts: record('setPoiGhosts'),
      flyTo: record('flyToPoi'),
      toScreen: async () => null,
    },
  }
}

/**
 * The shared screens' other calls answered from a fake server (tests only): its templates as
 * the template list, `attributes` as their static attributes.
 */
export function createFakeScreenServices(
  server: FakePoiServer,
  attributes: Record<
    string,
    { property_column: string; column_des: string; column_example: string }[]
  > = {},
  categoryTree: CategoryNode[] = [],
): PoiScreenServices & { batchCalls: unknown[] } {
  const batchCalls: unknown[] = []
  const listItemOf = (template: PoiSceneTemplate): TemplateListItem => ({
    ...templateOf({
      id: template.id,
      name: template.name,
      type: template.type,
      category_id: template.category_node_id,
      poicategory_code: template.poicategory_code,
      iconpath: template.iconpath,
      jpg_name: template.jpg_name,
      glbf_name: template.sbm_name,
      file_path: template.filepath,
    }),
    classify: template.type,
    category: template.category_node_id,
    category_path: [{ category_name: template.category_node_id }],
    encoding: template.poicategory_code,
  })
  return {
    batchCalls,
    async listTemplates({ pageNo, pageSize }) {
      const all = [...server.templates.values()].map(listItemOf)
      return {
        list: all.slice((pageNo - 1) * pageSize, pageNo * pageSize),
        total: all.length,
        pageNo,
        pageSize,
      }
    },
    async findCategoryTree() {
      return categoryTree
    },
    async listAttributes(templateId) {
      return (attributes[templateId] ?? []).map((attribute, index) => ({
        id: `${templateId}-a${index}`,
        poicategoryid: templateId,
        created_at: stamp,
        ...attribute,
      }))
    },
    findPoiDetail: (id) => server.findPoiDetail(id),
    async batchCreatePois(input) {
      batchCalls.push(input)
      return { count: 0, isDryRun: input.isDryRun, ids: [] }
    },
    async selectPoisByModel() {
      return []
    },
  }
}
