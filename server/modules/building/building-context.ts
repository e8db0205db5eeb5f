import { randomUUID } from 'node:crypto'
import {
  type BuildingModel,
  type BuildingModelRole,
  defaultStoreyHeightMeters,
  type ModelInfoDatum,
} from '../../../contract/building'
import type { SbmInfo } from '../../../workers/sbm/sbm-info'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import { type GrantReader, type ProjectAccess, signedInReader } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { createProjectsRepository, type ProjectRecord } from '../projects/projects.repository'
import { type Clock, timestampOf } from '../time/clock'
import {
  type BuildingModelRow,
  type BuildingRepository,
  createBuildingRepository,
} from './building.repository'
import {
  baseNameOf,
  structureFileUrl,
  structureGrantResource,
  toBuildingModel,
} from './building-views'
import type { ConversionPool } from './conversion-pool'
import { readAll } from './model-files'
import { sbmsOfUpload, type UploadedSbm } from './uploaded-models'

/** A file a request brought, already in the file store (multipart part or claimed upload). */
export interface IncomingFile {
  fileName: string
  sha256: string
  sizeBytes: number
}

/** What the building service is made from. */
export interface BuildingDependencies {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  conversions: ConversionPool
  access: ProjectAccess
}

/** The columns of a model row that describe its file. */
export interface FileColumns {
  sha256: string
  /** bigint columns: PostgreSQL hands them back as strings. */
  size_bytes: number | string
  triangle_count: number | string
  has_stored_bvh: number
  /** The stored thumbnail PNG, null when there is none. */
  preview_sha256: string | null
}

/** A new model row: its file, and where it sits in the project. */
export interface NewModel {
  id?: string
  projectId: string
  /** The file name the model is known by in the project (`<base>.sbm`). */
  fileName: string
  /** Shown name; the file name without its extension when not given. */
  name?: string
  role: BuildingModelRole
  floorId: string | null
  columns: FileColumns
}

/**
 * What every use case of the building service shares: its dependencies, the one repository,
 * the owner checks, the writes under the project's lock, and the release of unused bytes.
 */
export interface BuildingContext extends BuildingDependencies {
  db: Database
  repository: BuildingRepository
  projectsOf(handle: Database): ReturnType<typeof createProjectsRepository>
  now(): string
  toModel(row: BuildingModelRow, reader?: GrantReader): BuildingModel
  /** The project if the user may change it: `notFound` if none, `forbidden` if someone else's. */
  loadOwnedProject(user: AuthUser, projectId: string): Promise<ProjectRecord>
  /** The model and its project if the user may change it; another user's model is not found. */
  loadOwnedModel(
    user: AuthUser,
    modelId: string,
  ): Promise<{ model: BuildingModelRow; project: ProjectRecord }>
  /**
   * Runs `write` in a transaction that locks the project row (so a concurrent delete of the
   * project runs wholly before or after it) after checking the owner again.
   */
  writeInProject<Result>(
    user: AuthUser,
    projectId: string,
    write: (
      handle: BuildingRepository,
      transaction: Database,
      timestamp: string,
    ) => Promise<Result>,
  ): Promise<Result>
  /** The model as the API shows it, read again after a write; `notFound` if it went meanwhile. */
  reloadModel(modelId: string): Promise<BuildingModel>
  /** Inserts a model row; resolves to its id. */
  insertModel(handle: BuildingRepository, model: NewModel, timestamp: string): Promise<string>
  /** Removes the bytes of these files unless a row still uses them. */
  releaseUnused(sha256s: readonly string[]): Promise<void>
  /** Runs `write`; if it fails, bytes this request brought and no row uses go again. */
  withCleanup<Result>(incoming: readonly string[], write: () => Promise<Result>): Promise<Result>
  readStored(sha256: string): Promise<Uint8Array>
  /**
   * The stored files of a floor or shell upload as checked SBMs: SBMs as they are, other model
   * formats converted, one ZIP opened first (see uploaded-models.ts).
   */
  sbmsOfFiles(
    userId: string,
    files: IncomingFile[],
    role: 'shell' | 'floor',
  ): Promise<UploadedSbm[]>
  /** Stores a thumbnail; its sha256 for the row, null when there is none. */
  storePreview(preview: Uint8Array | null): Promise<string | null>
  /** Refuses an upload without files. */
  requireFiles(files: IncomingFile[]): void
  /** Creates or updates a floor by its manifest/SBM key; resolves to its id. */
  upsertFloorByKey(
    handle: BuildingRepository,
    projectId: string,
    floor: { key: string; name: string; elevation: number; sortOrder?: number },
    timestamp: string,
  ): Promise<string>
  nextSortOrder(handle: BuildingRepository, projectId: string): Promise<number>
  /** Where a floor made from a plain upload goes: one storey above the highest floor. */
  nextElevation(handle: BuildingRepository, projectId: string): Promise<number>
  /** The project's floors, their models and its shell, as the scene description gives them. */
  structureOf(
    handle: BuildingRepository,
    projectId: string,
    fallbackName: string,
  ): Promise<ModelInfoDatum['structure']>
  /** The stored structure manifest's address with a read grant for `reader`. */
  grantedStructureUrl(projectId: string, sha256: string, reader?: GrantReader): string
}

