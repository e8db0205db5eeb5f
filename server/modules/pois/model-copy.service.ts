import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type { GisModel } from '../../../contract/city'
import type { CopyModelDatum, copyModelBodySchema } from '../../../contract/model-copy'
import { modelCopyLimits } from '../../../contract/model-copy'
import { serverMessage } from '../../../contract/messages'
import { AppError, fieldErrorOf } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { type Clock, timestampOf } from '../time/clock'
import { chunksOf, idChunkSize, type PoiRow } from './poi-records'
import { type CreateItem, createPois, PoiProblems } from './poi-writes'

type CopyModelBody = z.output<typeof copyModelBodySchema>

/** Model copy (contract/model-copy.ts): a city model and its POIs, copied in one transaction. */
export interface ModelCopyService {
  copy(user: AuthUser, body: CopyModelBody): Promise<CopyModelDatum>
}

/** WGS84: semi-major axis (m) and first eccentricity squared. */
const semiMajorAxis = 6_378_137
const eccentricitySquared = 6.69437999014e-3

/**
 * Degrees of longitude and latitude per metre east and north at a latitude (the radii of
 * curvature of the ellipsoid; the client's copy preview uses the same formula, so what the
 * ghosts showed is where the copies land).
 */
export function degreesPerMeterAt(latitudeDegrees: number): { lng: number; lat: number } {
  const latitude = (latitudeDegrees * Math.PI) / 180
  const w = 1 - eccentricitySquared * Math.sin(latitude) ** 2
  const meridianRadius = (semiMajorAxis * (1 - eccentricitySquared)) / w ** 1.5
  const parallelRadius = (semiMajorAxis / Math.sqrt(w)) * Math.max(Math.cos(latitude), 1e-12)
  const toDegrees = 180 / Math.PI
  return { lng: toDegrees / parallelRadius, lat: toDegrees / meridianRadius }
}

/** Builds the service. */
export function createModelCopyService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}): ModelCopyService {
  const { database, access, clock } = dependencies
  const notFound = () => new AppError('notFound', 'poi.modelNotFound')

  return {
    async copy(user, body) {
      return database.db.transaction().execute(async (transaction) => {
        const model = await transaction
          .selectFrom('gis_models')
          .selectAll()
          .where('id', '=', body.model_id)
          .executeTakeFirst()
        if (!model) throw notFound()
        try {
          await access.lockEditable(transaction, user, model.project_id)
        } catch (error) {
          // someone else's model is as unknown as a made-up id
          if (error instanceof AppError && error.kind !== 'sessionTimeout') throw notFound()
          throw error
        }
        const project = { id: model.project_id, kind: 'city' as const }
        const sources: PoiRow[] = await transaction
          .selectFrom('pois')
          .selectAll()
          .where('project_id', '=', model.project_id)
          .where('id', 'in', (eb) =>
            eb.selectFrom('poi_model_links').select('poi_id').where('model_id', '=', model.id),
          )
          .orderBy('created_at')
          .orderBy('id')
          .execute()
        const poiCount = sources.length * body.copies.length
        if (poiCount > modelCopyLimits.maxPois) {
          throw fieldErrorOf('validation', 'copies', {
            id: 'modelCopy.tooManyPois',
            params: { count: poiCount, max: modelCopyLimits.maxPois },
          })
        }
        const nowIso = timestampOf(clock.nowMs())
        const models: GisModel[] = []
        const items: CreateItem[] = []
        for (const copy of body.copies) {
          const row = {
            ...model,
            id: randomUUID(),
            modelname: copy.modelname,
            created_at: nowIso,
            updated_at: nowIso,
          }
          await transaction.insertInto('gis_models').values(row).execute()
          models.push({
            id: row.id,
            modelname: row.modelname,
            project_id: row.project_id,
            tileset_id: row.tileset_id,
            feature_ids: JSON.parse(row.feature_ids_json) as GisModel['feature_ids'],
            properties: JSON.parse(row.properties_json) as Record<string, unknown>,
            created_at: row.created_at,
            updated_at: row.updated_at,
          })
          for (const source of sources) items.push(copiedItem(source, copy, row.id))
        }
        if (items.length > 0) {
          let created: Awaited<ReturnType<typeof createPois>>
          try {
            created = await createPois(transaction, user, project, items, {
              nowIso,
              isCopyProperties: body.isCopyProperties,
            })
          } catch (error) {
            if (!(error instanceof PoiProblems)) throw error
            const first = error.problems[0]!
            const copyIndex = Math.floor(first.index / sources.length)
            const isRange = ['x', 'y', 'z'].includes(first.field)
            throw fieldErrorOf(
              'validation',
              `copies.${copyIndex}`,
              isRange
                ? serverMessage('modelCopy.outOfRange', { copy: copyIndex + 1 })
                : first.message,
            )
          }
          await relinkParents(transaction, sources, created.list, body.copies.length)
        }
        return { models, poiCount: items.length }
      })
    },
  }
}

/** A POI of the original as the create item of its copy for `modelId`. */
function copiedItem(
  source: PoiRow,
  offset: { east: number; north: number; up: number },
  modelId: string,
): CreateItem {
  const perMeter = degreesPerMeterAt(source.y)
  return {
    name: source.name,
    category_id: source.category_id,
    x: source.x + offset.east * perMeter.lng,
    y: source.y + offset.north * perMeter.lat,
    z: source.z + offset.up,
    heading: source.heading,
    pitch: source.pitch,
    roll: source.roll,
    floor_id: '',
    // parents are pointed at their copies once those exist (relinkParents)
    pid: '',
    level: source.level,
    state: source.state,
    orientation: source.orientation,
    pack: source.pack,
    poiid: '',
    poiType: source.poi_type,
    poi_style: source.poi_style,
    view_type: source.view_type,
    // the saved views look at the original, and a device is in one place only
    cameraPs: '',
    cameraPss: '',
    devicecode: '',
    distance_min: source.distance_min,
    distance_max: source.distance_max,
    event_code: source.event_code,
    event_image: source.event_image,
    gatecode: source.gatecode,
    modelList: [modelId],
    source_id: source.id,
  }
}

/**
 * A copied POI whose parent was copied along (in the same copy) gets the parent's copy as its
 * parent; the copies are in `copies × sources` order.
 */
async function relinkParents(
  transaction: Parameters<typeof createPois>[0],
  sources: readonly PoiRow[],
  created: ReadonlyArray<{ id: string }>,
  copyCount: number,
): Promise<void> {
  const indexOf = new Map(sources.map((source, index) => [source.id, index]))
  const updates: { id: string; pid: string }[] = []
  for (let copy = 0; copy < copyCount; copy++) {
    const base = copy * sources.length
    sources.forEach((source, index) => {
      const parentIndex = indexOf.get(source.pid)
      if (parentIndex === undefined) return
      updates.push({ id: created[base + index]!.id, pid: created[base + parentIndex]!.id })
    })
  }
  // one statement per parent: children of one parent are set together
  const byParent = new Map<string, string[]>()
  for (const { id, pid } of updates) byParent.set(pid, [...(byParent.get(pid) ?? []), id])
  for (const [pid, ids] of byParent) {
    for (const chunk of chunksOf(ids, idChunkSize)) {
      await transaction.updateTable('pois').set({ pid }).where('id', 'in', chunk).execute()
    }
  }
}
