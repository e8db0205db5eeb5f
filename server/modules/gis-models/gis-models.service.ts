import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { GisModel } from '../../../contract/city'
import { AppError, fieldError } from '../../http/app-error'
import type { GisModelsTable } from '../../migrations/0006-city'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { CityAccess } from '../tilesets/city-access'
import type { AuthUser } from '../accounts/users.service'

type GisModelRow = Selectable<GisModelsTable>
type FeatureId = number | string

/** Single-building ("monomer") models: named feature selections in a project's tilesets. */
export interface GisModelsService {
  select(caller: ProjectCaller | null, projectId: string | undefined): Promise<GisModel[]>
  add(
    user: AuthUser,
    input: {
      project_id: string
      modelname: string
      tileset_id?: string | undefined
      feature_ids: FeatureId[]
      properties: Record<string, unknown>
    },
  ): Promise<GisModel>
  update(
    user: AuthUser,
    input: {
      id: string
      modelname?: string | undefined
      tileset_id?: string | null | undefined
      feature_ids?: FeatureId[] | undefined
      properties?: Record<string, unknown> | undefined
    },
  ): Promise<GisModel>
  remove(user: AuthUser, id: string): Promise<void>
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the service. SQL for `gis_models` lives here only (a table this small needs no more). */
export function createGisModelsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: CityAccess
}): GisModelsService {
  const { database, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const toDatum = (row: GisModelRow): GisModel => ({
    id: row.id,
    modelname: row.modelname,
    project_id: row.project_id,
    tileset_id: row.tileset_id,
    feature_ids: JSON.parse(row.feature_ids_json) as FeatureId[],
    properties: JSON.parse(row.properties_json) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })
  const findRow = (id: string) =>
    db.selectFrom('gis_models').selectAll().where('id', '=', id).executeTakeFirst()
  const listRows = (handle: Database, projectId: string) =>
    handle
      .selectFrom('gis_models')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()

  /** A tileset id must name one of the same project's tilesets. */
  const checkTileset = async (projectId: string, tilesetId: string | null | undefined) => {
    if (tilesetId === undefined || tilesetId === null) return
    const tileset = await db
      .selectFrom('tilesets')
      .select('project_id')
      .where('id', '=', tilesetId)
      .executeTakeFirst()
    if (tileset?.project_id !== projectId) {
      throw fieldError('validation', 'tileset_id', 'gisModel.noSuchTileset')
    }
  }

  const loadEditable = async (user: AuthUser, id: string) => {
    const row = await findRow(id)
    if (!row) throw new AppError('notFound', 'gisModel.notFound')
    await access.requireEditable(user, row.project_id)
    return row
  }

  return {
    async select(caller, projectId) {
      const resolved = (await access.resolveReadable(caller, projectId)).record.id
      return (await listRows(db, resolved)).map(toDatum)
    },
    async add(user, input) {
      await access.requireEditable(user, input.project_id)
      await checkTileset(input.project_id, input.tileset_id)
      const timestamp = now()
      const row: GisModelRow = {
        id: randomUUID(),
        project_id: input.project_id,
        tileset_id: input.tileset_id ?? null,
        modelname: input.modelname,
        feature_ids_json: JSON.stringify(input.feature_ids),
        properties_json: JSON.stringify(input.properties),
        created_at: timestamp,
        updated_at: timestamp,
      }
      await db.insertInto('gis_models').values(row).execute()
      return toDatum(row)
    },
    async update(user, input) {
      const row = await loadEditable(user, input.id)
      await checkTileset(row.project_id, input.tileset_id)
      await db
        .updateTable('gis_models')
        .set({
          ...(input.modelname === undefined ? {} : { modelname: input.modelname }),
          ...(input.tileset_id === undefined ? {} : { tileset_id: input.tileset_id }),
          ...(input.feature_ids === undefined
            ? {}
            : { feature_ids_json: JSON.stringify(input.feature_ids) }),
          ...(input.properties === undefined
            ? {}
            : { properties_json: JSON.stringify(input.properties) }),
          updated_at: now(),
        })
        .where('id', '=', input.id)
        .execute()
      return toDatum((await findRow(input.id))!)
    },
    async remove(user, id) {
      await loadEditable(user, id)
      await db.deleteFrom('gis_models').where('id', '=', id).execute()
    },
    lifecycleHook: {
      // registered before the tilesets' hook, which then repoints tileset_id at the copies
      async onCopy(transaction, fromProjectId, toProjectId) {
        for (const row of await listRows(transaction, fromProjectId)) {
          await transaction
            .insertInto('gis_models')
            .values({ ...row, id: randomUUID(), project_id: toProjectId })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        await transaction.deleteFrom('gis_models').where('project_id', '=', projectId).execute()
      },
    },
  }
}
