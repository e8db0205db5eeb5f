import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { maxTopTiles, type TilesetStats } from '../../../contract/city'
import { projectDefaults } from '../../../contract/project'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import type { DatabaseHandle } from '../../plugins/db'
import type { FileStorage, NamedFiles } from '../../plugins/storage'
import { createBuildingRepository } from '../building/building.repository'
import { structureFileUrl } from '../building/building-views'
import { type Clock, timestampOf } from '../time/clock'
import { type ProjectCaseTexts, projectCaseTexts } from './project-case-texts'
import { createProjectsRepository } from './projects.repository'
import { projectFileHolder } from './projects.service'
import { parseTilesetJson, summarizeTileset } from '../tilesets/tileset-json'
import { createTilesetsRepository } from '../tilesets/tilesets.repository'
import { createUploadsRepository } from './uploads.repository'
import type { UsersRepository } from '../accounts/users.repository'

/** One official example project and the files it opens (public/cases/README.md). */
interface ProjectCase extends ProjectCaseTexts {
  kind: 'city' | 'building'
  center: { lng: number; lat: number }
  shellJsonPath: string
  coverFile: string
  /** A city case's tileset: its name and files (the root JSON first) in public/cases/city. */
  tileset?: { name: string; files: readonly string[] }
}

/** The seeded cases: a 3D Tiles city scene and a building with an SBM shell. */
export const projectCases: readonly ProjectCase[] = [
  {
    kind: 'city',
    ...projectCaseTexts.dragon,
    center: { lng: -75.61209, lat: 40.04253 },
    shellJsonPath: '/cases/city/scene.json',
    coverFile: 'city-cover.png',
    tileset: {
      name: 'Dragon',
      files: ['tileset.json', 'dragon_low.b3dm', 'dragon_medium.b3dm'],
    },
  },
  {
    kind: 'building',
    ...projectCaseTexts.house,
    center: { lng: 126.978408, lat: 37.566653 },
    shellJsonPath: '/cases/building/shell.json',
    coverFile: 'building-cover.png',
  },
]

const coversFolder = new URL('../../resources/cases/', import.meta.url)
const buildingCaseFolder = new URL('../../../public/cases/building/', import.meta.url)
const cityCaseFolder = new URL('../../../public/cases/city/', import.meta.url)

/**
 * Puts a city case's tileset into the store's tileset files as an upload would (a version
 * folder of its files, read once the case's row names it), and answers the row's content
 * columns.
 */
async function storeCaseTileset(
  tileset: NonNullable<ProjectCase['tileset']>,
  tilesetFiles: NamedFiles,
) {
  const versionId = randomUUID()
  const formats: Record<string, number> = {}
  let totalBytes = 0
  try {
    for (const file of tileset.files) {
      const bytes = await readFile(new URL(file, cityCaseFolder))
      await tilesetFiles.write(`${versionId}/${file}`, bytes)
      totalBytes += bytes.byteLength
      const format = file.split('.').pop() ?? 'other'
      formats[format] = (formats[format] ?? 0) + 1
    }
  } catch (error) {
    await tilesetFiles.removeFolder(versionId).catch(() => undefined)
    throw error
  }
  const rootPath = tileset.files[0]!
  const rootBytes = await readFile(new URL(rootPath, cityCaseFolder))
  const summary = summarizeTileset(parseTilesetJson(rootBytes, rootPath), maxTopTiles)
  const stats: TilesetStats = {
    file_count: tileset.files.length,
    tile_count: tileset.files.length - (formats.json ?? 0),
    total_bytes: totalBytes,
    formats,
    gzip_file_count: 0,
  }
  return {
    version_id: versionId,
    root_path: rootPath,
    asset_version: summary.assetVersion,
    is_georeferenced: summary.isGeoreferenced ? 1 : 0,
    stats_json: JSON.stringify(stats),
    top_tiles_json: JSON.stringify(summary.topTiles),
    warnings_json: '[]',
    file_name: null,
  }
}

/**
 * The building case's shell model and structure manifest, stored like an editor's upload so the
 * case opens through the same model library and engine path as every building project.
 */
async function readBuildingCase(storage: FileStorage) {
  const manifestBytes = await readFile(new URL('shell.json', buildingCaseFolder))
  const modelBytes = await readFile(new URL('house.sbm', buildingCaseFolder))
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as { name: string }
  const info = describeSbm(modelBytes)
  return {
    manifest,
    manifestJson: manifestBytes.toString('utf8'),
    manifestStored: await storage.put(manifestBytes),
    model: { bytes: modelBytes, info, stored: await storage.put(modelBytes) },
  }
}

/**
 * Seeds the project cases into an empty database: only when there is no project and no upload
 * yet, so restarting never brings back cases an admin deleted. Owned by the admin named
 * `adminName`; does nothing when there is none. Resolves to how many cases were created.
 */
