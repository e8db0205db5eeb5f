import { randomUUID } from 'node:crypto'
import {
  copyNameOf,
  type copySuffixes,
  type CreateProjectBody,
  type Project,
  type ProjectInfo,
  type ProjectKind,
  type ProjectPage,
  type ProjectShareDatum,
  type ProjectTokenDatum,
  projectDefaults,
  projectShareUrl,
  type UpdateProjectBody,
} from '../../../contract/project'
import { uploadedFilesRoot, uploadedThumbnailsRoot } from '../../../contract/files'
import type { z } from 'zod'
import type {
  copyProjectBodySchema,
  createProjectBodySchema,
  projectListBodySchema,
  updateProjectBodySchema,
} from '../../../contract/project'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import {
  createProjectsRepository,
  type ProjectRecord,
  type ProjectRowChanges,
  type ProjectsRepository,
} from './projects.repository'
import { regionPathName, type RegionIndex } from '../geo/regions'
import type { ProjectPermissions } from '../../../contract/project-permissions'
import { ownsOrAdministers, type ProjectAccess, type ProjectCaller } from '../access/project-access'
import { createToken, hashToken } from '../auth/tokens'
import { projectCaseTextKeys } from './project-case-texts'
import { createUploadsRepository } from './uploads.repository'
import type { UploadsService } from './uploads.service'
import type { AuthUser } from '../accounts/users.service'

/** How long a project token works unless revoked first. */
export const projectTokenLifetimeMs = 30 * 24 * 3_600_000

/** The file-reference holder of everything a project uses (see projects-tables.ts). */
export function projectFileHolder(projectId: string): string {
  return `project:${projectId}`
}

/**
 * What other areas do when a project is copied or deleted, inside the same transaction (their
 * records of the project: POIs, models…). Files they hold for it should be referenced under
 * `projectFileHolder(id)` so the project's delete releases them.
 */
export interface ProjectLifecycleHook {
  onCopy?(database: Database, fromProjectId: string, toProjectId: string): Promise<void>
  /**
   * Deletes the area's rows inside the project's delete transaction; may answer work to run once
   * that transaction has committed (freeing bytes no row refers to any more), which never runs
   * when the delete rolls back.
   */
  onDelete?(database: Database, projectId: string): Promise<void | (() => void)>
}

export type { ProjectCaller }

type CreateInput = z.output<typeof createProjectBodySchema>
type UpdateInput = z.output<typeof updateProjectBodySchema>
/** What a copy needs: the source, and its name, or the language to name it in. */
interface CopyInput {
  id: z.output<typeof copyProjectBodySchema>['id']
  /** null: "<source name> (copy)" in `language` (contract's copyNameOf). */
  name: string | null
  language: keyof typeof copySuffixes
}
type ListInput = z.output<typeof projectListBodySchema>

/** Project operations (SPEC §7 "Project"). Owners see and change only their own; admins all. */
export interface ProjectsService {
  create(user: AuthUser, input: CreateInput): Promise<Project>
  update(user: AuthUser, input: UpdateInput): Promise<Project>
  /** Deletes a project, its tokens and references; files nothing else uses go too. */
  delete(user: AuthUser, projectId: string): Promise<void>
  /** A copy owned by the caller, using the same cover file (no bytes copied). */
  copy(user: AuthUser, input: CopyInput): Promise<Project>
  /** A project the caller may read: own, any for admins, cases for everyone, or by its token. */
  findOne(caller: ProjectCaller, projectId: string): Promise<Project>
  info(caller: ProjectCaller, projectId: string): Promise<ProjectInfo>
  /** A page of the projects the caller may see (guests: the cases). */
  list(user: AuthUser, input: ListInput): Promise<ProjectPage>
  /** The official examples, for everyone. */
  cases(user: AuthUser): Promise<Project[]>
  counts(user: AuthUser): Promise<{ city: number; building: number }>
  issueToken(user: AuthUser, projectId: string): Promise<ProjectTokenDatum>
  shareUrl(user: AuthUser, projectId: string): Promise<ProjectShareDatum>
  revokeTokens(user: AuthUser, projectId: string): Promise<number>
  /** The project a token opens, if the token is live; for project-scoped calls of other areas. */
  verifyProjectToken(token: string): Promise<string | undefined>
}

