import type { FastifyInstance } from 'fastify'
import { loginBodySchema, loginDatumSchema, refreshTokenDatumSchema } from '../../../contract/auth'
import { nullDatumSchema } from '../../../contract/common'
import { defineRoute } from '../../http/define-route'
import { tokenOf } from '../../plugins/auth'
import { toPublicUser } from '../../modules/users.service'

/** Sign-in, token refresh and sign-out (SPEC §7 "Auth and user"). */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { auth } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/login',
    auth: 'public',
    tags: ['auth'],
    summary: 'Sign in with user name and password',
    description:
      'Answers the token to send in the `Token` header. A wrong name or password answers ' +
      '`badCredentials` with the same message either way.',
    body: loginBodySchema,
    datum: loginDatumSchema,
    handler: async ({ body }) => {
      const { token, user } = await auth.login(body.name, body.password)
      return { token, user: toPublicUser(user) }
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/refreshToken',
    auth: 'user',
    tags: ['auth'],
    summary: 'Start the idle window of the current token again',
    description:
      'Answers the same token. The absolute lifetime (TOKEN_LIFETIME_HOURS) still applies.',
    datum: refreshTokenDatumSchema,
    handler: async ({ request }) => {
      await auth.refresh(request.sessionId as string)
      return { token: tokenOf(request) as string }
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/logout',
    auth: 'user',
    tags: ['auth'],
    summary: 'Sign out: the token stops working',
    datum: nullDatumSchema,
    handler: async ({ request }) => {
      await auth.logout(request.sessionId as string)
      return null
    },
  })
}
