import type { FastifyInstance } from 'fastify'
import { styleRoutes } from '../../../contract/style'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'

/** The global style setting of projects (SPEC §7 `/globalsetting/find|add|del|update`). */
export function registerStyleRoutes(
  app: FastifyInstance,
  { style }: Pick<ServerServices, 'style'>,
): void {
  defineRoute(app, styleRoutes.findGlobalSetting, {
    handler: ({ body, user, request }) =>
      style.find(callerOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, styleRoutes.addGlobalSetting, {
    handler: ({ body, user }) => style.add(user, body.project_id, body.setting),
  })
  defineRoute(app, styleRoutes.updateGlobalSetting, {
    handler: ({ body, user }) => {
      const { version: _version, ...patch } = body.setting
      return style.update(user, body.project_id, patch)
    },
  })
  defineRoute(app, styleRoutes.deleteGlobalSetting, {
    handler: ({ body, user }) => style.remove(user, body.project_id),
  })
}
