import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import type { Selectable } from 'kysely'
import type { BasemapFile, BasemapFindDatum, BasemapSetting } from '../../../contract/city'
import { AppError, fieldError } from '../../http/app-error'
import type { BasemapFilesTable } from '../../migrations/0006-city'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { SweepTask } from '../files/folder-sweeper'
import { storeSweep } from '../files/store-sweep'
import type { ProjectCaller, ProjectLifecycleHook } from '../projects/projects.service'
import type { MapProxy } from '../map-proxy/map-proxy.service'
import type { CityAccess } from '../tilesets/city-access'
import { type GrantReader, signedInReader } from '../access/project-access'
import { type NamedFiles, readHead } from '../../plugins/storage'
import type { AuthUser } from '../accounts/users.service'
import { basemapFileName } from './basemap-files'

type BasemapFileRow = Selectable<BasemapFilesTable>

/** PMTiles basemaps and each city project's basemap setting (decisions.md "maps"). */
export interface BasemapsService {
  /**
   * Takes an uploaded file into the store's basemaps area after checking it is PMTiles v3 by
   * its header (on a folder a second name of the upload's bytes, in a bucket sent from it; the
   * caller still owns and removes its path).
   */
  accept(input: {
    user: AuthUser
    projectId: string
    name?: string | undefined
    filePath: string
    fileName: string
  }): Promise<BasemapFile>
  find(caller: ProjectCaller | null, projectId: string | undefined): Promise<BasemapFindDatum>
  save(
    user: AuthUser,
    input: {
      project_id: string
      kind: BasemapSetting['kind']
      style_url?: string | undefined
      pmtiles_id?: string | undefined
    },
  ): Promise<BasemapFindDatum>
  remove(user: AuthUser, id: string): Promise<void>
  /**
   * The name in the basemaps area of the file behind a signed address, or undefined when the
   * address is not valid.
   */
  servedName(fileKey: string, grant: string): Promise<string | undefined>
  lifecycleHook: ProjectLifecycleHook
  /** What the sweeper removes: stored basemap files no row names, and cut-short copies. */
  sweepTask(): SweepTask
}

/** The PMTiles v3 header starts with these 7 bytes and the version byte 3. */
const pmtilesMagic = Buffer.from('PMTiles')
const pmtilesVersion = 3
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A stored basemap's name, or its part file while copied across file systems (folder only). */
const storedNamePattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.pmtiles(\.part)?$/
/** A file is stored just before its row is written: younger files may be a live upload's. */
const unreferencedMinimumAgeMs = 3_600_000
const offlineSetting: BasemapSetting = { kind: 'offline', style_url: null, pmtiles_id: null }

/** True when the bytes start a PMTiles version 3 archive. */
export function isPmtilesV3(head: Uint8Array): boolean {
  return (
    head.byteLength >= 8 &&
    Buffer.from(head.subarray(0, 7)).equals(pmtilesMagic) &&
    head[7] === pmtilesVersion
  )
}

/**
 * Builds the service. The archives are the store's `basemaps` area, `<file key>.pmtiles`
 * (DATA_DIR/basemaps on a folder, where they always were, or the bucket's `basemaps/`), so any
 * process or machine sharing the store serves, packs and removes them.
 */
