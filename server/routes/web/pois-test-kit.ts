import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import type { Envelope } from '../../../contract/envelope'
import type { MessageId } from '../../../contract/messages'
import { type PoiCallName, poiRoutes } from '../../../contract/pois'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import type { Template, TemplatePage } from '../../../contract/templates'
import { templateRoutes } from '../../../contract/templates'
import { callApi } from '../../testing/test-app'

/**
 * Helpers of the POI route tests (test-only): calls by name with the caller's token or a
 * project token, refusals by status and message id, and the project furniture POIs need
 * (floors, models, templates).
 */

/** An answer with the message id the envelope carries. */
export type Answer<Datum> = {
  statusCode: number
  envelope: Envelope<Datum> & { messageId?: MessageId; datum: Datum }
}

/** Who calls: a user token, a project token, or nobody. */
export type Caller = { token: string } | { projectToken: string } | undefined

/** Calls a POI route by name with a JSON body (`query` as a query string). */
export async function callPoi<Datum = unknown>(
  app: FastifyInstance,
  caller: Caller,
  name: PoiCallName,
  body: unknown,
  query?: string,
): Promise<Answer<Datum>> {
  const url = poiRoutes[name].path + (query === undefined ? '' : `?${query}`)
  return (await callApi<Datum>(app, {
    url,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
    ...(caller !== undefined && 'projectToken' in caller
      ? { headers: { projecttoken: caller.projectToken } }
      : {}),
  })) as Answer<Datum>
}

/** The datum of a call that must succeed. */
export async function okPoi<Datum>(
  app: FastifyInstance,
  caller: Caller,
  name: PoiCallName,
  body: unknown,
  query?: string,
): Promise<Datum> {
  const answer = await callPoi<Datum>(app, caller, name, body, query)
  if (answer.envelope.code !== '0') {
    throw new Error(
      `${name} failed: ${answer.statusCode} ${answer.envelope.message} ${JSON.stringify(answer.envelope.datum)}`,
    )
  }
  return answer.envelope.datum
}

/** Asserts a refusal: HTTP status and (when given) message id. */
export function expectRefused(answer: Answer<unknown>, statusCode: number, messageId?: MessageId) {
  expect(answer.statusCode, answer.envelope.message).toBe(statusCode)
  if (messageId !== undefined) expect(answer.envelope.messageId).toBe(messageId)
}

/** Adds floors to a building project (as a structure upload would), answering their ids. */
export async function addFloors(
  app: FastifyInstance,
  projectId: string,
  names: readonly string[],
): Promise<string[]> {
  const now = new Date().toISOString()
  const ids = names.map(() => randomUUID())
  await app.deps.database.db
    .insertInto('building_floors')
    .values(
      names.map((name, index) => ({
        id: ids[index]!,
        project_id: projectId,
        name,
        elevation: index * 3,
        sort_order: index,
        floor_key: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute()
  return ids
}

/** Adds a monomer (GIS model) to a city project, answering its id. */
export async function addMonomer(
  app: FastifyInstance,
  projectId: string,
  modelname: string,
): Promise<string> {
  const id = randomUUID()
  const now = new Date().toISOString()
  await app.deps.database.db
    .insertInto('gis_models')
    .values({
      id,
      project_id: projectId,
      tileset_id: null,
      modelname,
      feature_ids_json: '[1,2]',
      properties_json: '{}',
      created_at: now,
      updated_at: now,
    })
    .execute()
  return id
}

/** The seeded library's 2D camera template (static attributes brand, stream_url). */
export async function libraryCamera(app: FastifyInstance, token: string): Promise<Template> {
  const answer = await callApi<TemplatePage>(app, {
    url: templateRoutes.selectTemplatePage.path,
    token,
    json: { keyword: 'CAM-2D' },
  })
  const camera = answer.envelope.datum.list.find((t) => t.poicategory_code === 'CAM-2D')
  if (!camera) throw new Error('no seeded camera template')
  return camera
}

/** A template of the caller's own, under the 2D root, with one static attribute. */
export async function ownTemplate(
  app: FastifyInstance,
  token: string,
  icon: string,
  code: string,
): Promise<Template> {
  const created = await callApi<Template>(app, {
    url: templateRoutes.createTemplate.path,
    token,
    json: { name: `Sensor ${code}`, poicategory_code: code, piddes: '1', iconpath: icon },
  })
  if (created.envelope.code !== '0') throw new Error(`template: ${created.envelope.message}`)
  const property = await callApi(app, {
    url: templateRoutes.createProperty.path,
    token,
    json: {
      poicategoryid: created.envelope.datum.id,
      property_column: 'range_m',
      column_des: 'Range',
      column_example: '30',
    },
  })
  if (property.envelope.code !== '0') throw new Error(`property: ${property.envelope.message}`)
  return created.envelope.datum
}

/** A project token for a project (as a share link holds). */
export async function projectTokenOf(
  app: FastifyInstance,
  token: string,
  project: Project,
): Promise<string> {
  const issued = await callApi<ProjectTokenDatum>(app, {
    url: '/web/project/getPTokenByprojectId',
    token,
    json: { id: project.id },
  })
  if (issued.envelope.code !== '0') throw new Error(`token: ${issued.envelope.message}`)
  return issued.envelope.datum.project_token
}

/** Counts the rows of a POI table (optionally of one project). */
export async function countPois(app: FastifyInstance, projectId?: string): Promise<number> {
  let query = app.deps.database.db.selectFrom('pois').select((eb) => eb.fn.countAll().as('count'))
  if (projectId !== undefined) query = query.where('project_id', '=', projectId)
  return Number((await query.executeTakeFirstOrThrow()).count)
}
