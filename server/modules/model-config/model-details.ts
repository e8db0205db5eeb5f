import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type {
  addModelDetailBodySchema,
  ModelDetail,
  updateModelDetailBodySchema,
} from '../../../contract/model-config'
import { AppError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'

/** What the model details are made from. */
export interface ModelDetailsDependencies {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
}

/**
 * Per-model details of building projects (SPEC §7 `findCompanyAndModel`, `findModelInfoOne`,
 * `add|update|deleteModelDetail`): manufacturer, product, serial number, install date, a note.
 * Only someone who may change the model's project reads or writes them; a model of another
 * user's project is not found. Details of a deleted model are never answered (reads join the
 * models) and go with the project.
 */
export interface ModelDetailsService {
  companiesAndModels(
    user: AuthUser,
    projectId: string,
  ): Promise<Array<{ company: string; models: ModelDetail[] }>>
  findOne(user: AuthUser, modelId: string): Promise<ModelDetail | null>
  add(user: AuthUser, input: z.output<typeof addModelDetailBodySchema>): Promise<ModelDetail>
  update(user: AuthUser, input: z.output<typeof updateModelDetailBodySchema>): Promise<ModelDetail>
  remove(user: AuthUser, id: string): Promise<void>
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the model details service. */
export function createModelDetailsService(
  dependencies: ModelDetailsDependencies,
): ModelDetailsService {
  const { database, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const selectDetails = (handle: Database) =>
    handle
      .selectFrom('model_details')
      .innerJoin('building_models', 'building_models.id', 'model_details.model_id')
      .select([
        'model_details.id',
        'model_details.model_id',
        'model_details.project_id',
        'building_models.name as model_name',
        'model_details.company',
        'model_details.product',
        'model_details.serial_number',
        'model_details.install_date',
        'model_details.description',
        'model_details.created_at',
        'model_details.updated_at',
      ])

  /** The model, if the user may change its project; another user's model is not found. */
  const loadModel = async (user: AuthUser, modelId: string) => {
    const model = await db
      .selectFrom('building_models')
      .select(['id', 'project_id', 'name'])
      .where('id', '=', modelId)
      .executeTakeFirst()
    if (!model) throw new AppError('notFound', 'model.notFound')
    try {
      await access.requireEditable(user, model.project_id)
    } catch (error) {
      if (error instanceof AppError && error.kind === 'forbidden') {
        throw new AppError('notFound', 'model.notFound')
      }
      throw error
    }
    return model
  }

  const loadDetail = async (user: AuthUser, id: string) => {
    const detail = await selectDetails(db).where('model_details.id', '=', id).executeTakeFirst()
    if (!detail) throw new AppError('notFound', 'modelDetail.notFound')
    await loadModel(user, detail.model_id)
    return detail
  }

  return {
    async companiesAndModels(user, projectId) {
      await access.requireEditable(user, projectId)
      const details = await selectDetails(db)
        .where('model_details.project_id', '=', projectId)
        .orderBy('model_details.company')
        .orderBy('building_models.name')
        .execute()
      const groups = new Map<string, ModelDetail[]>()
      for (const detail of details) {
        groups.set(detail.company, [...(groups.get(detail.company) ?? []), detail])
      }
      return [...groups].map(([company, models]) => ({ company, models }))
    },

    async findOne(user, modelId) {
      await loadModel(user, modelId)
      return (
        (await selectDetails(db)
          .where('model_details.model_id', '=', modelId)
          .executeTakeFirst()) ?? null
      )
    },

    async add(user, input) {
      const model = await loadModel(user, input.model_id)
      const id = randomUUID()
      const timestamp = now()
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, model.project_id)
        const existing = await transaction
          .selectFrom('model_details')
          .select('id')
          .where('model_id', '=', model.id)
          .executeTakeFirst()
        if (existing) throw new AppError('conflict', 'modelDetail.exists')
        await transaction
          .insertInto('model_details')
          .values({
            id,
            model_id: model.id,
            project_id: model.project_id,
            company: input.company,
            product: input.product,
            serial_number: input.serial_number,
            install_date: input.install_date,
            description: input.description,
            created_at: timestamp,
            updated_at: timestamp,
          })
          .execute()
      })
      return loadDetail(user, id)
    },

    async update(user, input) {
      const detail = await loadDetail(user, input.id)
      const { id, ...fields } = input
      const changes = Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      )
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, detail.project_id)
        await transaction
          .updateTable('model_details')
          .set({ ...changes, updated_at: now() })
          .where('id', '=', id)
          .execute()
      })
      return loadDetail(user, id)
    },

    async remove(user, id) {
      const detail = await loadDetail(user, id)
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, detail.project_id)
        await transaction.deleteFrom('model_details').where('id', '=', id).execute()
      })
    },

    lifecycleHook: {
      async onDelete(handle, projectId) {
        await handle.deleteFrom('model_details').where('project_id', '=', projectId).execute()
      },
    },
  }
}
