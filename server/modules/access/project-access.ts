import {
  type ProjectPermissions,
  type ProjectViewer,
  projectPermissionsOf,
} from '../../../contract/project-permissions'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import { createProjectsRepository, type ProjectRecord } from '../projects/projects.repository'
import { hashToken, isWellFormedToken } from '../auth/tokens'
import type { AuthUser } from '../accounts/users.service'
import type { UrlSigner } from './url-signer'

/** The caller of a project call: a signed-in user, or a holder of a project token. */
export type ProjectCaller = AuthUser | { projectToken: string }

/**
 * Who may do what on a project, in one place for every area (projects, uploads, building
 * models, GML, city tilesets, GIS models and basemaps). The rule itself is the pure
 * `projectPermissionsOf` in contract/, so the console hides exactly what this refuses.
 *
 * File addresses are signed here too: an address handed to a project-token holder carries the
 * token's id and stops working once that token is revoked or expires (checked on every
 * request, remembered for at most `tokenLivenessCacheMs`), so revoking a share link ends its
 * access to tiles, basemaps, models and GML files within a minute, not hours later.
 */
export interface ProjectAccess {
  /**
   * The project if the user may change it (owner or admin): `notFound` if it does not exist,
   * `forbidden` if it is someone else's.
   */
  requireEditable(user: AuthUser, projectId: string): Promise<ProjectRecord>
  /**
   * Inside a write transaction: locks the project row, so a concurrent delete of the project
   * runs wholly before or after the write, and checks the rule again.
   */
  lockEditable(transaction: Database, user: AuthUser, projectId: string): Promise<void>
  /** The project if the caller may read it (own, any for admins, cases, or by its token). */
  requireReadable(caller: ProjectCaller, projectId: string): Promise<ReadableProject>
  /**
   * The project a read is about: `projectId` checked against the caller, or the project the
   * caller's token opens when no id is given.
   */
  resolveReadable(
    caller: ProjectCaller | null,
    projectId: string | undefined,
  ): Promise<ReadableProject>
  /** What a signed-in user may do on a project record they already listed. */
  permissionsOf(user: AuthUser, record: ProjectRecord): ProjectPermissions
  /** The project a token opens and the token's id, if the token is live. */
  openToken(token: string): Promise<{ projectId: string; tokenId: string } | undefined>
  /** A file address grant for a resource of a project read as `reader`. */
  fileGrant(resource: string, reader: GrantReader): string
  /**
   * Whether a grant from `fileGrant` still opens the resource: signed by this server, not
   * expired, and, when handed to a token holder, that token still live.
   */
  checkFileGrant(resource: string, grant: string): Promise<boolean>
}

/** A project the caller may read, what they may do on it, and whose file addresses they get. */
export interface ReadableProject {
  record: ProjectRecord
  permissions: ProjectPermissions
  /** The project token's id for a token holder (their file addresses die with it), else null. */
  grantScope: string | null
}

/** Whose file addresses are signed: a `ReadableProject`, or `signedInReader` (owner, admin). */
export type GrantReader = Pick<ReadableProject, 'grantScope'>

/** The reader of addresses answered to an owner or admin who just changed the project. */
export const signedInReader: GrantReader = { grantScope: null }

/** How long a token's liveness is remembered by the file routes (tiles are many small GETs). */
export const tokenLivenessCacheMs = 15_000
const livenessCacheMaxEntries = 10_000

function viewerOf(user: AuthUser): ProjectViewer {
  return { kind: 'user', id: user.id, role: user.role }
}

function factsOf(record: ProjectRecord) {
  return { owner_id: record.owner_id, is_case: record.is_case === 1 }
}

