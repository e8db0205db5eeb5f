import type { FastifyInstance, FastifyRequest } from 'fastify'
import { defineRoute } from '../../http/define-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'
import { authRoutes } from '../../../contract/auth'
import type { AuthUser } from '../../modules/accounts/users.service'
import type { ContactChange } from '../../modules/accounts/registration.service'

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

  // A new phone or e-mail of the signed-in person, confirmed by a code sent to it (issue 21).
  const sendContactCode = async (
    user: AuthUser,
    request: FastifyRequest,
    change: ContactChange,
  ): Promise<null> => {
    await registration.requestContactChangeCode(user, {
      ...change,
      clientAddress: request.ip,
      language: messageLanguageOf(request.headers.cookie),
    })
    return null
  }
  defineRoute(app, authRoutes.sendPhoneChangeCode, {
    handler: ({ body, user, request }) =>
      sendContactCode(user, request, { field: 'tel', address: body.tel }),
  })
  defineRoute(app, authRoutes.sendEmailChangeCode, {
    handler: ({ body, user, request }) =>
      sendContactCode(user, request, { field: 'email', address: body.email }),
  })
  defineRoute(app, authRoutes.changePhone, {
    handler: ({ body, user }) =>
      registration.confirmContactChange(user, { field: 'tel', address: body.tel, code: body.code }),
  })
  defineRoute(app, authRoutes.changeEmail, {
    handler: ({ body, user }) =>
      registration.confirmContactChange(user, {
        field: 'email',
        address: body.email,
        code: body.code,
      }),
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
