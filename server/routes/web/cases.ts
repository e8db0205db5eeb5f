import type { FastifyInstance } from 'fastify'
import { caseRoutes } from '../../../contract/cases'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'

/** The curated project cases (SPEC §7 `/case` menu and detail): admins change, all read. */
export function registerCaseRoutes(
  app: FastifyInstance,
  { cases }: Pick<ServerServices, 'cases'>,
): void {
  defineRoute(app, caseRoutes.addCaseMenu, { handler: ({ body }) => cases.addMenu(body) })
  defineRoute(app, caseRoutes.updateCaseMenu, { handler: ({ body }) => cases.updateMenu(body) })
  defineRoute(app, caseRoutes.deleteCaseMenu, {
    handler: async ({ body }) => {
      await cases.deleteMenu(body.id)
      return null
    },
  })
  defineRoute(app, caseRoutes.findCaseMenu, { handler: () => cases.findMenus() })
  defineRoute(app, caseRoutes.addCaseDetail, {
    handler: ({ body, user }) => cases.addDetail(user, body),
  })
  defineRoute(app, caseRoutes.updateCaseDetail, {
    handler: ({ body, user }) => cases.updateDetail(user, body),
  })
  defineRoute(app, caseRoutes.deleteCaseDetail, {
    handler: async ({ body }) => {
      await cases.deleteDetail(body.id)
      return null
    },
  })
  defineRoute(app, caseRoutes.findCaseDetail, {
    handler: ({ body, user }) => cases.findDetails(user, body.menu_id),
  })
}
