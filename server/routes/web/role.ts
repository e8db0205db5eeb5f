import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { roleRoutes } from '../../../contract/role'

/** Role management (admin) and the role-menu lookup (SPEC §6, §7 "/role", "/roleMenu"). */
export function registerRoleRoutes(app: FastifyInstance): void {
  const { roles } = app.deps.services

  defineRoute(app, roleRoutes.add, {
    handler: ({ body }) => roles.add(body),
  })

  defineRoute(app, roleRoutes.edit, {
    handler: ({ body }) => roles.edit(body),
  })

  defineRoute(app, roleRoutes.delete, {
    handler: async ({ body }) => {
      await roles.delete(body.id)
      return null
    },
  })

  defineRoute(app, roleRoutes.findOne, {
    handler: ({ body }) => roles.find(body.id),
  })

  defineRoute(app, roleRoutes.findAll, {
    handler: () => roles.list(),
  })

  defineRoute(app, roleRoutes.search, {
    handler: ({ body }) => roles.search(body),
  })

  defineRoute(app, roleRoutes.selectRoleMenu_Vue, {
    handler: ({ user }) => roles.menuKeysOf(user),
  })
}
