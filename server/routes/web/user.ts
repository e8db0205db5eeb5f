import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { userRoutes } from '../../../contract/user'

/** The signed-in user's own account, and account management for admins (SPEC §7 "/user/"). */
export function registerUserRoutes(app: FastifyInstance): void {
  const { users, userAccounts } = app.deps.services

  defineRoute(app, userRoutes.findUserName, {
    handler: ({ user }) => users.getUser(user.id),
  })

  // SPEC §7 lists both spellings; old clients use the lower-case one.
  for (const route of [userRoutes.updateUser, userRoutes.updateuser]) {
    defineRoute(app, route, {
      handler: ({ body, user }) => userAccounts.updateProfile(user, body),
    })
  }

  defineRoute(app, userRoutes.updateUserPassword, {
    handler: async ({ body, user, request }) => {
      await userAccounts.changePassword(
        user,
        { sessionId: request.sessionId as string, clientAddress: request.ip },
        body,
      )
      return null
    },
  })

  defineRoute(app, userRoutes.selectUser, {
    handler: ({ body }) => userAccounts.list(body),
  })

  defineRoute(app, userRoutes.insertUser, {
    handler: ({ body }) => userAccounts.insert(body),
  })

  defineRoute(app, userRoutes.disableUser, {
    handler: ({ body, user }) => userAccounts.setDisabled(user, body.id, body.disabled),
  })

  defineRoute(app, userRoutes.deleteUser, {
    handler: async ({ body, user }) => {
      await userAccounts.delete(user, body.id)
      return null
    },
  })
}
