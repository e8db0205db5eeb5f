import { randomUUID } from 'node:crypto'
import { posix } from 'node:path'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import {
  type CityModel,
  cityModelFilesRoot,
  maxCityModelsPerProject,
  type updateCityModelBodySchema,
  type uploadCityModelBodySchema,
} from '../../../contract/city-models'
import { AppError, fieldError } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import type { CityModelsTable } from '../../migrations/0028-city-models'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage, ServedStoredFile } from '../../plugins/storage'
import type { GrantReader, ProjectAccess } from '../access/project-access'
import { signedInReader } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { createBuildingRepository } from '../building/building.repository'
import { displayNameOf, inspectSbm, readAll } from '../building/model-files'
import { loadModelCodecs } from '../convert/codecs'
import { ConversionError } from '../convert/conversion-error'
import { readGltfSource } from '../convert/gltf-source'
import { modelInputFromFiles } from '../convert/model-input'
import { pixelBudgetProblem, readImageHeader, textureBudget } from '../images/image-header'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'

type CityModelRow = Selectable<CityModelsTable>
type UploadInput = z.output<typeof uploadCityModelBodySchema>
type UpdateInput = z.output<typeof updateCityModelBodySchema>

/** Who reads a model file: a grant from `findAll`, or a caller who may read the project. */
export type CityModelFileReader = { grant: string } | ProjectCaller

/** The model library of city and building projects (contract/city-models.ts). */
export interface CityModelsService {
  upload(user: AuthUser, input: UploadInput, files: readonly UploadedFile[]): Promise<CityModel>
  list(caller: ProjectCaller | null, projectId: string | undefined): Promise<CityModel[]>
  update(user: AuthUser, input: UpdateInput): Promise<CityModel>
  remove(user: AuthUser, id: string): Promise<void>
  /** A model's bytes for `GET /web/cityModel/files/:id/:sha256.glb`. */
  openFile(reader: CityModelFileReader, id: string, sha256: string): Promise<ServedStoredFile>
  lifecycleHook: ProjectLifecycleHook
}

/**
 * Where a new model stands: on the map in a city project (longitude and latitude are needed
 * there), at scene metres in a building project; the other kind's columns stay 0.
 */
function placeOf(
  kind: string,
  input: UploadInput,
): Pick<CityModelRow, 'lng' | 'lat' | 'height' | 'x' | 'y' | 'z'> {
  if (kind !== 'city') return { lng: 0, lat: 0, height: 0, x: input.x, y: input.y, z: input.z }
  if (input.lng === undefined || input.lat === undefined) {
    throw fieldError('validation', input.lng === undefined ? 'lng' : 'lat', 'cityModel.placeOnMap')
  }
  return { lng: input.lng, lat: input.lat, height: input.height, x: 0, y: 0, z: 0 }
}

/** The resource a model file's grant covers. */
function grantResource(row: Pick<CityModelRow, 'id' | 'sha256'>): string {
  return `cityModel:${row.id}:${row.sha256}`
}

/** A refusal of the uploaded model, naming the file and why. */
function unreadable(file: string, reason: string): AppError {
  return new AppError(
    'unsupportedFile',
    'cityModel.unreadable',
    { file },
    { details: [{ file, reason }], englishText: `${file} could not be read: ${reason}` },
  )
}

/**
 * Builds the service. SQL for `city_models` lives here. Uploads are checked in full before a
 * row is written: one main file (.glb, .sbm, or .gltf whose .bin and images came with it), read
 * by glTF-Transform (a .gltf is packed into one GLB), every embedded image within the texture
 * budget. Files the request stored and no row uses are removed again, whatever the outcome.
 */
