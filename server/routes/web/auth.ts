import type { FastifyInstance } from 'fastify'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { tokenOf } from '../../plugins/auth'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { toPublicUser } from '../../modules/accounts/users.service'
import { authRoutes } from '../../../contract/auth'

/** Sign-in, token refresh and sign-out (SPEC §7 "Auth and user"). */
export function registerAuthRoutes(app: FastifyInstance): void {
  const { auth, signInGuard, signInCodes } = app.deps.services

  defineRoute(app, authRoutes.login, {
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

  defineRoute(app, authRoutes.sendCode, {
    handler: async ({ body, request }) => {
      await signInCodes.send(body.name, request.ip, messageLanguageOf(request.headers.cookie))
      return null
    },
  })

  defineRoute(app, authRoutes.refreshToken, {
    handler: async ({ request }) => {
      await auth.refresh(request.sessionId as string)
      return { token: tokenOf(request) as string }
    },
  })

  defineRoute(app, authRoutes.logout, {
    handler: async ({ request }) => {
      await auth.logout(request.sessionId as string)
      return null
    },
  })
}
