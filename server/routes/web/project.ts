import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { nullDatumSchema } from '../../../contract/common'
import {
  copyProjectBodySchema,
  createProjectBodySchema,
  projectCasesDatumSchema,
  projectCountsDatumSchema,
  projectIdBodySchema,
  projectInfoSchema,
  projectListBodySchema,
  projectPageSchema,
  projectSchema,
  projectShareDatumSchema,
  projectTokenDatumSchema,
  revokeProjectTokensDatumSchema,
  updateProjectBodySchema,
} from '../../../contract/project'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'

const readByIdBodySchema = projectIdBodySchema.extend({
  /** A project token instead of a user token, for public preview links. */
  project_token: z.string().max(100).optional(),
})

/** Projects (SPEC §7 "Project"): create, change, copy, delete, list, tokens and sharing. */
export function registerProjectRoutes(
  app: FastifyInstance,
  { projects }: Pick<ServerServices, 'projects'>,
): void {
  const createDescription =
    'Name, detailed address, cover (an uploadJpg uuid), description and the picked location are ' +
    'required (SPEC §5). Tile settings default to SPEC §9.'

  for (const url of ['/web/project/addProject', '/web/project/createProject']) {
    defineRoute(app, {
      method: 'POST',
      url,
      auth: 'editor',
      summary: 'Create a project (city or building)',
      description: createDescription,
      body: createProjectBodySchema,
      datum: projectSchema,
      handler: ({ body, user }) => projects.create(user, body),
    })
  }

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/updateProject',
    auth: 'editor',
    summary: 'Change a project of the caller (admins: any)',
    body: updateProjectBodySchema,
    datum: projectSchema,
    handler: ({ body, user }) => projects.update(user, body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/deleteProject',
    auth: 'editor',
    summary: 'Delete a project with its tokens; its files go once nothing else uses them',
    body: projectIdBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await projects.delete(user, body.id)
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/copyProject',
    auth: 'editor',
    summary: 'Copy a project (own, or an official case) into the caller’s projects',
    description:
      'The copy uses the same cover file; no bytes are duplicated. Without `name` the copy is ' +
      'named "<name> (copy)" in the language of the `language` cookie (ko "(사본)", zh "(副本)", ' +
      'en "(copy)"; ko without the cookie).',
    body: copyProjectBodySchema,
    datum: projectSchema,
    handler: ({ body, user, request }) =>
      projects.copy(user, {
        id: body.id,
        name: body.name ?? null,
        language: messageLanguageOf(request.headers.cookie),
      }),
  })

  const listDescription =
    'Paged (pageNo from 1, pageSize ≤ 100), sorted (updated_at, created_at or name) and ' +
    'searchable (keyword in name or detailed address). Editors see their own projects, admins ' +
    'all, guests the project cases.'
  for (const [url, summary] of [
    ['/web/project/findProjectAll', 'A page of the projects the caller may see'],
    ['/web/project/searchProject', 'Search the projects the caller may see'],
    ['/web/project/findProjectAllByUser', 'A page of one user’s projects (admins: anyone’s)'],
  ] as const) {
    defineRoute(app, {
      method: 'POST',
      url,
      auth: 'user',
      summary,
      description: listDescription,
      body: projectListBodySchema,
      datum: projectPageSchema,
      handler: ({ body, user }) => projects.list(user, body),
    })
  }

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/findProjectCounts',
    auth: 'user',
    summary: 'How many city and building projects the caller has',
    datum: projectCountsDatumSchema,
    handler: ({ user }) => projects.counts(user),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/findProjectCases',
    auth: 'user',
    summary: 'The official example projects (project case gallery)',
    datum: projectCasesDatumSchema,
    handler: ({ user }) => projects.cases(user),
  })

  for (const url of ['/web/project/findProject', '/web/project/findProjectOne']) {
    defineRoute(app, {
      method: 'POST',
      url,
      auth: 'public',
      summary: 'One project, by user token or by its project token',
      body: readByIdBodySchema,
      datum: projectSchema,
      handler: ({ body, user, request }) =>
        projects.findOne(callerOf(request, user, body.project_token), body.id),
    })
  }

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/findprojectinfoall',
    auth: 'public',
    summary: 'What the project info viewer shows, with the region path',
    body: readByIdBodySchema,
    datum: projectInfoSchema,
    handler: ({ body, user, request }) =>
      projects.info(callerOf(request, user, body.project_token), body.id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/getPTokenByprojectId',
    auth: 'user',
    summary: 'Issue a project token (30 days, revocable) for a project the caller may open',
    body: projectIdBodySchema,
    datum: projectTokenDatumSchema,
    handler: ({ body, user }) => projects.issueToken(user, body.id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/projectShareUrl',
    auth: 'editor',
    summary: 'A public preview address carrying a new project token',
    body: projectIdBodySchema,
    datum: projectShareDatumSchema,
    handler: ({ body, user }) => projects.shareUrl(user, body.id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/project/revokeProjectTokens',
    auth: 'editor',
    summary: 'Revoke every project token (and share link) of a project',
    body: projectIdBodySchema,
    datum: revokeProjectTokensDatumSchema,
    handler: async ({ body, user }) => ({ revoked: await projects.revokeTokens(user, body.id) }),
  })
}
