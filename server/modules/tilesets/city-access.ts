import { AppError } from '../../http/app-error'
import type { Database } from '../../plugins/db'
import type { GrantReader, ProjectAccess, ReadableProject } from '../access/project-access'
import type { ProjectCaller } from '../projects/projects.service'
import type { AuthUser } from '../accounts/users.service'

/** Who may change and who may read a city project's records (the rule: project-access.ts). */
export interface CityAccess {
  /**
   * The project if the user may change it (owner or admin) and it is a city project:
   * `notFound` if it does not exist, `forbidden` if it is someone else's.
   */
  requireEditable(user: AuthUser, projectId: string): Promise<{ id: string; ownerId: string }>
  /**
   * Locks the project's row for the rest of `transaction` (after `requireEditable`), so checks
   * made inside it (a count, a unique name) hold until it commits.
   */
  lockEditable(transaction: Database, user: AuthUser, projectId: string): Promise<void>
  /**
   * The project a read is about: `project_id` checked against the caller (owner, admin, the
   * official cases, or a matching project token), or the project the token opens.
   */
  resolveReadable(
    caller: ProjectCaller | null,
    projectId: string | undefined,
  ): Promise<ReadableProject>
  /** A file address grant for a resource of a project read as `reader` (project-access.ts). */
  fileGrant(resource: string, reader: GrantReader): string
  /** Whether a grant still opens the resource (signed, not expired, its token still live). */
  checkFileGrant(resource: string, grant: string): Promise<boolean>
}

/** The city's checks on the one project access module, plus the city-only kind check. */
export function createCityAccess(dependencies: { access: ProjectAccess }): CityAccess {
  const { access } = dependencies
  return {
    async requireEditable(user, projectId) {
      const project = await access.requireEditable(user, projectId)
      if (project.kind !== 'city') {
        throw new AppError('validation', 'project.cityOnly')
      }
      return { id: project.id, ownerId: project.owner_id }
    },
    lockEditable: (transaction, user, projectId) =>
      access.lockEditable(transaction, user, projectId),
    resolveReadable: (caller, projectId) => access.resolveReadable(caller, projectId),
    fileGrant: (resource, reader) => access.fileGrant(resource, reader),
    checkFileGrant: (resource, grant) => access.checkFileGrant(resource, grant),
  }
}