/** Builds the project access checks. */
export function createProjectAccess(dependencies: {
  database: DatabaseHandle
  clock: Clock
  signer: UrlSigner
}): ProjectAccess {
  const { database, clock, signer } = dependencies
  const repositoryOf = (handle: Database) => createProjectsRepository(handle, database.dialect)
  const projects = repositoryOf(database.db)
  const liveness = new Map<string, { isLive: boolean; checkedAtMs: number }>()

  const tokenRowOf = async (token: string) => {
    if (!isWellFormedToken(token)) return undefined
    const row = await projects.findTokenByHash(hashToken(token))
    if (!row || row.revoked_at !== null || row.expires_at <= timestampOf(clock.nowMs())) {
      return undefined
    }
    return row
  }

  const isTokenIdLive = async (tokenId: string): Promise<boolean> => {
    const nowMs = clock.nowMs()
    const known = liveness.get(tokenId)
    if (known !== undefined && nowMs - known.checkedAtMs < tokenLivenessCacheMs) return known.isLive
    const row = await projects.findTokenById(tokenId)
    const isLive =
      row !== undefined && row.revoked_at === null && row.expires_at > timestampOf(nowMs)
    if (liveness.size >= livenessCacheMaxEntries) liveness.clear()
    liveness.set(tokenId, { isLive, checkedAtMs: nowMs })
    return isLive
  }

  const requireEditableRecord = (user: AuthUser, record: ProjectRecord | undefined) => {
    if (!record) throw new AppError('notFound', 'project.notFound')
    if (!projectPermissionsOf(viewerOf(user), factsOf(record)).canEdit) {
      throw new AppError('forbidden', 'project.foreign')
    }
    return record
  }

  const requireReadable = async (
    caller: ProjectCaller,
    projectId: string,
  ): Promise<ReadableProject> => {
    const record = await projects.findById(projectId)
    if (!record) throw new AppError('notFound', 'project.notFound')
    if ('projectToken' in caller) {
      const row = await tokenRowOf(caller.projectToken)
      if (row?.project_id === projectId) {
        return {
          record,
          permissions: projectPermissionsOf({ kind: 'projectToken' }, factsOf(record)),
          grantScope: row.id,
        }
      }
      if (record.is_case === 1) {
        const permissions = projectPermissionsOf({ kind: 'anonymous' }, factsOf(record))
        return { record, permissions, grantScope: null }
      }
      throw new AppError('forbidden', 'project.tokenWrongProject')
    }
    const permissions = projectPermissionsOf(viewerOf(caller), factsOf(record))
    if (!permissions.canRead) throw new AppError('forbidden', 'project.foreign')
    return { record, permissions, grantScope: null }
  }

  return {
    async requireEditable(user, projectId) {
      return requireEditableRecord(user, await projects.findById(projectId))
    },

    async lockEditable(transaction, user, projectId) {
      const locked = await repositoryOf(transaction).lockForChange(projectId)
      if (!locked) throw new AppError('notFound', 'project.notFound')
      const facts = { owner_id: locked.owner_id, is_case: false }
      if (!projectPermissionsOf(viewerOf(user), facts).canEdit) {
        throw new AppError('forbidden', 'project.foreign')
      }
    },

    requireReadable,

    async resolveReadable(caller, projectId) {
      if (caller === null) {
        throw new AppError('sessionTimeout', 'project.signInOrToken')
      }
      if (projectId !== undefined) return requireReadable(caller, projectId)
      if ('projectToken' in caller) {
        const row = await tokenRowOf(caller.projectToken)
        if (row === undefined) {
          throw new AppError('forbidden', 'project.tokenEnded')
        }
        return requireReadable(caller, row.project_id)
      }
      throw fieldError('validation', 'project_id', 'validation.required')
    },

    permissionsOf: (user, record) => projectPermissionsOf(viewerOf(user), factsOf(record)),

    async openToken(token) {
      const row = await tokenRowOf(token)
      return row === undefined ? undefined : { projectId: row.project_id, tokenId: row.id }
    },

    fileGrant: (resource, reader) => signer.grant(resource, reader.grantScope, clock.nowMs()),

    async checkFileGrant(resource, grant) {
      const verified = signer.verify(resource, grant, clock.nowMs())
      if (verified === undefined) return false
      return verified.scope === null || (await isTokenIdLive(verified.scope))
    },
  }
}

/**
 * Whether a user may act on something a user owns (an uploaded file, a converted model): its
 * owner, or an admin. The same rule as a project's `canEdit`, for records outside a project.
 */
export function ownsOrAdministers(user: AuthUser, ownerId: string | null): boolean {
  if (ownerId === null) return user.role === 'admin'
  return projectPermissionsOf(viewerOf(user), { owner_id: ownerId, is_case: false }).canEdit
}
