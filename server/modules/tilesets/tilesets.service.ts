import { randomUUID } from 'node:crypto'
import { open } from 'node:fs/promises'
import {
  type ObliquePhotograph,
  type ObliquePhotographListItem,
  maxTopTiles,
  type TilesetPlacement,
  type TilesetStats,
  type TilesetTopTile,
} from '../../../contract/city'
import { AppError, fieldError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { NamedFiles } from '../../plugins/storage'
import { type Clock, timestampOf } from '../time/clock'
import type { FolderRule } from '../files/folder-sweeper'
import { type StoreRule, topFolderOf } from '../files/store-sweep'
import { createProjectsRepository } from '../projects/projects.repository'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { AuthUser } from '../accounts/users.service'
import { recordFileReplacement } from '../orders/file-replacements'
import { tilesetBytes } from '../orders/metering'
import type { CityAccess } from './city-access'
import { fileArchiveSource } from './file-archive'
import { type GrantReader, signedInReader } from '../access/project-access'
import { inspectTilesetArchive, toAppError } from './tileset-archive'
import { extractTilesetEntries } from './tileset-extract'
import { createTilesetsRepository, type TilesetRow } from './tilesets.repository'

/** An uploaded archive waiting on disk to be ingested. */
export interface IncomingArchive {
  path: string
  /** The client's name for it, for display and to tell `.3tz` apart. */
  fileName: string
}

/** Oblique photography of city projects (SPEC §7 `/obliquephotograph/*`, `uploadTiltModel`). */
export interface TilesetsService {
  /**
   * Inspects, extracts and publishes an uploaded tileset archive: a new tileset, or a new
   * version of `tilesetId`. The previous version stays served until the new one is complete;
   * on any refusal nothing changes. The archive file itself is left to the caller.
   */
  ingest(input: {
    user: AuthUser
    projectId: string
    tilesetId?: string | undefined
    name?: string | undefined
    archive: IncomingArchive
  }): Promise<ObliquePhotograph>
  add(
    user: AuthUser,
    input: {
      project_id: string
      name: string
      placement?: TilesetPlacement | undefined
      is_visible: boolean
    },
  ): Promise<ObliquePhotograph>
  update(
    user: AuthUser,
    input: {
      id: string
      name?: string | undefined
      placement?: TilesetPlacement | null | undefined
      is_visible?: boolean | undefined
    },
  ): Promise<ObliquePhotograph>
  remove(user: AuthUser, id: string): Promise<void>
  /** The project's tilesets (or the one with `id`), with fresh signed addresses. */
  find(
    caller: ProjectCaller | null,
    projectId: string | undefined,
    id?: string,
  ): Promise<ObliquePhotograph[]>
  list(
    caller: ProjectCaller | null,
    projectId: string | undefined,
  ): Promise<ObliquePhotographListItem[]>
  /**
   * The name of a served file in the store's tileset files (`<version>/<path>`), or undefined
   * when the address is not valid.
   */
  servedName(
    tilesetId: string,
    versionId: string,
    grant: string,
    relativePath: string,
  ): Promise<string | undefined>
  /** Copies (sharing the files) and deletes a project's tilesets with the project. */
  lifecycleHook: ProjectLifecycleHook
  /**
   * What the folder sweeper removes on a folder store: abandoned extractions (of earlier
   * versions) and version folders no row serves.
   */
  sweepRules(): FolderRule[]
  /**
   * The version rule alone, for the store's tileset area when it is a bucket (a process killed
   * mid-extraction leaves a version's files there, with no row).
   */
  unservedVersionsRule(): StoreRule
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** Extractions of earlier versions were staged under this name, then renamed into place. */
const stagingPrefix = '.staging-'

/**
 * Builds the service. A version's files are the store's tileset files under `<version id>/`
 * (`files`: DATA_DIR/tilesets on a folder store, which `directory` names for the sweeps, or the
 * bucket's `tilesets/`), so any process or machine sharing the store serves them.
 */
export function createTilesetsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: CityAccess
  files: NamedFiles
  directory: string
  limits: { maxUploadBytes: number; maxEntryCount?: number }
  onBackgroundError?: (error: unknown) => void
}): TilesetsService {
  const { database, clock, access, files, directory } = dependencies
  const { db } = database
  const tilesets = createTilesetsRepository(db)
  const now = () => timestampOf(clock.nowMs())
  const unservedVersions = {
    label: 'tileset versions no row serves',
    // a version's files are written before its row: an extraction of many gigabytes may run
    // long, so its files are left a day
    minimumAgeMs: 24 * 3_600_000,
    isCrashLeftover: true,
    keep: (versionIds: string[]) => tilesets.versionsInUse(versionIds),
  }

  const grantKey = (tilesetId: string, versionId: string) => `tiles/${tilesetId}/${versionId}`

  const toDatum = (row: TilesetRow, reader: GrantReader = signedInReader): ObliquePhotograph => {
    const rootUrl =
      row.version_id === null || row.root_path === null
        ? null
        : `/web/tiles/${row.id}/${row.version_id}/${access.fileGrant(grantKey(row.id, row.version_id), reader)}/${row.root_path
            .split('/')
            .map(encodeURIComponent)
            .join('/')}`
    const hasPlacement = row.placement_lng !== null && row.placement_lat !== null
    return {
      id: row.id,
      project_id: row.project_id,
      name: row.name,
      root_url: rootUrl,
      is_visible: row.is_visible === 1,
      placement: hasPlacement
        ? {
            lng: row.placement_lng!,
            lat: row.placement_lat!,
            height_offset: row.placement_height_offset ?? 0,
            heading: row.placement_heading ?? 0,
          }
        : null,
      is_georeferenced: row.is_georeferenced === 1,
      asset_version: row.asset_version,
      stats: row.stats_json === null ? null : (JSON.parse(row.stats_json) as TilesetStats),
      top_tiles: JSON.parse(row.top_tiles_json) as TilesetTopTile[],
      warnings: JSON.parse(row.warnings_json) as string[],
      file_name: row.file_name,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }
  }

  const placementColumns = (placement: TilesetPlacement | null) => ({
    placement_lng: placement?.lng ?? null,
    placement_lat: placement?.lat ?? null,
    placement_height_offset: placement === null ? null : placement.height_offset,
    placement_heading: placement === null ? null : placement.heading,
  })

  /** The tileset if the user may change it. */
  const loadEditable = async (user: AuthUser, id: string): Promise<TilesetRow> => {
    const row = await tilesets.findById(id)
    if (!row) throw new AppError('notFound', 'tileset.notFound')
    await access.requireEditable(user, row.project_id)
    return row
  }

  /** Deletes version folders that no row serves any more (after the change committed). */
  const releaseVersions = async (versionIds: readonly (string | null)[]) => {
    const candidates = versionIds.filter((id): id is string => id !== null)
    if (candidates.length === 0) return
    const inUse = await tilesets.versionsInUse(candidates)
    for (const versionId of candidates) {
      if (!inUse.has(versionId)) await files.removeFolder(versionId)
    }
  }

  const releaseLater = (versionIds: readonly string[]) => {
    // Hooks run inside the project's transaction: check once it has ended. Anything still
    // referenced then (or missed) is left to the sweep.
    setTimeout(() => {
      releaseVersions(versionIds).catch((error) => dependencies.onBackgroundError?.(error))
    }, 1_000).unref()
  }

  return {
    async ingest({ user, projectId, tilesetId, name, archive }) {
      await access.requireEditable(user, projectId)
      if (tilesetId !== undefined) {
        const existing = await loadEditable(user, tilesetId)
        if (existing.project_id !== projectId) {
          throw fieldError('validation', 'id', 'tileset.otherProject')
        }
      }
      // the version's files are read only once its row names it, after every write has ended
      const versionId = randomUUID()
      const handle = await open(archive.path, 'r')
      try {
        const sizeBytes = (await handle.stat()).size
        const source = fileArchiveSource(handle, sizeBytes)
        const plan = await inspectTilesetArchive(source, archive.fileName, {
          maxTotalUncompressedBytes: dependencies.limits.maxUploadBytes,
          maxEntryCount: dependencies.limits.maxEntryCount ?? 1_000_000,
          maxJsonBytes: 256 * 1024 * 1024,
          maxTopTiles,
        })
        const extraction = await extractTilesetEntries({
          handle,
          source,
          entries: plan.entries,
          target: { files, folder: versionId },
        }).catch((error: unknown) => {
          throw toAppError(error)
        })
        const wrong = extraction.mismatches.filter(
          (mismatch) => plan.referencedPaths.has(mismatch.path) || mismatch.expected !== 'json',
        )
        if (wrong.length > 0) {
          const listed = (describe: (item: (typeof wrong)[number]) => string, more: string) =>
            `${wrong.slice(0, 5).map(describe).join(', ')}${wrong.length > 5 ? more : ''}`
          throw new AppError(
            'validation',
            'tileset.contentMismatch',
            {
              files: listed(
                (item) => `${item.path} (.${item.expected} → ${item.found})`,
                ` … +${wrong.length - 5}`,
              ),
            },
            {
              details: { mismatches: wrong.slice(0, 100) },
              englishText: `Some files are not what their names say: ${listed(
                (item) => `${item.path} (named .${item.expected}, contains ${item.found})`,
                ` and ${wrong.length - 5} more`,
              )}.`,
            },
          )
        }

        const timestamp = now()
        const content = {
          version_id: versionId,
          root_path: plan.rootPath,
          asset_version: plan.assetVersion,
          is_georeferenced: plan.isGeoreferenced ? 1 : 0,
          stats_json: JSON.stringify(extraction.stats),
          top_tiles_json: JSON.stringify(plan.topTiles),
          warnings_json: JSON.stringify(plan.warnings),
          file_name: archive.fileName.slice(0, 255),
          updated_at: timestamp,
        }
        let previousVersion: string | null = null
        const id = tilesetId ?? randomUUID()
        await db.transaction().execute(async (transaction) => {
          // ordered against the project's delete, like every upload made for a project
          const project = await createProjectsRepository(
            transaction,
            database.dialect,
          ).lockForChange(projectId)
          if (!project) throw new AppError('notFound', 'project.gone')
          const repository = createTilesetsRepository(transaction)
          if (tilesetId !== undefined) {
            const current = await repository.findById(tilesetId)
            if (!current) throw new AppError('notFound', 'tileset.notFound')
            previousVersion = current.version_id
            const previousBytes = tilesetBytes(current.stats_json)
            // an empty record filled for the first time (`/obliquephotograph/add`) is an upload
            if (current.version_id !== null && previousBytes !== null) {
              await recordFileReplacement(transaction, {
                projectId,
                area: 'tileset',
                recordId: tilesetId,
                recordCreatedAt: current.created_at,
                previousSizeBytes: previousBytes,
                sizeBytes: extraction.stats.total_bytes,
                at: timestamp,
              })
            }
            await repository.update(tilesetId, content)
          } else {
            await repository.insert({
              id,
              project_id: projectId,
              name: name ?? defaultNameOf(archive.fileName),
              is_visible: 1,
              ...placementColumns(null),
              ...content,
              created_at: timestamp,
            })
          }
        })
        await releaseVersions([previousVersion])
        return toDatum((await tilesets.findById(id))!)
      } catch (error) {
        // a store that cannot be reached now leaves the folder to the sweep
        await files.removeFolder(versionId).catch(() => undefined)
        throw toAppError(error)
      } finally {
        await handle.close()
      }
    },

    async add(user, input) {
      await access.requireEditable(user, input.project_id)
      const timestamp = now()
      const id = randomUUID()
      await tilesets.insert({
        id,
        project_id: input.project_id,
        name: input.name,
        is_visible: input.is_visible ? 1 : 0,
        ...placementColumns(input.placement ?? null),
        version_id: null,
        root_path: null,
        asset_version: null,
        is_georeferenced: 0,
        stats_json: null,
        top_tiles_json: '[]',
        warnings_json: '[]',
        file_name: null,
        created_at: timestamp,
        updated_at: timestamp,
      })
      return toDatum((await tilesets.findById(id))!)
    },

    async update(user, input) {
      await loadEditable(user, input.id)
      await tilesets.update(input.id, {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.is_visible === undefined ? {} : { is_visible: input.is_visible ? 1 : 0 }),
        ...(input.placement === undefined ? {} : placementColumns(input.placement)),
        updated_at: now(),
      })
      return toDatum((await tilesets.findById(input.id))!)
    },

    async remove(user, id) {
      const row = await loadEditable(user, id)
      await db.transaction().execute(async (transaction) => {
        await createTilesetsRepository(transaction).delete(id)
        // the project's single-building models pointing into it lose their tileset
        await transaction
          .updateTable('gis_models')
          .set({ tileset_id: null })
          .where('tileset_id', '=', id)
          .execute()
      })
      await releaseVersions([row.version_id])
    },

    async find(caller, projectId, id) {
      const reader = await access.resolveReadable(caller, projectId)
      const rows = await tilesets.listByProject(reader.record.id)
      return rows
        .filter((row) => id === undefined || row.id === id)
        .map((row) => toDatum(row, reader))
    },

    async list(caller, projectId) {
      const resolved = (await access.resolveReadable(caller, projectId)).record.id
      return (await tilesets.listByProject(resolved)).map((row) => ({ id: row.id, name: row.name }))
    },

    async servedName(tilesetId, versionId, grant, relativePath) {
      if (!uuidPattern.test(tilesetId) || !uuidPattern.test(versionId)) return undefined
      if (!(await access.checkFileGrant(grantKey(tilesetId, versionId), grant))) return undefined
      const segments: string[] = []
      for (const segment of relativePath.split('/')) {
        if (segment === '' || segment === '.') continue
        if (segment === '..' || segment.includes('\\') || segment.includes('\u0000'))
          return undefined
        segments.push(segment)
      }
      if (segments.length === 0) return undefined
      return [versionId, ...segments].join('/')
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        const repository = createTilesetsRepository(transaction)
        const idMap = new Map<string, string>()
        for (const row of await repository.listByProject(fromProjectId)) {
          const id = randomUUID()
          idMap.set(row.id, id)
          // the version folder is immutable, so the copy serves the same files
          await repository.insert({ ...row, id, project_id: toProjectId })
        }
        // single-building models of the copy point at the copied tilesets
        for (const [from, to] of idMap) {
          await transaction
            .updateTable('gis_models')
            .set({ tileset_id: to })
            .where('project_id', '=', toProjectId)
            .where('tileset_id', '=', from)
            .execute()
          // and so do the anchor points that place them (copied by their own hook before)
          await transaction
            .updateTable('location_anchors')
            .set({ target: to })
            .where('project_id', '=', toProjectId)
            .where('target', '=', from)
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        const versions = await createTilesetsRepository(transaction).deleteByProject(projectId)
        if (versions.length > 0) releaseLater(versions)
      },
    },

    sweepRules() {
      return [
        {
          label: 'unfinished tileset extractions',
          directory,
          owns: (name) => name.startsWith(stagingPrefix),
          // an extraction of many gigabytes may run long: its folder is left a day
          minimumAgeMs: 24 * 3_600_000,
          isCrashLeftover: true,
        },
        { ...unservedVersions, directory, owns: (name) => uuidPattern.test(name) },
      ]
    },
    unservedVersionsRule: () => ({
      ...unservedVersions,
      entryOf: (name) => {
        const version = topFolderOf(name)
        return version !== undefined && uuidPattern.test(version) ? version : undefined
      },
    }),
  }
}

/** A tileset's default name: the upload's file name without its extension. */
function defaultNameOf(fileName: string): string {
  const base = fileName.replace(/\.(zip|3tz)$/i, '').trim()
  return (base === '' ? 'Oblique photography' : base).slice(0, 100)
}