/**
 * The file columns of a model row from an SBM's description, its hash and size, and its stored
 * thumbnail (a new file without one clears the old file's).
 */
export function fileColumnsOf(
  info: SbmInfo,
  sha256: string,
  sizeBytes: number,
  previewSha256: string | null = null,
): FileColumns {
  return {
    sha256,
    size_bytes: sizeBytes,
    triangle_count: info.triangleCount,
    has_stored_bvh: info.meshCount > 0 && info.meshesWithStoredBvh === info.meshCount ? 1 : 0,
    preview_sha256: previewSha256,
  }
}

/** Builds the shared part of the building service. */
export function createBuildingContext(dependencies: BuildingDependencies): BuildingContext {
  const { database, storage, clock, conversions, access } = dependencies
  const { db } = database
  const repository = createBuildingRepository(db)
  const now = () => timestampOf(clock.nowMs())
  const toModel = (row: BuildingModelRow, reader: GrantReader = signedInReader) =>
    toBuildingModel(row, (resource) => access.fileGrant(resource, reader))

  const releaseUnused = async (sha256s: readonly string[]) => {
    for (const sha256 of new Set(sha256s)) {
      if (!(await repository.isContentUsed(sha256))) await storage.remove(sha256)
    }
  }

  const nextSortOrder = async (handle: BuildingRepository, projectId: string) => {
    const floors = await handle.listFloors(projectId)
    return floors.reduce((highest, floor) => Math.max(highest, floor.sort_order + 1), 0)
  }

  const context: BuildingContext = {
    ...dependencies,
    db,
    repository,
    projectsOf: (handle) => createProjectsRepository(handle, database.dialect),
    now,
    toModel,
    loadOwnedProject: (user, projectId) => access.requireEditable(user, projectId),

    async loadOwnedModel(user, modelId) {
      const model = await repository.findModel(modelId)
      if (!model) throw new AppError('notFound', 'model.notFound')
      const project = await access.requireEditable(user, model.project_id)
      return { model, project }
    },

    writeInProject: (user, projectId, write) =>
      db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, projectId)
        return write(createBuildingRepository(transaction), transaction, now())
      }),

    async reloadModel(modelId) {
      const row = await repository.findModel(modelId)
      if (!row) throw new AppError('notFound', 'model.notFound')
      return toModel(row)
    },

    async insertModel(handle, model, timestamp) {
      const id = model.id ?? randomUUID()
      await handle.insertModel({
        id,
        project_id: model.projectId,
        name: model.name ?? baseNameOf(model.fileName),
        file_name: model.fileName,
        role: model.role,
        floor_id: model.floorId,
        ...model.columns,
        created_at: timestamp,
        updated_at: timestamp,
      })
      return id
    },

    releaseUnused,

    async withCleanup(incoming, write) {
      try {
        return await write()
      } catch (error) {
        await releaseUnused(incoming)
        throw error
      }
    },

    readStored: async (sha256) => readAll(await storage.open(sha256)),

    async sbmsOfFiles(userId, files, role) {
      const uploaded = await Promise.all(
        files.map(async (file) => ({
          path: file.fileName,
          bytes: await context.readStored(file.sha256),
        })),
      )
      return sbmsOfUpload(uploaded, { conversions, role, userId })
    },

    storePreview: async (preview) => (preview ? (await storage.put(preview)).sha256 : null),

    requireFiles(files) {
      if (files.length === 0) {
        throw fieldError('validation', 'file', 'validation.required')
      }
    },

    async upsertFloorByKey(handle, projectId, floor, timestamp) {
      const existing = await handle.findFloorByKey(projectId, floor.key)
      if (existing) {
        await handle.updateFloor(existing.id, {
          name: floor.name,
          elevation: floor.elevation,
          ...(floor.sortOrder === undefined ? {} : { sort_order: floor.sortOrder }),
          updated_at: timestamp,
        })
        return existing.id
      }
      const id = randomUUID()
      await handle.insertFloor({
        id,
        project_id: projectId,
        name: floor.name,
        elevation: floor.elevation,
        sort_order: floor.sortOrder ?? (await nextSortOrder(handle, projectId)),
        floor_key: floor.key,
        created_at: timestamp,
        updated_at: timestamp,
      })
      return id
    },

    nextSortOrder,

    async nextElevation(handle, projectId) {
      const floors = await handle.listFloors(projectId)
      if (floors.length === 0) return 0
      return Math.max(...floors.map((floor) => floor.elevation)) + defaultStoreyHeightMeters
    },

    async structureOf(handle, projectId, fallbackName) {
      const [models, floors, structure] = await Promise.all([
        handle.listModels(projectId),
        handle.listFloors(projectId),
        handle.findStructure(projectId),
      ])
      return {
        name: structure?.name ?? fallbackName,
        shellModelId: models.find((model) => model.role === 'shell')?.id ?? null,
        floors: floors.map((floor) => ({
          id: floor.id,
          name: floor.name,
          elevation: floor.elevation,
          modelIds: models.filter((model) => model.floor_id === floor.id).map((model) => model.id),
        })),
      }
    },

    grantedStructureUrl: (projectId, sha256, reader = signedInReader) =>
      `${structureFileUrl(projectId, sha256)}?grant=${access.fileGrant(
        structureGrantResource(projectId, sha256),
        reader,
      )}`,
  }
  return context
}
