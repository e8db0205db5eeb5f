import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  type addBuildingMaterialBodySchema,
  type addMaterialBodySchema,
  type FindMaterialDatum,
  type MaterialAssignment,
  type MaterialDatum,
  materialMapFields,
  materialMapNamePattern,
  materialTextureMaxBytes,
  type UploadFileDatum,
} from '../../../contract/materials'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { readImageHeader, textureBudget } from '../images/image-header'
import type { IncomingImage, UploadsService } from '../projects/uploads.service'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'

/** What the materials are made from. */
export interface MaterialsDependencies {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
  uploads: UploadsService
}

/**
 * The material library (SPEC §7 `/materialManager/*`, issue 21 item 4). A library belongs to
 * its user: another user's material is not found. Assigning draws a material on one mesh of a
 * building model of a project the caller may change; the model's SBM is never touched, the
 * engine draws the override. Deleting a material removes its assignments in the same
 * transaction; a project's delete removes its assignments.
 */
export interface MaterialsService {
  /** Stores a texture (`uploadFile?type=4`): PNG or JPEG by content, within the texture budget. */
  uploadTexture(user: AuthUser, image: IncomingImage | undefined): Promise<UploadFileDatum>
  save(user: AuthUser, input: z.output<typeof addMaterialBodySchema>): Promise<MaterialDatum>
  remove(user: AuthUser, id: string): Promise<void>
  find(user: AuthUser, projectId: string | undefined): Promise<FindMaterialDatum>
  assign(
    user: AuthUser,
    input: z.output<typeof addBuildingMaterialBodySchema>,
  ): Promise<MaterialAssignment[]>
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the materials service. */
export function createMaterialsService(dependencies: MaterialsDependencies): MaterialsService {
  const { database, clock, access, uploads } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const loadMaterial = async (handle: Database, user: AuthUser, id: string) => {
    const material = await handle
      .selectFrom('materials')
      .selectAll()
      .where('id', '=', id)
      .where('owner_id', '=', user.id)
      .executeTakeFirst()
    if (!material) throw new AppError('notFound', 'material.notFound')
    return material
  }

  const toDatum = ({ owner_id: _owner, ...material }: MaterialDatum & { owner_id: string }) =>
    material

  const assignmentsOf = (handle: Database, projectId: string) =>
    handle
      .selectFrom('material_assignments')
      // an assignment of a model deleted since is not answered
      .innerJoin('building_models', 'building_models.id', 'material_assignments.model_id')
      .select([
        'material_assignments.id',
        'material_assignments.project_id',
        'material_assignments.model_id',
        'material_assignments.mesh_name',
        'material_assignments.material_id',
      ])
      .where('material_assignments.project_id', '=', projectId)
      .orderBy('material_assignments.model_id')
      .orderBy('material_assignments.mesh_name')
      .execute()

  /** Each map names a texture this user uploaded; anything else is refused with its field. */
  const checkMaps = async (user: AuthUser, input: z.output<typeof addMaterialBodySchema>) => {
    for (const field of materialMapFields) {
      const name = input[field]
      if (name === '') continue
      const match = materialMapNamePattern.exec(name)
      const upload = match ? await uploads.find(match[1]!) : undefined
      if (!upload || upload.owner_id !== user.id || upload.extension !== match?.[2]) {
        throw fieldError('notFound', field, 'material.mapNotFound', { name })
      }
    }
  }

  return {
    async uploadTexture(user, image) {
      const datum = await uploads.acceptImage({
        user,
        image,
        limits: { maxBytes: materialTextureMaxBytes, pixelBudget: textureBudget },
      })
      const header = image ? readImageHeader(image.bytes) : null
      return {
        rootPath: datum.rootPath,
        fileName: datum.jpgName,
        uuid: datum.uuid,
        widthPixels: header?.widthPixels ?? 0,
        heightPixels: header?.heightPixels ?? 0,
      }
    },

    async save(user, input) {
      await checkMaps(user, input)
      const { id: existingId, ...fields } = input
      const timestamp = now()
      if (existingId !== undefined) {
        await loadMaterial(db, user, existingId)
        await db
          .updateTable('materials')
          .set({ ...fields, updated_at: timestamp })
          .where('id', '=', existingId)
          .where('owner_id', '=', user.id)
          .execute()
        return toDatum(await loadMaterial(db, user, existingId))
      }
      const id = randomUUID()
      await db
        .insertInto('materials')
        .values({ id, owner_id: user.id, ...fields, created_at: timestamp, updated_at: timestamp })
        .execute()
      return toDatum(await loadMaterial(db, user, id))
    },

    async remove(user, id) {
      await db.transaction().execute(async (transaction) => {
        await loadMaterial(transaction, user, id)
        await transaction.deleteFrom('material_assignments').where('material_id', '=', id).execute()
        await transaction
          .deleteFrom('materials')
          .where('id', '=', id)
          .where('owner_id', '=', user.id)
          .execute()
      })
    },

    async find(user, projectId) {
      if (projectId !== undefined) await access.requireEditable(user, projectId)
      const materials = await db
        .selectFrom('materials')
        .selectAll()
        .where('owner_id', '=', user.id)
        .orderBy('name')
        .orderBy('id')
        .execute()
      return {
        materials: materials.map(toDatum),
        assignments: projectId === undefined ? [] : await assignmentsOf(db, projectId),
      }
    },

    async assign(user, input) {
      await access.requireEditable(user, input.project_id)
      const model = await db
        .selectFrom('building_models')
        .select(['id'])
        .where('id', '=', input.model_id)
        .where('project_id', '=', input.project_id)
        .executeTakeFirst()
      if (!model) throw fieldError('notFound', 'model_id', 'model.notFound')
      return db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, input.project_id)
        await transaction
          .deleteFrom('material_assignments')
          .where('model_id', '=', input.model_id)
          .where('mesh_name', '=', input.mesh_name)
          .execute()
        if (input.material_id !== '') {
          await loadMaterial(transaction, user, input.material_id)
          await transaction
            .insertInto('material_assignments')
            .values({
              id: randomUUID(),
              project_id: input.project_id,
              model_id: input.model_id,
              mesh_name: input.mesh_name,
              material_id: input.material_id,
              created_at: now(),
            })
            .execute()
        }
        return assignmentsOf(transaction, input.project_id)
      })
    },

    lifecycleHook: {
      async onDelete(handle, projectId) {
        await handle
          .deleteFrom('material_assignments')
          .where('project_id', '=', projectId)
          .execute()
      },
    },
  }
}
