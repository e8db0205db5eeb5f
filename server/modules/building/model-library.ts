import type { z } from 'zod'
import type {
  BuildingFloor,
  BuildingModel,
  createModelByCategoryBodySchema,
  ModelCountDatum,
  ModelInfoDatum,
  updateBimModelBodySchema,
  updateFloorBodySchema,
  updateModelInfoBodySchema,
} from '../../../contract/building'
import { AppError, fieldError } from '../../http/app-error'
import { ownsOrAdministers } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectCaller } from '../projects/projects.service'
import type { BuildingContext } from './building-context'
import { baseNameOf, toBuildingFloor } from './building-views'

/** Input of `updateBimModel`, as its route validated it. */
export type UpdateBimModelInput = z.output<typeof updateBimModelBodySchema>
/** Input of `updateModelInfo` (placement and visibility), as its route validated it. */
export type UpdateModelInfoInput = z.output<typeof updateModelInfoBodySchema>
/** Input of `createModelByCategory`, as its route validated it. */
export type CreateByCategoryInput = z.output<typeof createModelByCategoryBodySchema>
/** Input of a floor's rename or elevation change, as its route validated it. */
export type UpdateFloorInput = z.output<typeof updateFloorBodySchema>

/** A project's model library: the scene description, and changes to models and floors. */
export interface ModelLibrary {
  updateModel(user: AuthUser, input: UpdateBimModelInput): Promise<BuildingModel>
  /** Renames a floor or sets its elevation (the scene stacks floors by it). */
  updateFloor(user: AuthUser, input: UpdateFloorInput): Promise<BuildingFloor>
  /** Refused once the project is paid (SPEC §4). */
  deleteModel(user: AuthUser, modelId: string): Promise<void>
  modelInfo(caller: ProjectCaller, projectId: string): Promise<ModelInfoDatum>
  createFromConverted(user: AuthUser, input: CreateByCategoryInput): Promise<BuildingModel>
  countModels(user: AuthUser, projectId: string): Promise<ModelCountDatum>
  updatePlacement(user: AuthUser, input: UpdateModelInfoInput): Promise<BuildingModel>
}

/** Builds the model library's calls over the shared context. */
export function createModelLibrary(context: BuildingContext): ModelLibrary {
  const { repository, access } = context

  /** Refuses a floor that does not exist or belongs to another project. */
  const requireFloorOf = async (projectId: string, floorId: string) => {
    const floor = await repository.findFloor(floorId)
    if (!floor || floor.project_id !== projectId) {
      throw fieldError('validation', 'floor_id', 'model.noSuchFloor')
    }
  }

  return {
    async updateModel(user, input) {
      const { model } = await context.loadOwnedModel(user, input.id)
      if (input.floor_id) await requireFloorOf(model.project_id, input.floor_id)
      await context.writeInProject(user, model.project_id, (handle, _, timestamp) =>
        handle.updateModel(model.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.role === undefined ? {} : { role: input.role }),
          ...(input.floor_id === undefined ? {} : { floor_id: input.floor_id }),
          updated_at: timestamp,
        }),
      )
      return context.reloadModel(model.id)
    },

    async updateFloor(user, input) {
      const floor = await repository.findFloor(input.id)
      if (!floor) throw new AppError('notFound', 'building.floorNotFound')
      await context.loadOwnedProject(user, floor.project_id)
      await context.writeInProject(user, floor.project_id, (handle, _, timestamp) =>
        handle.updateFloor(floor.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.elevation === undefined ? {} : { elevation: input.elevation }),
          updated_at: timestamp,
        }),
      )
      const row = await repository.findFloor(floor.id)
      if (!row) throw new AppError('notFound', 'building.floorNotFound')
      return toBuildingFloor(row)
    },

    async deleteModel(user, modelId) {
      const { model, project } = await context.loadOwnedModel(user, modelId)
      const refusePaid = () => {
        // forbidden, not paymentRequired: paying would not unlock it; the project is paid already
        throw new AppError('forbidden', 'model.paidProject')
      }
      if (project.is_paid === 1) refusePaid()
      await context.writeInProject(user, model.project_id, async (handle, transaction) => {
        const current = await context.projectsOf(transaction).findById(model.project_id)
        if (current?.is_paid === 1) refusePaid()
        await handle.deleteModel(model.id)
      })
      await context.releaseUnused([
        model.sha256,
        ...(model.preview_sha256 ? [model.preview_sha256] : []),
      ])
    },

    async modelInfo(caller, projectId) {
      const reader = await access.requireReadable(caller, projectId)
      const project = reader.record
      const models = await repository.listModels(projectId)
      const structure = await repository.findStructure(projectId)
      // the stored manifest, readable by a plain fetch like the models
      const shellJsonPath = structure
        ? context.grantedStructureUrl(projectId, structure.sha256, reader)
        : project.shell_json_path
      return {
        structure: await context.structureOf(repository, projectId, project.name),
        models: models.map((row) => context.toModel(row, reader)),
        shell_json_path: shellJsonPath,
      }
    },

    async createFromConverted(user, input) {
      await context.loadOwnedProject(user, input.project_id)
      const converted = await repository.findConverted(input.sbm_uuid)
      if (!converted || !ownsOrAdministers(user, converted.owner_id)) {
        throw fieldError('validation', 'sbm_uuid', 'model.noSuchConverted')
      }
      if (input.floor_id !== undefined) await requireFloorOf(input.project_id, input.floor_id)
      const fileName = `${baseNameOf(converted.source_name)}.sbm`
      const id = await context.writeInProject(user, input.project_id, (handle, _, timestamp) =>
        context.insertModel(
          handle,
          {
            projectId: input.project_id,
            fileName,
            name: input.name ?? baseNameOf(converted.source_name),
            role: input.role,
            floorId: input.floor_id ?? null,
            columns: {
              sha256: converted.sha256,
              size_bytes: converted.size_bytes,
              triangle_count: converted.triangle_count,
              has_stored_bvh: converted.has_stored_bvh,
              preview_sha256: converted.preview_sha256,
            },
          },
          timestamp,
        ),
      )
      return context.reloadModel(id)
    },

    async countModels(user, projectId) {
      await context.loadOwnedProject(user, projectId)
      const counts = await repository.countModels(projectId)
      return { count: counts.shell + counts.floor + counts.model, ...counts }
    },

    async updatePlacement(user, input) {
      const { model } = await context.loadOwnedModel(user, input.id)
      const [positionX, positionY, positionZ] = input.position ?? []
      const [rotationX, rotationY, rotationZ] = input.rotationDegrees ?? []
      const [scaleX, scaleY, scaleZ] = input.scale ?? []
      await context.writeInProject(user, model.project_id, (handle, _, timestamp) =>
        handle.updateModel(model.id, {
          ...(input.position
            ? { position_x: positionX, position_y: positionY, position_z: positionZ }
            : {}),
          ...(input.rotationDegrees
            ? { rotation_x: rotationX, rotation_y: rotationY, rotation_z: rotationZ }
            : {}),
          ...(input.scale ? { scale_x: scaleX, scale_y: scaleY, scale_z: scaleZ } : {}),
          ...(input.is_visible === undefined ? {} : { is_visible: input.is_visible ? 1 : 0 }),
          updated_at: timestamp,
        }),
      )
      return context.reloadModel(model.id)
    },
  }
}