/** The API view of a stored project, with what the caller may do on it. */
export function toProject(record: ProjectRecord, permissions?: ProjectPermissions): Project {
  const cover =
    record.prewiewpath_uuid && record.cover_extension
      ? `${record.prewiewpath_uuid}.${record.cover_extension}`
      : null
  return {
    id: record.id,
    kind: record.kind,
    name: record.name,
    area_id: record.area_id,
    area_name: record.area_name,
    detailedaddress: record.detailedaddress,
    use_shadow_editor_render: record.use_shadow_editor_render === 1,
    prewiewpath: cover ? `${uploadedFilesRoot}${cover}` : null,
    prewiewpath_uuid: record.prewiewpath_uuid,
    prewiewpath_thumb: cover ? `${uploadedThumbnailsRoot}${cover}` : null,
    description: record.description,
    gis_width: record.gis_width,
    gis_height: record.gis_height,
    tile_radius: record.tile_radius,
    title_level: record.title_level,
    tile_coordinates: parseTileCoordinates(record.tile_coordinates),
    project_center:
      record.project_center_lng === null || record.project_center_lat === null
        ? null
        : {
            lng: record.project_center_lng,
            lat: record.project_center_lat,
            ...(record.location_heading === null || record.location_scale === null
              ? {}
              : { heading: record.location_heading, scale: record.location_scale }),
          },
    shell_json_path: record.shell_json_path,
    owner_id: record.owner_id,
    owner_name: record.owner_name,
    is_paid: record.is_paid === 1,
    is_case: record.is_case === 1,
    ...projectCaseTextKeys(record),
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(permissions === undefined ? {} : { permissions }),
  }
}

function parseTileCoordinates(text: string | null): [number, number][] | null {
  if (text === null) return null
  try {
    const parsed = JSON.parse(text) as unknown
    return Array.isArray(parsed) ? (parsed as [number, number][]) : null
  } catch {
    return null
  }
}