export async function seedProjectCases(dependencies: {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  users: UsersRepository
  adminName: string
}): Promise<number> {
  const { database, storage, clock, users, adminName } = dependencies
  const { db } = database
  const projects = createProjectsRepository(db, database.dialect)
  const uploads = createUploadsRepository(db)
  if ((await projects.countAll()) > 0 || (await uploads.countAll()) > 0) return 0
  const admin = await users.findByName(adminName)
  if (admin?.role !== 'admin') return 0

  const seededAtMs = clock.nowMs()
  const covers = await Promise.all(
    projectCases.map(async (projectCase) => {
      const bytes = await readFile(new URL(projectCase.coverFile, coversFolder))
      return { bytes, stored: await storage.put(bytes) }
    }),
  )
  const buildingCase = await readBuildingCase(storage)
  const caseTilesets = await Promise.all(
    projectCases.map((projectCase) =>
      projectCase.tileset ? storeCaseTileset(projectCase.tileset, storage.named('tilesets')) : null,
    ),
  )
  await db.transaction().execute(async (transaction) => {
    const caseProjects = createProjectsRepository(transaction, database.dialect)
    const caseUploads = createUploadsRepository(transaction)
    for (const [index, projectCase] of projectCases.entries()) {
      // a millisecond apart, so the gallery lists them in this order
      const createdAt = timestampOf(seededAtMs + index)
      const cover = covers[index]!
      const fileId = randomUUID()
      const projectId = randomUUID()
      await caseUploads.insert({
        id: fileId,
        sha256: cover.stored.sha256,
        size_bytes: cover.bytes.byteLength,
        content_type: 'image/png',
        extension: 'png',
        original_name: projectCase.coverFile,
        thumbnail_sha256: null,
        owner_id: admin.id,
        project_id: null,
        purpose: 'project-cover',
        created_at: createdAt,
      })
      await caseProjects.insert({
        id: projectId,
        kind: projectCase.kind,
        name: projectCase.name,
        area_id: null,
        area_name: null,
        detailedaddress: projectCase.detailedaddress,
        prewiewpath_uuid: fileId,
        description: projectCase.description,
        ...projectDefaults,
        tile_coordinates: null,
        project_center_lng: projectCase.center.lng,
        project_center_lat: projectCase.center.lat,
        shell_json_path:
          projectCase.kind === 'building'
            ? structureFileUrl(projectId, buildingCase.manifestStored.sha256)
            : projectCase.shellJsonPath,
        owner_id: admin.id,
        is_case: 1,
        created_at: createdAt,
        updated_at: createdAt,
      })
      await caseUploads.addReference(fileId, projectFileHolder(projectId), createdAt)
      // shown in the gallery, uncategorised, in this order (admins curate it: /case)
      await transaction
        .insertInto('case_details')
        .values({
          id: randomUUID(),
          project_id: projectId,
          menu_id: null,
          title: projectCase.name,
          description: projectCase.description,
          cover_file_id: null,
          cover_name: null,
          sort_order: index,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute()
      const caseTileset = caseTilesets[index]
      if (projectCase.tileset && caseTileset) {
        await createTilesetsRepository(transaction).insert({
          id: randomUUID(),
          project_id: projectId,
          name: projectCase.tileset.name,
          is_visible: 1,
          placement_lng: null,
          placement_lat: null,
          placement_height_offset: null,
          placement_heading: null,
          ...caseTileset,
          created_at: createdAt,
          updated_at: createdAt,
        })
      }
      if (projectCase.kind === 'building') {
        const building = createBuildingRepository(transaction)
        const floorId = randomUUID()
        await building.insertFloor({
          id: floorId,
          project_id: projectId,
          name: '1F',
          elevation: 0,
          sort_order: 0,
          floor_key: 'F1',
          created_at: createdAt,
          updated_at: createdAt,
        })
        const { model } = buildingCase
        await building.insertModel({
          id: randomUUID(),
          project_id: projectId,
          name: 'house',
          file_name: 'house.sbm',
          role: 'shell',
          floor_id: floorId,
          sha256: model.stored.sha256,
          size_bytes: model.bytes.byteLength,
          triangle_count: model.info.triangleCount,
          has_stored_bvh: model.info.meshesWithStoredBvh === model.info.meshCount ? 1 : 0,
          preview_sha256: null,
          created_at: createdAt,
          updated_at: createdAt,
        })
        await building.saveStructure({
          project_id: projectId,
          sha256: buildingCase.manifestStored.sha256,
          name: buildingCase.manifest.name,
          manifest_json: buildingCase.manifestJson,
          created_at: createdAt,
          updated_at: createdAt,
        })
      }
    }
  })
  return projectCases.length
}
