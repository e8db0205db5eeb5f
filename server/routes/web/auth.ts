import type { FastifyInstance } from 'fastify'
import {
  loginBodySchema,
  loginDatumSchema,
  refreshTokenDatumSchema,
  signInCodeBodySchema,
} from '../../../contract/auth'
import { nullDatumSchema } from '../../../contract/common'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { tokenOf } from '../../plugins/auth'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { toPublicUser } from '../../modules/accounts/users.service'

/** Sign-in, token refresh and sign-out (SPEC §7 "Auth and user"). */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { auth, signInGuard, signInCodes } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/login',
    auth: 'public',
    tags: ['auth'],
    summary: 'Sign in with user name and password',
    description:
      'Answers the token to send in the `Token` header. A wrong name or password answers ' +
      '`badCredentials` with the same message either way. Failures in a row from one client ' +
      'address first slow it, then lock that address out of the name; many failures on a name ' +
      'from anywhere slow every attempt on it (growing delays, no lock); a client address has ' +
      'an hourly failure budget. All are checked before any password is hashed and answer ' +
      '`rateLimited` with `datum.retryAfterSeconds`, and `datum.secondFactor: "code"` when a ' +
      'code from `/web/login/sendCode`, sent with the password as `code`, lets the owner in now.',
    body: loginBodySchema,
    datum: loginDatumSchema,
    handler: async ({ body, request }) => {
      // A right code proves the account's phone before the password is even looked at.
      if (body.code !== undefined) await signInCodes.check(body.name, body.code)
      const attempt = await signInGuard.begin(body.name, request.ip, {
        hasSecondFactor: body.code !== undefined,
      })
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
      if (body.code !== undefined) await signInCodes.consume(body.name, body.code)
      return { token: signedIn.token, user: toPublicUser(signedIn.user) }
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/login/sendCode',
    auth: 'public',
    tags: ['auth'],
    summary: 'Send a sign-in code while an account’s sign-ins are held back',
    description:
      'When `/web/login` answered `rateLimited` with `secondFactor: "code"`, sends a code to the ' +
      'account’s phone (else its e-mail), in the language of the `language` cookie. Answers the ' +
      'same whether or not the name exists or anything was sent; once a minute and a few times ' +
      'an hour per name and per client address, else `rateLimited`.',
    body: signInCodeBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, request }) => {
      await signInCodes.send(body.name, request.ip, messageLanguageOf(request.headers.cookie))
      return null
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
