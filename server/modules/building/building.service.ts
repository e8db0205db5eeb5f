import { randomUUID } from 'node:crypto'
import { posix } from 'node:path'
import type { Readable } from 'node:stream'
import type { z } from 'zod'
import {
  type BuildingFloor,
  type BuildingModel,
  type BuildingModelRole,
  buildingModelFilesRoot,
  buildingStructureFilesRoot,
  type ConversionDatum,
  type createModelByCategoryBodySchema,
  convertedModelFilesRoot,
  defaultStoreyHeightMeters,
  type FloorUploadDatum,
  type ModelCountDatum,
  type ModelInfoDatum,
  type StructureUploadDatum,
  structureManifestMaxBytes,
  structureManifestSchema,
  type updateBimModelBodySchema,
  type updateFloorBodySchema,
  type updateModelInfoBodySchema,
} from '../../../contract/building'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { AppError, fieldError } from '../../http/app-error'
import { parseInput } from '../../http/define-route'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage } from '../../plugins/storage'
import { type Clock, timestampOf } from '../time/clock'
import { ConversionError, conversionRefusal } from '../convert/conversion-error'
import { textureBudget } from '../images/image-header'
import { createProjectsRepository } from '../projects/projects.repository'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { AuthUser } from '../accounts/users.service'
import {
  type BuildingFloorRow,
  type BuildingModelRow,
  type BuildingRepository,
  createBuildingRepository,
} from './building.repository'
import type { ConversionPool } from './conversion-pool'
import {
  type GrantReader,
  ownsOrAdministers,
  type ProjectAccess,
  signedInReader,
} from '../access/project-access'
import { displayNameOf, type InspectedSbm, inspectSbm, readAll } from './model-files'
import { sbmsOfUpload } from './uploaded-models'

/** A file a request brought, already in the file store (multipart part or claimed upload). */
export interface IncomingFile {
  fileName: string
  sha256: string
  sizeBytes: number
}

/** Who reads a file: a project caller, or the holder of a grant the server handed out. */
export type FileReader = ProjectCaller | { grant: string }

/** What serving a stored model file needs. */
export interface ServedModelFile {
  stream: Readable
  contentType: string
  sizeBytes: number | undefined
  /** Saved under this name (`Content-Disposition`), e.g. a conversion's source name. */
  downloadName?: string
}

type UpdateBimModelInput = z.output<typeof updateBimModelBodySchema>
type UpdateModelInfoInput = z.output<typeof updateModelInfoBodySchema>
type CreateByCategoryInput = z.output<typeof createModelByCategoryBodySchema>
type UpdateFloorInput = z.output<typeof updateFloorBodySchema>

/** Which converter a conversion upload goes to. */
export type ConversionKind = 'gltf' | 'daeOrFbx'

/**
 * A project's building models and floors (SPEC §2 model library, §5 model files, §7 uploads):
 * uploads checked before any row changes, rows written in one transaction after the bytes are
 * stored, and bytes removed once no row uses them.
 */