/** Builds the projects service. */
export function createProjectsService(dependencies: {
  database: DatabaseHandle
  uploads: UploadsService
  regions: () => RegionIndex
  clock: Clock
  hooks?: readonly ProjectLifecycleHook[]
  access: ProjectAccess
}): ProjectsService {
  const { database, uploads, clock } = dependencies
  const hooks = dependencies.hooks ?? []
  const { db } = database
  const repositoryOf = (handle: Database): ProjectsRepository =>
    createProjectsRepository(handle, database.dialect)
  const projects = repositoryOf(db)
  const now = () => timestampOf(clock.nowMs())

  const { access } = dependencies
  const isAdmin = (user: AuthUser) => user.role === 'admin'

  /** The project if the user may change it: `notFound` if none, `forbidden` if someone else's. */
  const loadOwned = (user: AuthUser, projectId: string): Promise<ProjectRecord> =>
    access.requireEditable(user, projectId)

  const loadReadable = async (caller: ProjectCaller, projectId: string): Promise<ProjectRecord> =>
    (await access.requireReadable(caller, projectId)).record

  const checkCover = async (user: AuthUser, fileId: string) => {
    const file = await uploads.find(fileId)
    // someone else's upload id is as unknown to this user as a made-up one
    if (!file || !ownsOrAdministers(user, file.owner_id)) {
      throw fieldError('validation', 'prewiewpath_uuid', 'project.noSuchCover')
    }
  }

  const regionOf = (
    areaId: string | undefined,
  ): { area_id: string | null; area_name: string | null } => {
    if (areaId === undefined || areaId === '') return { area_id: null, area_name: null }
    const path = dependencies.regions().pathOf(areaId)
    if (!path) {
      throw fieldError('validation', 'area_id', 'project.noSuchRegion')
    }
    return { area_id: areaId, area_name: regionPathName(path) }
  }

  // only owners and admins create, change and copy, so the answer carries what they may do
  const reload = async (user: AuthUser, projectId: string) => {
    const record = (await projects.findById(projectId))!
    return toProject(record, access.permissionsOf(user, record))
  }

  const verifyToken = async (token: string): Promise<string | undefined> =>
    (await access.openToken(token))?.projectId

  const issue = async (user: AuthUser, projectId: string): Promise<ProjectTokenDatum> => {
    const record = await loadReadable(user, projectId)
    const token = createToken()
    const createdAt = now()
    const expiresAt = timestampOf(clock.nowMs() + projectTokenLifetimeMs)
    await projects.deleteEndedTokens(record.id, createdAt)
    await projects.insertToken({
      id: randomUUID(),
      project_id: record.id,
      token_hash: hashToken(token),
      created_by: user.id,
      created_at: createdAt,
      expires_at: expiresAt,
      revoked_at: null,
    })
    return { project_id: record.id, project_token: token, expires_at: expiresAt }
  }

  return {
    async create(user, input: CreateInput) {
      await checkCover(user, input.prewiewpath_uuid)
      const id = randomUUID()
      const createdAt = now()
      await db.transaction().execute(async (transaction) => {
        await repositoryOf(transaction).insert({
          id,
          kind: input.kind,
          name: input.name,
          ...regionOf(input.area_id),
          detailedaddress: input.detailedaddress,
          use_shadow_editor_render: input.use_shadow_editor_render ? 1 : 0,
          prewiewpath_uuid: input.prewiewpath_uuid,
          description: input.description,
          gis_width: input.gis_width ?? projectDefaults.gis_width,
          gis_height: input.gis_height ?? projectDefaults.gis_height,
          tile_radius: input.tile_radius ?? projectDefaults.tile_radius,
          title_level: input.title_level ?? projectDefaults.title_level,
          tile_coordinates: input.tile_coordinates ? JSON.stringify(input.tile_coordinates) : null,
          project_center_lng: input.project_center.lng,
          project_center_lat: input.project_center.lat,
          shell_json_path: input.shell_json_path ?? null,
          owner_id: user.id,
          created_at: createdAt,
          updated_at: createdAt,
        })
        await createUploadsRepository(transaction).addReference(
          input.prewiewpath_uuid,
          projectFileHolder(id),
          createdAt,
        )
      })
      return reload(user, id)
    },

    async update(user, input: UpdateInput) {
      const before = await loadOwned(user, input.id)
      if (input.prewiewpath_uuid !== undefined) await checkCover(user, input.prewiewpath_uuid)
      const changes: ProjectRowChanges = { updated_at: now() }
      if (input.name !== undefined) changes.name = input.name
      if (input.detailedaddress !== undefined) changes.detailedaddress = input.detailedaddress
      if (input.description !== undefined) changes.description = input.description
      if (input.area_id !== undefined) Object.assign(changes, regionOf(input.area_id))
      if (input.use_shadow_editor_render !== undefined) {
        changes.use_shadow_editor_render = input.use_shadow_editor_render ? 1 : 0
      }
      if (input.gis_width !== undefined) changes.gis_width = input.gis_width
      if (input.gis_height !== undefined) changes.gis_height = input.gis_height
      if (input.tile_radius !== undefined) changes.tile_radius = input.tile_radius
      if (input.title_level !== undefined) changes.title_level = input.title_level
      if (input.tile_coordinates !== undefined) {
        changes.tile_coordinates = input.tile_coordinates
          ? JSON.stringify(input.tile_coordinates)
          : null
      }
      if (input.project_center !== undefined) {
        changes.project_center_lng = input.project_center.lng
        changes.project_center_lat = input.project_center.lat
        // a point picked on the map keeps the placement; anchors give a new one with it
        if (input.project_center.heading !== undefined) {
          changes.location_heading = input.project_center.heading
          changes.location_scale = input.project_center.scale ?? 1
        }
      }
      if (input.shell_json_path !== undefined) changes.shell_json_path = input.shell_json_path
      const oldCover = before.prewiewpath_uuid
      const newCover = input.prewiewpath_uuid
      const isCoverChanged = newCover !== undefined && newCover !== oldCover
      if (isCoverChanged) changes.prewiewpath_uuid = newCover
      await db.transaction().execute(async (transaction) => {
        const repository = repositoryOf(transaction)
        if (!(await repository.lockForChange(before.id))) {
          throw new AppError('notFound', 'project.notFound')
        }
        await repository.update(before.id, changes)
        if (isCoverChanged) {
          const files = createUploadsRepository(transaction)
          await files.addReference(newCover, projectFileHolder(before.id), changes.updated_at!)
          if (oldCover) await files.removeReference(oldCover, projectFileHolder(before.id))
        }
      })
      if (isCoverChanged && oldCover) await uploads.release([oldCover])
      return reload(user, before.id)
    },

    async delete(user, projectId) {
      await loadOwned(user, projectId)
      let released: string[] = []
      const afterCommit: (() => void)[] = []
      await db.transaction().execute(async (transaction) => {
        const repository = repositoryOf(transaction)
        // the lock orders this delete against uploads made for the project (uploads.service.ts)
        if (!(await repository.lockForChange(projectId))) {
          throw new AppError('notFound', 'project.notFound')
        }
        for (const hook of hooks) {
          const after = await hook.onDelete?.(transaction, projectId)
          if (after) afterCommit.push(after)
        }
        const files = createUploadsRepository(transaction)
        const referenced = await files.removeReferencesOfHolder(projectFileHolder(projectId))
        const madeForProject = await files.idsMadeForProject(projectId)
        await repository.delete(projectId)
        released = [...new Set([...referenced, ...madeForProject])]
        await files.clearProject(madeForProject)
      })
      for (const run of afterCommit) run()
      await uploads.release(released)
    },

    async copy(user, input: CopyInput) {
      const source = await projects.findById(input.id)
      if (!source) throw new AppError('notFound', 'project.notFound')
      // official cases are templates any editor may start from
      if (!access.permissionsOf(user, source).canCopy) {
        throw new AppError('forbidden', 'project.foreign')
      }
      const id = randomUUID()
      const createdAt = now()
      await db.transaction().execute(async (transaction) => {
        const {
          owner_name: _ownerName,
          cover_extension: _coverExtension,
          cover_has_thumbnail: _hasThumbnail,
          ...row
        } = source
        await repositoryOf(transaction).insert({
          ...row,
          id,
          name: input.name ?? copyNameOf(source.name, input.language),
          owner_id: user.id,
          is_case: 0,
          is_paid: 0,
          created_at: createdAt,
          updated_at: createdAt,
        })
        if (source.prewiewpath_uuid) {
          await createUploadsRepository(transaction).addReference(
            source.prewiewpath_uuid,
            projectFileHolder(id),
            createdAt,
          )
        }
        for (const hook of hooks) await hook.onCopy?.(transaction, source.id, id)
      })
      return reload(user, id)
    },

    async findOne(caller, projectId) {
      const readable = await access.requireReadable(caller, projectId)
      return toProject(readable.record, readable.permissions)
    },

    async info(caller, projectId) {
      const readable = await access.requireReadable(caller, projectId)
      const project = toProject(readable.record, readable.permissions)
      const path = project.area_id ? (dependencies.regions().pathOf(project.area_id) ?? []) : []
      return {
        ...project,
        region_path: path.map((region) => ({ codeid: region.codeid, name: region.name })),
      }
    },

    async list(user, input: ListInput) {
      const isGuest = user.role === 'guest'
      let ownerId: string | undefined = isAdmin(user) ? undefined : user.id
      if (input.user_id !== undefined) {
        if (input.user_id !== user.id && !isAdmin(user)) {
          throw new AppError('forbidden', 'project.adminListsOthers')
        }
        ownerId = input.user_id
      }
      const { records, total } = await projects.list({
        ...(isGuest ? { onlyCases: true } : ownerId === undefined ? {} : { ownerId }),
        ...(input.kind === undefined ? {} : { kind: input.kind as ProjectKind }),
        ...(input.keyword ? { keyword: input.keyword } : {}),
        sort: input.sort,
        order: input.order,
        offset: (input.pageNo - 1) * input.pageSize,
        limit: input.pageSize,
      })
      return {
        list: records.map((record) => toProject(record, access.permissionsOf(user, record))),
        total,
        pageNo: input.pageNo,
        pageSize: input.pageSize,
      }
    },

    async cases(user) {
      const { records } = await projects.list({
        onlyCases: true,
        sort: 'created_at',
        order: 'asc',
        offset: 0,
        limit: 100,
      })
      return records.map((record) => toProject(record, access.permissionsOf(user, record)))
    },

    counts: (user) => projects.countByKind(isAdmin(user) ? undefined : user.id),

    issueToken: (user, projectId) => issue(user, projectId),

    async shareUrl(user, projectId) {
      await loadOwned(user, projectId)
      const token = await issue(user, projectId)
      return { ...token, url: projectShareUrl(token.project_id, token.project_token) }
    },

    async revokeTokens(user, projectId) {
      await loadOwned(user, projectId)
      return projects.revokeTokens(projectId, now())
    },

    verifyProjectToken: verifyToken,
  }
}

export type { CreateProjectBody, UpdateProjectBody }
