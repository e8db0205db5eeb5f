import type { FastifyInstance } from 'fastify'
import {
  forgetPasswordByTelBodySchema,
  forgetPasswordVerBodySchema,
  isExistEmailBodySchema,
  isExistEmailDatumSchema,
  registerByMailBodySchema,
  registerByTelBodySchema,
  registerDatumSchema,
  verificationMailBodySchema,
  verificationSmsBodySchema,
} from '../../../contract/auth'
import { nullDatumSchema } from '../../../contract/common'
import { defineRoute } from '../../http/define-route'
import { messageLanguageOf } from '../../modules/messaging/message-texts'

const codeRules =
  'Codes have 6 digits, work for 10 minutes and survive 5 wrong entries; only the newest code ' +
  'of a phone or address works. '
const language =
  'The message is written in the language of the `language` cookie (ko, zh or en; default ko). '
const limits =
  'A new code for the same recipient only 60 s after the previous one, and a limited number ' +
  'per recipient and per client address per hour: otherwise `rateLimited` with ' +
  '`datum.retryAfterSeconds`. The answer is the same whether the recipient has an account or ' +
  'not. Codes are delivered by the message provider (the local outbox by default), never in ' +
  'the answer.'

/** Sign-up by phone or e-mail code and password reset (SPEC §7 "/register/…"). */
export function registerRegisterRoutes(app: FastifyInstance): void {
  const { registration } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/verificationSms',
    auth: 'public',
    summary: 'Send a sign-up or password-reset code by SMS',
    description: `${codeRules}${language}${limits}`,
    body: verificationSmsBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, request }) => {
      await registration.requestSmsCode({
        ...body,
        clientAddress: request.ip,
        language: messageLanguageOf(request.headers.cookie),
      })
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/verificationMail',
    auth: 'public',
    summary: 'Send a sign-up code by e-mail',
    description: `${codeRules}${language}${limits}`,
    body: verificationMailBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, request }) => {
      await registration.requestMailCode({
        ...body,
        clientAddress: request.ip,
        language: messageLanguageOf(request.headers.cookie),
      })
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/registerByTelNo',
    auth: 'public',
    summary: 'Create an editor account with a phone code, and sign it in',
    description:
      'The name is the phone number unless `name` is given. The password has 8–128 ' +
      'characters and is not a common one; a wrong code answers `validation` on `code`.',
    body: registerByTelBodySchema,
    datum: registerDatumSchema,
    handler: ({ body }) => registration.registerByTel(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/registerbymail',
    auth: 'public',
    summary: 'Create an editor account with an e-mail code, and sign it in',
    description: 'The name is the e-mail address unless `name` is given.',
    body: registerByMailBodySchema,
    datum: registerDatumSchema,
    handler: ({ body }) => registration.registerByMail(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/forgetPasswordByTelNo',
    auth: 'public',
    summary: 'Set a new password with a reset code sent by SMS',
    description: 'Every open session of the account ends; any sign-in lock is lifted.',
    body: forgetPasswordByTelBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body }) => {
      await registration.resetPasswordByTel(body)
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/forgetPasswordVer',
    auth: 'public',
    summary: 'Check a password-reset code without using it up',
    description: 'A right code costs no try and still works for forgetPasswordByTelNo.',
    body: forgetPasswordVerBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body }) => {
      await registration.checkResetCode(body)
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/register/isexistemail',
    auth: 'public',
    summary: 'Whether an account uses an e-mail address',
    description:
      'Limited per client address per hour (ACCOUNT_CHECKS_PER_IP_PER_HOUR), so nobody lists ' +
      'accounts faster than that.',
    body: isExistEmailBodySchema,
    datum: isExistEmailDatumSchema,
    handler: async ({ body, request }) => ({
      exists: await registration.isEmailRegistered({ ...body, clientAddress: request.ip }),
    }),
  })
}
