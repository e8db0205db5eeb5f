import type { FastifyInstance } from 'fastify'
import { findUserNameDatumSchema } from '../../../contract/user'
import { defineRoute } from '../../http/define-route'

/** The signed-in user's own account (SPEC §7 "/user/"). */
export function registerUserRoutes(app: FastifyInstance): void {
  const { users } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/user/findUserName',
    auth: 'user',
    summary: 'The signed-in user',
    description: 'Takes an empty payload and answers the user data in datum (SPEC §7).',
    datum: findUserNameDatumSchema,
    handler: ({ user }) => users.getUser(user.id),
  })
}
