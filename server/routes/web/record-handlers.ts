import type { FastifyRequest } from 'fastify'
import type { AuthUser } from '../../modules/accounts/users.service'
import type { ProjectCaller } from '../../modules/projects/projects.service'
import { callerOrNullOf } from './project-caller'

/**
 * The two route handlers most record areas share (library models, view tour, drawings, anchors,
 * tilesets, materials …): listing a project's records for whoever may read them, and deleting
 * one record by id. Each area's route file keeps only what is its own.
 */

/** A service that lists a project's records; it decides whether the caller may read them. */
interface ProjectRecordList<Records> {
  list(caller: ProjectCaller | null, projectId: string | undefined): Promise<Records>
}

/**
 * The handler of a public list route: the signed-in user, else the holder of the project token
 * (body field or header), else nobody, asks for the project's records.
 */
export function listProjectRecords<Records>(service: ProjectRecordList<Records>) {
  return ({
    body,
    user,
    request,
  }: {
    body: { project_id?: string | undefined; project_token?: string | undefined }
    user: AuthUser | null
    request: FastifyRequest
  }): Promise<Records> =>
    service.list(callerOrNullOf(request, user, body.project_token), body.project_id)
}

/** A service that deletes one record by id for a signed-in editor (it checks the access). */
interface RecordRemoval {
  remove(user: AuthUser, id: string): Promise<unknown>
}

/** The handler of a delete route: removes the record the body's `id` names; no datum. */
export function removeRecordById(service: RecordRemoval) {
  return async ({ body, user }: { body: { id: string }; user: AuthUser }): Promise<null> => {
    await service.remove(user, body.id)
    return null
  }
}
