import type { FastifyInstance } from 'fastify'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'
import { projectBodyMaxBytes, projectRoutes } from '../../../contract/project'

/** Projects (SPEC §7 "Project"): create, change, copy, delete, list, tokens and sharing. */
export function registerProjectRoutes(
  app: FastifyInstance,
  { projects }: Pick<ServerServices, 'projects'>,
): void {
  for (const route of [projectRoutes.addProject, projectRoutes.createProject]) {
    defineRoute(app, route, {
      bodyLimitBytes: projectBodyMaxBytes,
      handler: ({ body, user }) => projects.create(user, body),
    })
  }

  defineRoute(app, projectRoutes.updateProject, {
    bodyLimitBytes: projectBodyMaxBytes,
    handler: ({ body, user }) => projects.update(user, body),
  })

  defineRoute(app, projectRoutes.deleteProject, {
    handler: async ({ body, user }) => {
      await projects.delete(user, body.id)
      return null
    },
  })

  defineRoute(app, projectRoutes.copyProject, {
    handler: ({ body, user, request }) =>
      projects.copy(user, {
        id: body.id,
        name: body.name ?? null,
        language: messageLanguageOf(request.headers.cookie),
      }),
  })

  for (const route of [
    projectRoutes.findProjectAll,
    projectRoutes.searchProject,
    projectRoutes.findProjectAllByUser,
  ]) {
    defineRoute(app, route, {
      handler: ({ body, user }) => projects.list(user, body),
    })
  }

  defineRoute(app, projectRoutes.findProjectCounts, {
    handler: ({ user }) => projects.counts(user),
  })

  defineRoute(app, projectRoutes.findProjectCases, {
    handler: ({ user }) => projects.cases(user),
  })

  for (const route of [projectRoutes.findProject, projectRoutes.findProjectOne]) {
    defineRoute(app, route, {
      handler: ({ body, user, request }) =>
        projects.findOne(callerOf(request, user, body.project_token), body.id),
    })
  }

  defineRoute(app, projectRoutes.findprojectinfoall, {
    handler: ({ body, user, request }) =>
      projects.info(callerOf(request, user, body.project_token), body.id),
  })

  defineRoute(app, projectRoutes.getPTokenByprojectId, {
    handler: ({ body, user }) => projects.issueToken(user, body.id),
  })

  defineRoute(app, projectRoutes.projectShareUrl, {
    handler: ({ body, user }) => projects.shareUrl(user, body.id),
  })

  defineRoute(app, projectRoutes.revokeProjectTokens, {
    handler: async ({ body, user }) => ({ revoked: await projects.revokeTokens(user, body.id) }),
  })
}
