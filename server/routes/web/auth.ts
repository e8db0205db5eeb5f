import type { FastifyInstance } from 'fastify'
import { loginBodySchema, loginDatumSchema, refreshTokenDatumSchema } from '../../../contract/auth'
import { nullDatumSchema } from '../../../contract/common'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { tokenOf } from '../../plugins/auth'
import { toPublicUser } from '../../modules/users.service'

/** Sign-in, token refresh and sign-out (SPEC §7 "Auth and user"). */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { auth, signInGuard } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/login',
    auth: 'public',
    tags: ['auth'],
    summary: 'Sign in with user name and password',
    description:
      'Answers the token to send in the `Token` header. A wrong name or password answers ' +
      '`badCredentials` with the same message either way. Failures in a row first slow an ' +
      'account name, then lock it; a client address has an hourly failure budget. Both are ' +
      'checked before any password is hashed and answer `rateLimited` with ' +
      '`datum.retryAfterSeconds`.',
    body: loginBodySchema,
    datum: loginDatumSchema,
    handler: async ({ body, request }) => {
      const attempt = await signInGuard.begin(body.name, request.ip)
      let signedIn: Awaited<ReturnType<typeof auth.login>>
      try {
        signedIn = await auth.login(body.name, body.password)
      } catch (error) {
        // `forbidden` (a disabled account) comes only after the password proved right.
        const isRightPassword = error instanceof AppError && error.kind === 'forbidden'
        await (isRightPassword ? attempt.succeeded() : attempt.failed())
        throw error
      }
      await attempt.succeeded()
      return { token: signedIn.token, user: toPublicUser(signedIn.user) }
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