export function createBasemapsService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: CityAccess
  files: NamedFiles
  /** Online styles are drawn through it; their addresses are checked against its allow-list. */
  mapProxy: MapProxy
  onBackgroundError?: (error: unknown) => void
}): BasemapsService {
  const { database, clock, access, files, mapProxy } = dependencies
  const { db } = database
  /** A clean-up that failed: logged; what it left (no row names it) goes at the sweep. */
  const report = (error: unknown) => {
    dependencies.onBackgroundError?.(error)
  }
  const now = () => timestampOf(clock.nowMs())
  const grantKey = (fileKey: string) => `basemaps/${fileKey}`

  const urlOf = (row: BasemapFileRow, reader: GrantReader) => {
    const safeName = row.name.replace(/[^\w.-]+/g, '_').replace(/\.pmtiles$/i, '') || 'basemap'
    return `/web/basemaps/${row.file_key}/${access.fileGrant(grantKey(row.file_key), reader)}/${safeName}.pmtiles`
  }
  const toFile = (row: BasemapFileRow, reader: GrantReader = signedInReader): BasemapFile => ({
    id: row.id,
    name: row.name,
    size_bytes: Number(row.size_bytes),
    url: urlOf(row, reader),
    created_at: row.created_at,
  })
  const listFiles = (handle: Database, projectId: string) =>
    handle
      .selectFrom('basemap_files')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  const settingOf = async (handle: Database, projectId: string) =>
    handle
      .selectFrom('basemap_settings')
      .selectAll()
      .where('project_id', '=', projectId)
      .executeTakeFirst()

  const findDatum = async (
    projectId: string,
    reader: GrantReader = signedInReader,
  ): Promise<BasemapFindDatum> => {
    const files = await listFiles(db, projectId)
    const row = await settingOf(db, projectId)
    const setting: BasemapSetting = row
      ? { kind: row.kind, style_url: row.style_url, pmtiles_id: row.pmtiles_id }
      : offlineSetting
    const chosen = files.find((file) => file.id === setting.pmtiles_id)
    return {
      setting,
      pmtiles_url: setting.kind === 'pmtiles' && chosen ? urlOf(chosen, reader) : null,
      style_proxy_url: setting.kind === 'online' ? proxiedStyleOf(setting.style_url) : null,
      files: files.map((file) => toFile(file, reader)),
    }
  }

  // A saved style whose host was allowed then but is not now has no proxied address: the map
  // shows the failure instead of the browser fetching it directly (the CSP would refuse that).
  const proxiedStyleOf = (styleUrl: string | null) => {
    if (styleUrl === null) return null
    try {
      return mapProxy.styleAddress(styleUrl)
    } catch {
      return null
    }
  }

  const releaseKeys = async (fileKeys: readonly string[]) => {
    for (const fileKey of new Set(fileKeys)) {
      const user = await db
        .selectFrom('basemap_files')
        .select('id')
        .where('file_key', '=', fileKey)
        .executeTakeFirst()
      if (!user) await files.remove(basemapFileName(fileKey))
    }
  }

  return {
    async accept({ user, projectId, name, filePath, fileName }) {
      await access.requireEditable(user, projectId)
      if (!isPmtilesV3(await readHead(filePath, 8))) {
        throw new AppError('unsupportedFile', 'basemap.notPmtiles')
      }
      const fileKey = randomUUID()
      const sizeBytes = (await stat(filePath)).size
      await files.adopt(basemapFileName(fileKey), filePath)
      const row: BasemapFileRow = {
        id: randomUUID(),
        project_id: projectId,
        name: (name ?? fileName.replace(/\.pmtiles$/i, '')).slice(0, 100) || 'basemap',
        file_key: fileKey,
        size_bytes: sizeBytes,
        created_at: now(),
      }
      try {
        await db.insertInto('basemap_files').values(row).execute()
      } catch (error) {
        // the row's failure is the answer; a file left behind goes at the sweep
        await files.remove(basemapFileName(fileKey)).catch(report)
        throw error
      }
      return toFile(row)
    },

    async find(caller, projectId) {
      const reader = await access.resolveReadable(caller, projectId)
      return findDatum(reader.record.id, reader)
    },

    async save(user, input) {
      await access.requireEditable(user, input.project_id)
      if (input.kind === 'online') mapProxy.checkStyleUrl(input.style_url ?? '')
      if (input.kind === 'pmtiles') {
        const file = await db
          .selectFrom('basemap_files')
          .select('project_id')
          .where('id', '=', input.pmtiles_id ?? '')
          .executeTakeFirst()
        if (file?.project_id !== input.project_id) {
          throw fieldError('validation', 'pmtiles_id', 'basemap.noSuchFile')
        }
      }
      const values = {
        kind: input.kind,
        style_url: input.kind === 'online' ? (input.style_url ?? null) : null,
        pmtiles_id: input.kind === 'pmtiles' ? (input.pmtiles_id ?? null) : null,
        updated_at: now(),
      }
      await db
        .insertInto('basemap_settings')
        .values({ project_id: input.project_id, ...values })
        .onConflict((conflict) => conflict.column('project_id').doUpdateSet(values))
        .execute()
      return findDatum(input.project_id)
    },

    async remove(user, id) {
      const row = await db
        .selectFrom('basemap_files')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'basemap.fileNotFound')
      await access.requireEditable(user, row.project_id)
      const setting = await settingOf(db, row.project_id)
      if (setting?.kind === 'pmtiles' && setting.pmtiles_id === id) {
        throw new AppError('conflict', 'basemap.inUse')
      }
      await db.deleteFrom('basemap_files').where('id', '=', id).execute()
      // the basemap is gone with its row; an archive the store failed to remove goes at the
      // sweep (a store out of reach must not answer the removal as failed)
      await releaseKeys([row.file_key]).catch(report)
    },

    async servedName(fileKey, grant) {
      if (!uuidPattern.test(fileKey)) return undefined
      if (!(await access.checkFileGrant(grantKey(fileKey), grant))) return undefined
      return basemapFileName(fileKey)
    },

    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        const idMap = new Map<string, string>()
        for (const row of await listFiles(transaction, fromProjectId)) {
          const id = randomUUID()
          idMap.set(row.id, id)
          await transaction
            .insertInto('basemap_files')
            .values({ ...row, id, project_id: toProjectId })
            .execute()
        }
        const setting = await settingOf(transaction, fromProjectId)
        if (setting) {
          await transaction
            .insertInto('basemap_settings')
            .values({
              ...setting,
              project_id: toProjectId,
              pmtiles_id:
                setting.pmtiles_id === null ? null : (idMap.get(setting.pmtiles_id) ?? null),
            })
            .execute()
        }
      },
      async onDelete(transaction, projectId) {
        const rows = await listFiles(transaction, projectId)
        await transaction.deleteFrom('basemap_files').where('project_id', '=', projectId).execute()
        await transaction
          .deleteFrom('basemap_settings')
          .where('project_id', '=', projectId)
          .execute()
        if (rows.length > 0) {
          // inside the project's transaction: check once it has ended (the sweep catches the rest)
          setTimeout(() => {
            releaseKeys(rows.map((row) => row.file_key)).catch((error) =>
              dependencies.onBackgroundError?.(error),
            )
          }, 1_000).unref()
        }
      },
    },

    sweepTask: () =>
      storeSweep(
        {
          label: 'basemap files no row uses',
          entryOf: (name) => storedNamePattern.exec(name)?.[1],
          isUnfinished: (name) => name.endsWith('.part'),
          minimumAgeMs: unreferencedMinimumAgeMs,
          isCrashLeftover: true,
          async keep(keys) {
            const rows = await db
              .selectFrom('basemap_files')
              .select('file_key')
              .where('file_key', 'in', keys)
              .execute()
            return new Set(rows.map((row) => row.file_key))
          },
        },
        files,
      ),
  }
}
