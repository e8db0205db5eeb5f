import { AppError, fieldError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import { createProjectsRepository } from '../projects.repository'
import type { ProjectCaller, ProjectsService } from '../projects.service'
import type { AuthUser } from '../users.service'

/** Who may change and who may read a city project's records. */
export interface CityAccess {
  /**
   * The project if the user may change it (owner or admin) and it is a city project:
   * `notFound` if it does not exist, `forbidden` if it is someone else's.
   */
  requireEditable(user: AuthUser, projectId: string): Promise<{ id: string; ownerId: string }>
  /**
   * The project a read is about: `project_id` checked against the caller (owner, admin, the
   * official cases, or a matching project token), or the project the token opens.
   */
  resolveReadable(caller: ProjectCaller | null, projectId: string | undefined): Promise<string>
}

/** Builds the access checks on the projects' own rules (projects.service.ts). */
export function createCityAccess(dependencies: {
  database: DatabaseHandle
  projects: ProjectsService
}): CityAccess {
  const { database, projects } = dependencies
  const repository = createProjectsRepository(database.db, database.dialect)
  return {
    async requireEditable(user, projectId) {
      const project = await repository.findById(projectId)
      if (!project) throw new AppError('notFound', 'project.notFound')
      if (project.owner_id !== user.id && user.role !== 'admin') {
        throw new AppError('forbidden', 'project.foreign')
      }
      if (project.kind !== 'city') {
        throw new AppError('validation', 'project.cityOnly')
      }
      return { id: project.id, ownerId: project.owner_id }
    },
    async resolveReadable(caller, projectId) {
      if (caller === null) {
        throw new AppError('sessionTimeout', 'project.signInOrToken')
      }
      if (projectId !== undefined) {
        await projects.findOne(caller, projectId)
        return projectId
      }
      if ('projectToken' in caller) {
        const opened = await projects.verifyProjectToken(caller.projectToken)
        if (opened === undefined) throw new AppError('forbidden', 'project.tokenInvalid')
        return opened
      }
      throw fieldError('validation', 'project_id', 'validation.required')
    },
  }
}
