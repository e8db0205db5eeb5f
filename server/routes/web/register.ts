import type { FastifyInstance } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { authRoutes } from '../../../contract/auth'

/** Sign-up by phone or e-mail code and password reset (SPEC §7 "/register/…"). */
export function registerRegisterRoutes(app: FastifyInstance): void {
  const { registration } = app.deps.services

  defineRoute(app, authRoutes.verificationSms, {
    handler: async ({ body, request }) => {
      await registration.requestSmsCode({
        ...body,
        clientAddress: request.ip,
        language: messageLanguageOf(request.headers.cookie),
      })
      return null
    },
  })

  defineRoute(app, authRoutes.verificationMail, {
    handler: async ({ body, request }) => {
      await registration.requestMailCode({
        ...body,
        clientAddress: request.ip,
        language: messageLanguageOf(request.headers.cookie),
      })
      return null
    },
  })

  defineRoute(app, authRoutes.registerByTelNo, {
    handler: ({ body }) => registration.registerByTel(body),
  })

  defineRoute(app, authRoutes.registerbymail, {
    handler: ({ body }) => registration.registerByMail(body),
  })

  defineRoute(app, authRoutes.forgetPasswordByTelNo, {
    handler: async ({ body }) => {
      await registration.resetPasswordByTel(body)
      return null
    },
  })

  defineRoute(app, authRoutes.forgetPasswordVer, {
    handler: async ({ body }) => {
      await registration.checkResetCode(body)
      return null
    },
  })

  defineRoute(app, authRoutes.isexistemail, {
    handler: async ({ body, request }) => ({
      exists: await registration.isEmailRegistered({ ...body, clientAddress: request.ip }),
    }),
  })
}