export function createCityModelsService(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
}): CityModelsService {
  const { database, storage, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const toDatum = (row: CityModelRow, reader: GrantReader = signedInReader): CityModel => ({
    id: row.id,
    project_id: row.project_id,
    model_name: row.model_name,
    file_name: row.file_name,
    format: row.format === 'sbm' ? 'sbm' : 'glb',
    url: `${cityModelFilesRoot}${row.id}/${row.sha256}.glb?grant=${access.fileGrant(
      grantResource(row),
      reader,
    )}`,
    size_bytes: Number(row.size_bytes),
    animation_count: row.animation_count,
    lng: row.lng,
    lat: row.lat,
    height: row.height,
    x: row.x,
    y: row.y,
    z: row.z,
    heading: row.heading,
    scale: row.scale,
    animation_clip: row.animation_clip,
    animation_speed: row.animation_speed,
    animation_loop: row.animation_loop === 1,
    animation_autoplay: row.animation_autoplay === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })

  const listRows = (handle: Database, projectId: string) =>
    handle
      .selectFrom('city_models')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()

  /** Bytes nothing names any more (this table, the building's, uploads) leave the store. */
  const releaseUnused = async (sha256s: Iterable<string>) => {
    const building = createBuildingRepository(db)
    for (const sha256 of new Set(sha256s)) {
      const row = await db
        .selectFrom('city_models')
        .select('id')
        .where('sha256', '=', sha256)
        .executeTakeFirst()
      if (!row && !(await building.isContentUsed(sha256))) await storage.remove(sha256)
    }
  }

  const loadEditable = async (user: AuthUser, id: string) => {
    const row = await db
      .selectFrom('city_models')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row) throw new AppError('notFound', 'cityModel.notFound')
    await access.requireEditable(user, row.project_id)
    return row
  }

  /** The model the upload holds, checked, as the bytes to keep and what they carry. */
  const readModel = async (files: readonly UploadedFile[]) => {
    const names = files.map((file) => displayNameOf(file.fileName))
    const mains = names.filter((name) => /\.(glb|gltf|sbm)$/i.test(name))
    if (mains.length !== 1) {
      throw fieldError('validation', 'file', 'cityModel.oneModel', { count: mains.length })
    }
    const fileName = mains[0]!
    const extension = posix.extname(fileName).toLowerCase()
    if (extension !== '.gltf' && files.length > 1) {
      throw fieldError('validation', 'file', 'cityModel.oneModel', { count: files.length })
    }
    const bytesByName = new Map<string, Uint8Array>()
    for (const [index, file] of files.entries()) {
      bytesByName.set(names[index]!, await readAll(await storage.open(file.sha256)))
    }
    const bytes = bytesByName.get(fileName)!
    if (extension === '.sbm') {
      inspectSbm(fileName, bytes)
      return { fileName, format: 'sbm' as const, bytes, animationCount: 0 }
    }
    const codecs = await loadModelCodecs()
    let document: Awaited<ReturnType<typeof readGltfSource>>['document']
    try {
      ;({ document } = await readGltfSource(modelInputFromFiles(fileName, bytesByName), codecs, {}))
    } catch (error) {
      if (error instanceof ConversionError) throw unreadable(fileName, error.message)
      throw error
    }
    for (const texture of document.getRoot().listTextures()) {
      const image = texture.getImage()
      const header = image ? readImageHeader(image) : null
      const problem = header ? pixelBudgetProblem(header, textureBudget) : 'it is not an image'
      if (problem) throw unreadable(fileName, `texture '${texture.getName()}': ${problem}`)
    }
    return {
      fileName,
      format: 'glb' as const,
      // a GLB is kept as it came; a .gltf and its parts become one GLB
      bytes: extension === '.glb' ? bytes : await codecs.io.writeBinary(document),
      animationCount: document.getRoot().listAnimations().length,
    }
  }

  return {
    async upload(user, input, files) {
      let storedSha256: string | null = null
      try {
        const project = await access.requireEditable(user, input.project_id)
        const place = placeOf(project.kind, input)
        const model = await readModel(files)
        const stored = await storage.put(model.bytes)
        storedSha256 = stored.sha256
        const timestamp = now()
        const row: CityModelRow = {
          id: randomUUID(),
          project_id: input.project_id,
          model_name: input.model_name ?? model.fileName.replace(/\.(glb|gltf|sbm)$/i, ''),
          file_name: model.fileName,
          format: model.format,
          sha256: stored.sha256,
          size_bytes: stored.sizeBytes,
          animation_count: model.animationCount,
          ...place,
          heading: input.heading,
          scale: input.scale,
          animation_clip: 0,
          animation_speed: 1,
          animation_loop: 1,
          animation_autoplay: model.animationCount > 0 ? 1 : 0,
          created_at: timestamp,
          updated_at: timestamp,
        }
        await db.transaction().execute(async (transaction) => {
          // the lock keeps a delete of the project from running between the count and the insert
          await access.lockEditable(transaction, user, input.project_id)
          const count = await transaction
            .selectFrom('city_models')
            .select((builder) => builder.fn.countAll().as('count'))
            .where('project_id', '=', input.project_id)
            .executeTakeFirstOrThrow()
          if (Number(count.count) >= maxCityModelsPerProject) {
            throw new AppError('conflict', 'cityModel.tooMany', {
              maximum: maxCityModelsPerProject,
            })
          }
          await transaction.insertInto('city_models').values(row).execute()
        })
        return toDatum(row)
      } finally {
        // the parts of a .gltf, and everything of a refused upload, unless a row names them
        await releaseUnused([
          ...files.map((file) => file.sha256),
          ...(storedSha256 ? [storedSha256] : []),
        ])
      }
    },

    async list(caller, projectId) {
      const readable = await access.resolveReadable(caller, projectId)
      return (await listRows(db, readable.record.id)).map((row) => toDatum(row, readable))
    },

    async update(user, input) {
      const row = await loadEditable(user, input.id)
      if (
        input.animation_clip !== undefined &&
        input.animation_clip > 0 &&
        input.animation_clip >= row.animation_count
      ) {
        throw fieldError('validation', 'animation_clip', 'cityModel.noSuchAnimation', {
          count: row.animation_count,
        })
      }
      // the body's names are the columns'; the two flags are stored as 0/1
      const { id: _id, animation_loop: loop, animation_autoplay: autoplay, ...values } = input
      const changes: Partial<CityModelRow> = {
        ...(Object.fromEntries(
          Object.entries(values).filter(([, value]) => value !== undefined),
        ) as Partial<CityModelRow>),
        ...(loop === undefined ? {} : { animation_loop: loop ? 1 : 0 }),
        ...(autoplay === undefined ? {} : { animation_autoplay: autoplay ? 1 : 0 }),
        updated_at: now(),
      }
      await db.updateTable('city_models').set(changes).where('id', '=', row.id).execute()
      return toDatum({ ...row, ...changes })
    },

    async remove(user, id) {
      const row = await loadEditable(user, id)
      await db.deleteFrom('city_models').where('id', '=', row.id).execute()
      await releaseUnused([row.sha256])
    },

    async openFile(reader, id, sha256) {
      const row = await db
        .selectFrom('city_models')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row || row.sha256 !== sha256) throw new AppError('notFound', 'file.notFound')
      if ('grant' in reader) {
        if (!(await access.checkFileGrant(grantResource(row), reader.grant))) {
          throw new AppError('forbidden', 'file.grantRefused')
        }
      } else {
        await access.requireReadable(reader, row.project_id)
      }
      return { sha256, contentType: 'model/gltf-binary' }
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        for (const row of await listRows(transaction, fromProjectId)) {
          await transaction
            .insertInto('city_models')
            .values({ ...row, id: randomUUID(), project_id: toProjectId })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        const rows = await listRows(transaction, projectId)
        await transaction.deleteFrom('city_models').where('project_id', '=', projectId).execute()
        return () => {
          void releaseUnused(rows.map((row) => row.sha256)).catch(() => {})
        }
      },
    },
  }
}