export interface BuildingService {
  /** The floor upload (`uploadZip`): many SBMs or one ZIP of SBMs. */
  uploadFloorModels(
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<FloorUploadDatum>
  /** The shell upload (`configModelFileStructureReturnUrl`): one structure manifest. */
  uploadStructure(
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<StructureUploadDatum>
  /** `uploadandupdatemodel`: a model's new SBM file. */
  replaceModelFile(user: AuthUser, modelId: string, files: IncomingFile[]): Promise<BuildingModel>
  updateModel(user: AuthUser, input: UpdateBimModelInput): Promise<BuildingModel>
  /** Renames a floor or sets its elevation (the scene stacks floors by it). */
  updateFloor(user: AuthUser, input: UpdateFloorInput): Promise<BuildingFloor>
  /** Refused once the project is paid (SPEC §4). */
  deleteModel(user: AuthUser, modelId: string): Promise<void>
  modelInfo(caller: ProjectCaller, projectId: string): Promise<ModelInfoDatum>
  createFromConverted(user: AuthUser, input: CreateByCategoryInput): Promise<BuildingModel>
  countModels(user: AuthUser, projectId: string): Promise<ModelCountDatum>
  updatePlacement(user: AuthUser, input: UpdateModelInfoInput): Promise<BuildingModel>
  /** Converts an upload to SBM in a worker thread; with a project, adds it to its library. */
  convert(
    user: AuthUser,
    input: {
      kind: ConversionKind
      files: IncomingFile[]
      projectId?: string | undefined
      categoryZipUuid?: string | undefined
    },
  ): Promise<ConversionDatum>
  openModelFile(reader: FileReader, modelId: string, sha256: string): Promise<ServedModelFile>
  openStructureFile(reader: FileReader, projectId: string, sha256: string): Promise<ServedModelFile>
  openConvertedFile(convertedId: string): Promise<ServedModelFile>
  /** Removes the bytes of these files unless a row still uses them. */
  releaseUnused(sha256s: readonly string[]): Promise<void>
  /** Waits for the byte clean-up scheduled by project deletes (tests, shutdown). */
  settleReleases(): Promise<void>
  /** Copies and deletes a project's models, floors and manifest with the project. */
  lifecycleHook: ProjectLifecycleHook
}

/** The address of a model's bytes; it changes with the file, so it can be cached forever. */
export function modelFileUrl(row: Pick<BuildingModelRow, 'id' | 'sha256'>): string {
  return `${buildingModelFilesRoot}${row.id}/${row.sha256}.sbm`
}

/** The address of a project's stored structure manifest. */
export function structureFileUrl(projectId: string, sha256: string): string {
  return `${buildingStructureFilesRoot}${projectId}/${sha256}.json`
}

/** The resource a model file's grant covers. */
function modelGrantResource(row: Pick<BuildingModelRow, 'id' | 'sha256'>): string {
  return `model:${row.id}:${row.sha256}`
}

/** The resource a structure manifest's grant covers. */
function structureGrantResource(projectId: string, sha256: string): string {
  return `structure:${projectId}:${sha256}`
}

/**
 * The API view of a model row; its URL carries the read grant `grantFor` makes (signed by
 * access/project-access.ts, bound to the reader's project token if any).
 */
export function toBuildingModel(
  row: BuildingModelRow,
  grantFor: (resource: string) => string,
): BuildingModel {
  const hasStoredBvh = row.has_stored_bvh === 1
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    file_name: row.file_name,
    role: row.role,
    floor_id: row.floor_id,
    url: `${modelFileUrl(row)}?grant=${grantFor(modelGrantResource(row))}`,
    size_bytes: Number(row.size_bytes),
    triangle_count: Number(row.triangle_count),
    has_stored_bvh: hasStoredBvh,
    preview_path: row.preview_path,
    model_load_hint: hasStoredBvh ? 'storedBvh' : 'buildBvh',
    placement: {
      position: [row.position_x, row.position_y, row.position_z],
      rotationDegrees: [row.rotation_x, row.rotation_y, row.rotation_z],
      scale: [row.scale_x, row.scale_y, row.scale_z],
    },
    is_visible: row.is_visible === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function toBuildingFloor(row: BuildingFloorRow): BuildingFloor {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    elevation: row.elevation,
    sort_order: row.sort_order,
    floor_key: row.floor_key,
  }
}

function extensionOf(fileName: string): string {
  return posix.extname(fileName).slice(1).toLowerCase()
}

function baseNameOf(fileName: string): string {
  const extension = posix.extname(fileName)
  return (extension ? fileName.slice(0, -extension.length) : fileName).slice(0, 100) || fileName
}

/** Builds the building service. */
export function createBuildingService(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  conversions: ConversionPool
  access: ProjectAccess
}): BuildingService {
  const { database, storage, clock, conversions, access } = dependencies
  const toModel = (row: BuildingModelRow, reader: GrantReader = signedInReader) =>
    toBuildingModel(row, (resource) => access.fileGrant(resource, reader))
  const { db } = database
  const repository = createBuildingRepository(db)
  const projectsOf = (handle: Database) => createProjectsRepository(handle, database.dialect)
  const now = () => timestampOf(clock.nowMs())
  let pendingReleases: Promise<void> = Promise.resolve()

  /** The project if the user may change it: `notFound` if none, `forbidden` if someone else's. */
  const loadOwnedProject = (user: AuthUser, projectId: string) =>
    access.requireEditable(user, projectId)

  /**
   * Inside a write transaction: locks the project row, so a concurrent delete of the project
   * runs wholly before or after the write, and checks the owner again.
   */
  const lockOwnedProject = (transaction: Database, user: AuthUser, projectId: string) =>
    access.lockEditable(transaction, user, projectId)

  /** The model and its project if the user may change it; another user's model is not found. */
  const loadOwnedModel = async (user: AuthUser, modelId: string) => {
    const model = await repository.findModel(modelId)
    if (!model) throw new AppError('notFound', 'model.notFound')
    const project = await loadOwnedProject(user, model.project_id)
    return { model, project }
  }

  const releaseUnused = async (sha256s: readonly string[]) => {
    for (const sha256 of new Set(sha256s)) {
      if (!(await repository.isContentUsed(sha256))) await storage.remove(sha256)
    }
  }

  /** Runs `write`; if it fails, bytes this request brought and no row uses go again. */
  const withCleanup = async <Result>(
    incoming: readonly string[],
    write: () => Promise<Result>,
  ): Promise<Result> => {
    try {
      return await write()
    } catch (error) {
      await releaseUnused(incoming)
      throw error
    }
  }

  const readStored = async (sha256: string) => readAll(await storage.open(sha256))

  const nextSortOrder = async (handle: BuildingRepository, projectId: string) => {
    const floors = await handle.listFloors(projectId)
    return floors.reduce((highest, floor) => Math.max(highest, floor.sort_order + 1), 0)
  }

  /** Creates or updates a floor by its manifest/SBM key; resolves to its id. */
  const upsertFloorByKey = async (
    handle: BuildingRepository,
    projectId: string,
    floor: { key: string; name: string; elevation: number; sortOrder?: number },
    timestamp: string,
  ): Promise<string> => {
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
  }

  const fileColumnsOf = (sbm: InspectedSbm, sha256: string) => ({
    sha256,
    size_bytes: sbm.bytes.byteLength,
    triangle_count: sbm.info.triangleCount,
    has_stored_bvh:
      sbm.info.meshCount > 0 && sbm.info.meshesWithStoredBvh === sbm.info.meshCount ? 1 : 0,
  })

  /**
   * The stored files of a floor or shell upload as checked SBMs: SBMs as they are, other model
   * formats converted, one ZIP opened first (see uploaded-models.ts).
   */
  const sbmsOfFiles = async (userId: string, files: IncomingFile[], role: 'shell' | 'floor') => {
    const uploaded = await Promise.all(
      files.map(async (file) => ({ path: file.fileName, bytes: await readStored(file.sha256) })),
    )
    return sbmsOfUpload(uploaded, { conversions, role, userId })
  }

  /** Where a floor made from a plain upload goes: one storey above the highest floor. */
  const nextElevation = async (handle: BuildingRepository, projectId: string) => {
    const floors = await handle.listFloors(projectId)
    if (floors.length === 0) return 0
    return Math.max(...floors.map((floor) => floor.elevation)) + defaultStoreyHeightMeters
  }

  const requireFiles = (files: IncomingFile[]) => {
    if (files.length === 0) {
      throw fieldError('validation', 'file', 'validation.required')
    }
  }

  const structureOf = async (
    handle: BuildingRepository,
    projectId: string,
    fallbackName: string,
  ): Promise<ModelInfoDatum['structure']> => {
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
  }

  const grantedStructureUrl = (
    projectId: string,
    sha256: string,
    reader: GrantReader = signedInReader,
  ) =>
    `${structureFileUrl(projectId, sha256)}?grant=${access.fileGrant(
      structureGrantResource(projectId, sha256),
      reader,
    )}`

  /** A grant for exactly this file, or a caller who may read the project. */
  const checkReader = async (reader: FileReader, projectId: string, resource: string) => {
    if ('grant' in reader) {
      if (!(await access.checkFileGrant(resource, reader.grant))) {
        throw new AppError('forbidden', 'file.grantRefused')
      }
      return
    }
    await access.requireReadable(reader, projectId)
  }

  const served = async (sha256: string, contentType: string): Promise<ServedModelFile> => ({
    stream: await storage.open(sha256),
    contentType,
    sizeBytes: await storage.sizeOf(sha256),
  })

  /**
   * The shell upload given a model instead of a structure manifest: it becomes the project's
   * shell (converted first when it is not an SBM); a shell before it stays as a plain model.
   */
  const uploadShellModel = async (
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<StructureUploadDatum> => {
    const project = await loadOwnedProject(user, projectId)
    const sbms = await sbmsOfFiles(user.id, files, 'shell')
    if (sbms.length !== 1) {
      throw new AppError(
        'validation',
        'building.oneShellModel',
        {},
        {
          details: [{ field: 'file', message: 'Exactly one model' }],
        },
      )
    }
    const sbm = sbms[0]!
    const stored = await storage.put(sbm.bytes)
    let replaced: string | undefined
    let shellId = ''
    try {
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, projectId)
        const handle = createBuildingRepository(transaction)
        const timestamp = now()
        for (const model of await handle.listModels(projectId)) {
          if (model.role === 'shell' && model.file_name !== sbm.fileName) {
            await handle.updateModel(model.id, { role: 'model', updated_at: timestamp })
          }
        }
        const columns = fileColumnsOf(sbm, stored.sha256)
        const existing = await handle.findModelByFileName(projectId, sbm.fileName)
        if (existing) {
          if (existing.sha256 !== stored.sha256) replaced = existing.sha256
          shellId = existing.id
          await handle.updateModel(existing.id, {
            ...columns,
            role: 'shell',
            floor_id: null,
            updated_at: timestamp,
          })
          return
        }
        shellId = randomUUID()
        await handle.insertModel({
          id: shellId,
          project_id: projectId,
          name: baseNameOf(sbm.fileName),
          file_name: sbm.fileName,
          role: 'shell',
          floor_id: null,
          ...columns,
          preview_path: null,
          created_at: timestamp,
          updated_at: timestamp,
        })
      })
    } catch (error) {
      await releaseUnused([stored.sha256])
      throw error
    }
    await releaseUnused([...files.map((file) => file.sha256), ...(replaced ? [replaced] : [])])
    const shell = await repository.findModel(shellId)
    return {
      url: shell ? toModel(shell).url : '',
      structure: await structureOf(repository, projectId, project.name),
      missingModels: [],
    }
  }

  const service: BuildingService = {
    async uploadFloorModels(user, projectId, files) {
      const incoming = files.map((file) => file.sha256)
      return withCleanup(incoming, async () => {
        await loadOwnedProject(user, projectId)
        requireFiles(files)
        const sbms = await sbmsOfFiles(user.id, files, 'floor')
        // converted models and ZIP entries are stored one by one (an SBM part stores as itself)
        const stored: string[] = []
        for (const sbm of sbms) {
          const put = await storage.put(sbm.bytes)
          incoming.push(put.sha256)
          stored.push(put.sha256)
        }
        const replaced: string[] = []
        const changedModelIds: string[] = []
        await db.transaction().execute(async (transaction) => {
          await lockOwnedProject(transaction, user, projectId)
          const handle = createBuildingRepository(transaction)
          const timestamp = now()
          for (const [index, sbm] of sbms.entries()) {
            let floorId: string | null = null
            for (const floor of sbm.info.floors) {
              const id = await upsertFloorByKey(
                handle,
                projectId,
                { key: floor.id, name: floor.name, elevation: floor.elevationMeters },
                timestamp,
              )
              floorId ??= id
            }
            const role: BuildingModelRole = sbm.info.role === 'shell' ? 'shell' : 'floor'
            const columns = fileColumnsOf(sbm, stored[index]!)
            const existing = await handle.findModelByFileName(projectId, sbm.fileName)
            if (existing) {
              if (existing.sha256 !== columns.sha256) replaced.push(existing.sha256)
              // a new file for a model keeps the role the structure gave it
              await handle.updateModel(existing.id, {
                ...columns,
                ...(floorId === null ? {} : { floor_id: floorId }),
                updated_at: timestamp,
              })
              changedModelIds.push(existing.id)
              continue
            }
            if (floorId === null && role === 'floor') {
              floorId = randomUUID()
              await handle.insertFloor({
                id: floorId,
                project_id: projectId,
                name: baseNameOf(sbm.fileName),
                // stacked, so plain models dropped together do not overlap; the UI can change it
                elevation: await nextElevation(handle, projectId),
                sort_order: await nextSortOrder(handle, projectId),
                floor_key: null,
                created_at: timestamp,
                updated_at: timestamp,
              })
            }
            const id = randomUUID()
            await handle.insertModel({
              id,
              project_id: projectId,
              name: baseNameOf(sbm.fileName),
              file_name: sbm.fileName,
              role,
              floor_id: floorId,
              ...columns,
              preview_path: null,
              created_at: timestamp,
              updated_at: timestamp,
            })
            changedModelIds.push(id)
          }
        })
        // the ZIP itself (if any) and replaced files are no longer used by anything
        await releaseUnused([...incoming, ...replaced])
        const models = await repository.listModels(projectId)
        return {
          models: changedModelIds.flatMap((id) => {
            const row = models.find((model) => model.id === id)
            return row ? [toModel(row)] : []
          }),
          floors: (await repository.listFloors(projectId)).map(toBuildingFloor),
        }
      })
    },

    async uploadStructure(user, projectId, files) {
      return withCleanup(
        files.map((file) => file.sha256),
        async () => {
          const project = await loadOwnedProject(user, projectId)
          requireFiles(files)
          const isManifest = files.some((file) => extensionOf(file.fileName) === 'json')
          if (!isManifest) return uploadShellModel(user, projectId, files)
          if (files.length > 1) {
            throw new AppError(
              'validation',
              'building.oneShellModel',
              {},
              {
                details: [{ field: 'file', message: 'Exactly one file' }],
              },
            )
          }
          const file = files[0]!
          const name = displayNameOf(file.fileName)
          if (extensionOf(name) !== 'json') return uploadShellModel(user, projectId, files)
          if (file.sizeBytes > structureManifestMaxBytes) {
            throw new AppError('tooLarge', 'model.structureTooLarge')
          }
          const text = new TextDecoder()
            .decode(await readStored(file.sha256))
            .replace(/^\uFEFF/, '')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch (error) {
            throw new AppError(
              'validation',
              'model.structureInvalidJson',
              { name },
              {
                details: [{ field: 'file', message: 'Not valid JSON' }],
                englishText: `${name} is not valid JSON: ${(error as Error).message}`,
              },
            )
          }
          const manifest = parseInput(structureManifestSchema, json)
          const floorIds = manifest.floors.map((floor) => floor.id)
          const repeated = floorIds.find((id, index) => floorIds.indexOf(id) !== index)
          if (repeated !== undefined) {
            throw fieldError('validation', 'floors', 'model.floorIdTwice', { floorId: repeated })
          }
          const url = structureFileUrl(projectId, file.sha256)
          const missing = new Set<string>()
          let replaced: string | undefined
          await db.transaction().execute(async (transaction) => {
            await lockOwnedProject(transaction, user, projectId)
            const handle = createBuildingRepository(transaction)
            const timestamp = now()
            replaced = await handle.saveStructure({
              project_id: projectId,
              sha256: file.sha256,
              name: manifest.name,
              manifest_json: JSON.stringify(manifest),
              created_at: timestamp,
              updated_at: timestamp,
            })
            const link = async (
              fileName: string,
              changes: { role: BuildingModelRole; floor_id: string | null },
            ) => {
              const model = await handle.findModelByFileName(projectId, fileName)
              if (!model) {
                missing.add(fileName)
                return
              }
              await handle.updateModel(model.id, { ...changes, updated_at: timestamp })
            }
            for (const [index, floor] of manifest.floors.entries()) {
              const floorId = await upsertFloorByKey(
                handle,
                projectId,
                { key: floor.id, name: floor.name, elevation: floor.elevation, sortOrder: index },
                timestamp,
              )
              if (floor.model) await link(floor.model, { role: 'floor', floor_id: floorId })
            }
            if (manifest.shell) {
              const shell = await handle.findModelByFileName(projectId, manifest.shell.model)
              if (!shell) missing.add(manifest.shell.model)
              // a shell that is also a floor's model keeps its floor
              else await handle.updateModel(shell.id, { role: 'shell', updated_at: timestamp })
            }
            await projectsOf(transaction).update(projectId, {
              shell_json_path: url,
              updated_at: timestamp,
            })
          })
          if (replaced !== undefined && replaced !== file.sha256) await releaseUnused([replaced])
          return {
            url: grantedStructureUrl(projectId, file.sha256),
            structure: await structureOf(repository, projectId, project.name),
            missingModels: [...missing],
          }
        },
      )
    },

    async replaceModelFile(user, modelId, files) {
      return withCleanup(
        files.map((file) => file.sha256),
        async () => {
          const { model } = await loadOwnedModel(user, modelId)
          requireFiles(files)
          if (files.length > 1) {
            throw fieldError('validation', 'file', 'model.oneSbmToReplace')
          }
          const file = files[0]!
          const name = displayNameOf(file.fileName)
          const sbm = inspectSbm(name, await readStored(file.sha256))
          if (extensionOf(name) !== 'sbm') {
            throw new AppError(
              'unsupportedFile',
              'model.notValidSbm',
              {},
              { details: [{ file: name, reason: 'the file name does not end in .sbm' }] },
            )
          }
          await db.transaction().execute(async (transaction) => {
            await lockOwnedProject(transaction, user, model.project_id)
            const handle = createBuildingRepository(transaction)
            if (!(await handle.findModel(model.id)))
              throw new AppError('notFound', 'model.notFound')
            await handle.updateModel(model.id, {
              ...fileColumnsOf(sbm, file.sha256),
              updated_at: now(),
            })
          })
          if (model.sha256 !== file.sha256) await releaseUnused([model.sha256])
          return toModel((await repository.findModel(model.id))!)
        },
      )
    },

    async updateModel(user, input) {
      const { model } = await loadOwnedModel(user, input.id)
      if (input.floor_id) {
        const floor = await repository.findFloor(input.floor_id)
        if (!floor || floor.project_id !== model.project_id) {
          throw fieldError('validation', 'floor_id', 'model.noSuchFloor')
        }
      }
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, model.project_id)
        await createBuildingRepository(transaction).updateModel(model.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.role === undefined ? {} : { role: input.role }),
          ...(input.floor_id === undefined ? {} : { floor_id: input.floor_id }),
          updated_at: now(),
        })
      })
      const row = await repository.findModel(model.id)
      if (!row) throw new AppError('notFound', 'model.notFound')
      return toModel(row)
    },

    async updateFloor(user, input) {
      const floor = await repository.findFloor(input.id)
      if (!floor) throw new AppError('notFound', 'building.floorNotFound')
      await loadOwnedProject(user, floor.project_id)
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, floor.project_id)
        await createBuildingRepository(transaction).updateFloor(floor.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.elevation === undefined ? {} : { elevation: input.elevation }),
          updated_at: now(),
        })
      })
      const row = await repository.findFloor(floor.id)
      if (!row) throw new AppError('notFound', 'building.floorNotFound')
      return toBuildingFloor(row)
    },

    async deleteModel(user, modelId) {
      const { model, project } = await loadOwnedModel(user, modelId)
      const refusePaid = () => {
        // forbidden, not paymentRequired: paying would not unlock it; the project is paid already
        throw new AppError('forbidden', 'model.paidProject')
      }
      if (project.is_paid === 1) refusePaid()
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, model.project_id)
        const current = await projectsOf(transaction).findById(model.project_id)
        if (current?.is_paid === 1) refusePaid()
        await createBuildingRepository(transaction).deleteModel(model.id)
      })
      await releaseUnused([model.sha256])
    },

    async modelInfo(caller, projectId) {
      const reader = await access.requireReadable(caller, projectId)
      const project = reader.record
      const models = await repository.listModels(projectId)
      const structure = await repository.findStructure(projectId)
      // the stored manifest, readable by a plain fetch like the models
      const shellJsonPath = structure
        ? grantedStructureUrl(projectId, structure.sha256, reader)
        : project.shell_json_path
      return {
        structure: await structureOf(repository, projectId, project.name),
        models: models.map((row) => toModel(row, reader)),
        shell_json_path: shellJsonPath,
      }
    },

    async createFromConverted(user, input) {
      await loadOwnedProject(user, input.project_id)
      const converted = await repository.findConverted(input.sbm_uuid)
      if (!converted || !ownsOrAdministers(user, converted.owner_id)) {
        throw fieldError('validation', 'sbm_uuid', 'model.noSuchConverted')
      }
      if (input.floor_id !== undefined) {
        const floor = await repository.findFloor(input.floor_id)
        if (!floor || floor.project_id !== input.project_id) {
          throw fieldError('validation', 'floor_id', 'model.noSuchFloor')
        }
      }
      const id = randomUUID()
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, input.project_id)
        const timestamp = now()
        await createBuildingRepository(transaction).insertModel({
          id,
          project_id: input.project_id,
          name: input.name ?? baseNameOf(converted.source_name),
          file_name: `${baseNameOf(converted.source_name)}.sbm`,
          role: input.role,
          floor_id: input.floor_id ?? null,
          sha256: converted.sha256,
          size_bytes: converted.size_bytes,
          triangle_count: converted.triangle_count,
          has_stored_bvh: converted.has_stored_bvh,
          preview_path: null,
          created_at: timestamp,
          updated_at: timestamp,
        })
      })
      return toModel((await repository.findModel(id))!)
    },

    async countModels(user, projectId) {
      await loadOwnedProject(user, projectId)
      const counts = await repository.countModels(projectId)
      return { count: counts.shell + counts.floor + counts.model, ...counts }
    },

    async updatePlacement(user, input) {
      const { model } = await loadOwnedModel(user, input.id)
      const [positionX, positionY, positionZ] = input.position ?? []
      const [rotationX, rotationY, rotationZ] = input.rotationDegrees ?? []
      const [scaleX, scaleY, scaleZ] = input.scale ?? []
      await db.transaction().execute(async (transaction) => {
        await lockOwnedProject(transaction, user, model.project_id)
        await createBuildingRepository(transaction).updateModel(model.id, {
          ...(input.position
            ? { position_x: positionX, position_y: positionY, position_z: positionZ }
            : {}),
          ...(input.rotationDegrees
            ? { rotation_x: rotationX, rotation_y: rotationY, rotation_z: rotationZ }
            : {}),
          ...(input.scale ? { scale_x: scaleX, scale_y: scaleY, scale_z: scaleZ } : {}),
          ...(input.is_visible === undefined ? {} : { is_visible: input.is_visible ? 1 : 0 }),
          updated_at: now(),
        })
      })
      const row = await repository.findModel(model.id)
      if (!row) throw new AppError('notFound', 'model.notFound')
      return toModel(row)
    },

    async convert(user, input) {
      const sources = input.files.map((file) => file.sha256)
      try {
        if (input.projectId !== undefined) await loadOwnedProject(user, input.projectId)
        requireFiles(input.files)
        const named = input.files.map((file) => ({ ...file, name: displayNameOf(file.fileName) }))
        let entry: (typeof named)[number]
        if (input.kind === 'gltf') {
          const mains = named.filter((file) => ['glb', 'gltf'].includes(extensionOf(file.name)))
          if (mains.length !== 1) {
            throw fieldError('validation', 'glbf_arr', 'model.oneGltf')
          }
          entry = mains[0]!
        } else {
          if (named.length !== 1) {
            throw fieldError('validation', 'file', 'model.oneDaeOrFbx')
          }
          entry = named[0]!
          if (!['dae', 'fbx'].includes(extensionOf(entry.name))) {
            throw new AppError(
              'unsupportedFile',
              'model.onlyDaeOrFbx',
              {},
              { details: [{ file: entry.name, reason: 'not .dae or .fbx' }] },
            )
          }
        }
        const paths = named.map((file) => file.name)
        const repeated = paths.find((path, index) => paths.indexOf(path) !== index)
        if (repeated !== undefined) {
          throw fieldError('validation', 'glbf_arr', 'model.duplicateFile', { name: repeated })
        }
        const files = await Promise.all(
          named.map(async (file) => ({ path: file.name, bytes: await readStored(file.sha256) })),
        )
        let conversion: Awaited<ReturnType<ConversionPool['convert']>>
        try {
          conversion = await conversions.convertForUser(user.id, {
            entryPath: entry.name,
            files,
            role: 'model',
            // one DAE/FBX file is all this upload takes, so textures beside it cannot come along
            allowMissingTextures: input.kind === 'daeOrFbx',
          })
        } catch (error) {
          if (error instanceof ConversionError && error.reason === 'oversizedTextures') {
            throw new AppError(
              'tooLarge',
              'convert.oversizedTextures',
              { maxSide: textureBudget.maxSidePixels, names: error.names.join(', ') },
              { details: [{ file: entry.name, reason: error.code, names: error.names }] },
            )
          }
          if (error instanceof ConversionError) {
            throw conversionRefusal(error, entry.name)
          }
          throw error
        }
        const info = describeSbm(conversion.sbm)
        const stored = await storage.put(conversion.sbm)
        const convertedId = randomUUID()
        const modelId = randomUUID()
        try {
          await db.transaction().execute(async (transaction) => {
            const handle = createBuildingRepository(transaction)
            const timestamp = now()
            const fileColumns = {
              sha256: stored.sha256,
              size_bytes: stored.sizeBytes,
              triangle_count: info.triangleCount,
              has_stored_bvh:
                info.meshCount > 0 && info.meshesWithStoredBvh === info.meshCount ? 1 : 0,
            }
            await handle.insertConverted({
              id: convertedId,
              owner_id: user.id,
              source_name: entry.name,
              source_format: conversion.summary.sourceFormat,
              category_zip_uuid: input.categoryZipUuid ?? null,
              ...fileColumns,
              created_at: timestamp,
            })
            if (input.projectId !== undefined) {
              await lockOwnedProject(transaction, user, input.projectId)
              await handle.insertModel({
                id: modelId,
                project_id: input.projectId,
                name: baseNameOf(entry.name),
                file_name: `${baseNameOf(entry.name)}.sbm`,
                role: 'model',
                floor_id: null,
                ...fileColumns,
                preview_path: null,
                created_at: timestamp,
                updated_at: timestamp,
              })
            }
          })
        } catch (error) {
          await releaseUnused([stored.sha256])
          throw error
        }
        const model =
          input.projectId === undefined ? undefined : await repository.findModel(modelId)
        return {
          uuid: convertedId,
          rootPath: convertedModelFilesRoot,
          sbmName: `${convertedId}.sbm`,
          downloadName: `${baseNameOf(entry.name)}.sbm`,
          sizeBytes: stored.sizeBytes,
          triangleCount: info.triangleCount,
          warnings: conversion.summary.warnings,
          model: model ? toModel(model) : null,
        }
      } finally {
        // the sources are only the converter's input; the SBM is what is kept
        await releaseUnused(sources)
      }
    },

    async openModelFile(reader, modelId, sha256) {
      const model = await repository.findModel(modelId)
      if (!model || model.sha256 !== sha256) throw new AppError('notFound', 'file.notFound')
      await checkReader(reader, model.project_id, modelGrantResource(model))
      return served(model.sha256, 'model/gltf-binary')
    },

    async openStructureFile(reader, projectId, sha256) {
      const structure = await repository.findStructure(projectId)
      if (!structure || structure.sha256 !== sha256) {
        throw new AppError('notFound', 'file.notFound')
      }
      await checkReader(reader, projectId, structureGrantResource(projectId, sha256))
      return served(structure.sha256, 'application/json')
    },

    async openConvertedFile(convertedId) {
      const converted = await repository.findConverted(convertedId)
      if (!converted) throw new AppError('notFound', 'file.notFound')
      return {
        ...(await served(converted.sha256, 'model/gltf-binary')),
        downloadName: `${baseNameOf(converted.source_name)}.sbm`,
      }
    },

    releaseUnused,

    settleReleases: () => pendingReleases,

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        const handle = createBuildingRepository(transaction)
        const timestamp = now()
        const floorIds = new Map<string, string>()
        for (const floor of await handle.listFloors(fromProjectId)) {
          const id = randomUUID()
          floorIds.set(floor.id, id)
          await handle.insertFloor({
            ...floor,
            id,
            project_id: toProjectId,
            created_at: timestamp,
            updated_at: timestamp,
          })
        }
        // the copies share the bytes: each row counts as a reference to its sha256
        for (const model of await handle.listModels(fromProjectId)) {
          await handle.insertModel({
            ...model,
            id: randomUUID(),
            project_id: toProjectId,
            floor_id: model.floor_id === null ? null : (floorIds.get(model.floor_id) ?? null),
            created_at: timestamp,
            updated_at: timestamp,
          })
        }
        const structure = await handle.findStructure(fromProjectId)
        if (structure) {
          await handle.saveStructure({
            ...structure,
            project_id: toProjectId,
            created_at: timestamp,
            updated_at: timestamp,
          })
          await projectsOf(transaction).update(toProjectId, {
            shell_json_path: structureFileUrl(toProjectId, structure.sha256),
          })
        }
      },
      async onDelete(transaction, projectId) {
        const sha256s = await createBuildingRepository(transaction).deleteProjectRows(projectId)
        if (sha256s.length === 0) return
        // The hook runs inside the delete's transaction and the bytes may go only after it
        // commits. The check re-reads the rows: on SQLite it waits for the transaction's
        // connection; if the delete rolled back, the rows are there and the bytes stay.
        pendingReleases = pendingReleases.then(
          () =>
            new Promise<void>((resolve) => {
              setTimeout(() => {
                releaseUnused(sha256s).then(resolve, resolve)
              }, 20).unref()
            }),
        )
      },
    },
  }
  return service
}
