import { nullDatumSchema } from './common'
import { z } from 'zod'
import { zodMessage } from './messages'
import { emailSchema, newPasswordSchema, passwordMaxLength, telSchema, userSchema } from './user'
import { webRoute } from './route'

export {
  emailSchema,
  newPasswordSchema,
  passwordMaxLength,
  passwordMinLength,
  telSchema,
} from './user'

/** `POST /web/login` input. The password is checked, not validated, so old passwords still work. */
export const loginBodySchema = z.object({
  name: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(passwordMaxLength),
  /**
   * A sign-in code from `/web/login/sendCode`, when a `rateLimited` answer said
   * `secondFactor: 'code'`: with it the owner signs in at once, whoever else is guessing.
   */
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code has 6 digits.')
    .optional(),
})
export type LoginBody = z.input<typeof loginBodySchema>

/** `POST /web/login` answer: the opaque token to send in the `Token` header, and who signed in. */
export const loginDatumSchema = z.object({ token: z.string(), user: userSchema })
export type LoginDatum = z.infer<typeof loginDatumSchema>

/** `POST /web/refreshToken` answer: the same token, whose idle window starts again. */
export const refreshTokenDatumSchema = z.object({ token: z.string() })

/** Header that carries the user token on every call (SPEC §6). */
export const tokenHeaderName = 'Token'

/** Digits in a verification code (decisions.md "Accounts"). */
export const verificationCodeLength = 6
/** How long a code stays valid. */
export const verificationCodeValidityMs = 10 * 60_000
/** Wrong entries a code survives; the next code must then be requested. */
export const verificationCodeMaxTries = 5
/** SPEC's again_second: a new code for the same phone or address only after this long. */
export const verificationResendIntervalMs = 60_000

/** A 6-digit verification code as typed (surrounding spaces are forgiven). */
export const verificationCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, `The code has ${verificationCodeLength} digits.`)

/** What an SMS code is for. */
export const smsPurposeSchema = z.enum(['register', 'forget'])
export type SmsPurpose = z.infer<typeof smsPurposeSchema>

/**
 * `POST /web/register/verificationSms`. The answer is the same whether the phone has an account
 * or not (an SMS explains the case to the phone's owner), so it cannot be used to probe numbers.
 * Too soon after the previous code it answers `rateLimited` with
 * {@link rateLimitedDatumSchema} `datum.retryAfterSeconds`.
 */
export const verificationSmsBodySchema = z.object({ tel: telSchema, purpose: smsPurposeSchema })
export type VerificationSmsBody = z.input<typeof verificationSmsBodySchema>

/** `POST /web/register/verificationMail`: a sign-up code sent to an e-mail address. */
export const verificationMailBodySchema = z.object({ email: emailSchema })
export type VerificationMailBody = z.input<typeof verificationMailBodySchema>

/** Optional account name at sign-up; without it the phone number (or e-mail) is the name. */
const accountNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\s]+$/, zodMessage('input.userNameSpaces'))

/** `POST /web/register/registerByTelNo`: creates an editor account and signs it in. */
export const registerByTelBodySchema = z.object({
  tel: telSchema,
  code: verificationCodeSchema,
  password: newPasswordSchema,
  name: accountNameSchema.optional(),
})
export type RegisterByTelBody = z.input<typeof registerByTelBodySchema>

/** `POST /web/register/registerbymail`: the same with an e-mail code. */
export const registerByMailBodySchema = z.object({
  email: emailSchema,
  code: verificationCodeSchema,
  password: newPasswordSchema,
  name: accountNameSchema.optional(),
})
export type RegisterByMailBody = z.input<typeof registerByMailBodySchema>

/** Answer of the sign-up calls: the new account is signed in. */
export const registerDatumSchema = loginDatumSchema

/** `POST /web/register/forgetPasswordByTelNo`: sets a new password; every open session ends. */
export const forgetPasswordByTelBodySchema = z.object({
  tel: telSchema,
  code: verificationCodeSchema,
  password: newPasswordSchema,
})
export type ForgetPasswordByTelBody = z.input<typeof forgetPasswordByTelBodySchema>

/**
 * `POST /web/register/forgetPasswordVer`: checks a `forget` code before the new password is
 * typed. A right code stays usable; a wrong one costs one of its tries.
 */
export const forgetPasswordVerBodySchema = z.object({
  tel: telSchema,
  code: verificationCodeSchema,
})
export type ForgetPasswordVerBody = z.input<typeof forgetPasswordVerBodySchema>

/** `POST /web/register/isexistemail` (rate-limited per address of the caller). */
export const isExistEmailBodySchema = z.object({ email: emailSchema })
/** Whether an account uses the address. */
export const isExistEmailDatumSchema = z.object({ exists: z.boolean() })

/**
 * `POST /web/user/sendPhoneChangeCode` and `sendEmailChangeCode` (issue 21): a code to the phone
 * or e-mail address the signed-in person wants to use instead; refused (`conflict`) when another
 * account has it. Limited like the sign-up codes.
 */
export const sendPhoneChangeCodeBodySchema = z.object({ tel: telSchema })
export const sendEmailChangeCodeBodySchema = z.object({ email: emailSchema })
/** `POST /web/user/changePhone` and `changeEmail`: the new phone or address and its code. */
export const changePhoneBodySchema = sendPhoneChangeCodeBodySchema.extend({
  code: verificationCodeSchema,
})
export const changeEmailBodySchema = sendEmailChangeCodeBodySchema.extend({
  code: verificationCodeSchema,
})

/** `POST /web/login/guest` answer: a short-lived, read-only guest session. */
export const guestLoginDatumSchema = loginDatumSchema

/** Lifetime of a sign-in ticket (`/web/user/createTicket`). */
export const ticketLifetimeMs = 60_000

/** `POST /web/user/createTicket` answer: a one-time ticket for `GET /web/getTokenByTicket`. */
export const createTicketDatumSchema = z.object({
  ticket: z.string(),
  /** ISO time after which the ticket no longer works. */
  expires_at: z.string(),
})
export type CreateTicketDatum = z.infer<typeof createTicketDatumSchema>

/** `GET /web/getTokenByTicket?ticket=` query. */
export const getTokenByTicketQuerySchema = z.object({ ticket: z.string().min(1).max(128) })
/** Its answer: a new token of the ticket's user. */
export const getTokenByTicketDatumSchema = loginDatumSchema

/**
 * `datum` of a `rateLimited` answer (code '1029'): whole seconds until the call may succeed,
 * e.g. the SMS resend countdown. The `Retry-After` header carries the same number.
 */
export const rateLimitedDatumSchema = z.object({
  retryAfterSeconds: z.number().int().min(1),
  /**
   * On a held-back sign-in: a code sent to the account's phone or e-mail
   * (`/web/login/sendCode`) lets the owner in now instead of waiting.
   */
  secondFactor: z.literal('code').optional(),
})

/**
 * `POST /web/login/sendCode`: while an account's sign-ins are held back, sends a sign-in code to
 * its phone (else its e-mail). Answers the same whether or not anything was sent.
 */
export const signInCodeBodySchema = z.object({ name: z.string().trim().min(1).max(64) })
export type RateLimitedDatum = z.infer<typeof rateLimitedDatumSchema>

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

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const authRoutes = {
  login: webRoute({
    method: 'POST',
    path: '/web/login',
    auth: 'public',
    summary: 'Sign in with user name and password',
    description:
      'Answers the token to send in the `Token` header. A wrong name or password answers ' +
      '`badCredentials` with the same message either way. Failures in a row from one client ' +
      'address first slow it, then lock that address out of the name; many failures on a name ' +
      'from anywhere slow every attempt on it (growing delays, no lock); a client address has ' +
      'an hourly failure budget. All are checked before any password is hashed and answer ' +
      '`rateLimited` with `datum.retryAfterSeconds`, and `datum.secondFactor: "code"` when a ' +
      'code from `/web/login/sendCode`, sent with the password as `code`, lets the owner in now.',
    tags: ['auth'],
    body: loginBodySchema,
    datum: loginDatumSchema,
  }),
  sendCode: webRoute({
    method: 'POST',
    path: '/web/login/sendCode',
    auth: 'public',
    summary: 'Send a sign-in code while an account’s sign-ins are held back',
    description:
      'When `/web/login` answered `rateLimited` with `secondFactor: "code"`, sends a code to the ' +
      'account’s phone (else its e-mail), in the language of the `language` cookie. Answers the ' +
      'same whether or not the name exists or anything was sent; once a minute and a few times ' +
      'an hour per name and per client address, else `rateLimited`.',
    tags: ['auth'],
    body: signInCodeBodySchema,
    datum: nullDatumSchema,
  }),
  refreshToken: webRoute({
    method: 'POST',
    path: '/web/refreshToken',
    auth: 'user',
    summary: 'Start the idle window of the current token again',
    description:
      'Answers the same token. The absolute lifetime (TOKEN_LIFETIME_HOURS) still applies.',
    tags: ['auth'],
    datum: refreshTokenDatumSchema,
  }),
  logout: webRoute({
    method: 'POST',
    path: '/web/logout',
    auth: 'user',
    summary: 'Sign out: the token stops working',
    tags: ['auth'],
    datum: nullDatumSchema,
  }),
  verificationSms: webRoute({
    method: 'POST',
    path: '/web/register/verificationSms',
    auth: 'public',
    summary: 'Send a sign-up or password-reset code by SMS',
    description: `${codeRules}${language}${limits}`,
    body: verificationSmsBodySchema,
    datum: nullDatumSchema,
  }),
  verificationMail: webRoute({
    method: 'POST',
    path: '/web/register/verificationMail',
    auth: 'public',
    summary: 'Send a sign-up code by e-mail',
    description: `${codeRules}${language}${limits}`,
    body: verificationMailBodySchema,
    datum: nullDatumSchema,
  }),
  registerByTelNo: webRoute({
    method: 'POST',
    path: '/web/register/registerByTelNo',
    auth: 'public',
    summary: 'Create an editor account with a phone code, and sign it in',
    description:
      'The name is the phone number unless `name` is given. The password has 8–128 ' +
      'characters and is not a common one; a wrong code answers `validation` on `code`.',
    body: registerByTelBodySchema,
    datum: registerDatumSchema,
  }),
  registerbymail: webRoute({
    method: 'POST',
    path: '/web/register/registerbymail',
    auth: 'public',
    summary: 'Create an editor account with an e-mail code, and sign it in',
    description: 'The name is the e-mail address unless `name` is given.',
    body: registerByMailBodySchema,
    datum: registerDatumSchema,
  }),
  forgetPasswordByTelNo: webRoute({
    method: 'POST',
    path: '/web/register/forgetPasswordByTelNo',
    auth: 'public',
    summary: 'Set a new password with a reset code sent by SMS',
    description: 'Every open session of the account ends; any sign-in lock is lifted.',
    body: forgetPasswordByTelBodySchema,
    datum: nullDatumSchema,
  }),
  forgetPasswordVer: webRoute({
    method: 'POST',
    path: '/web/register/forgetPasswordVer',
    auth: 'public',
    summary: 'Check a password-reset code without using it up',
    description: 'A right code costs no try and still works for forgetPasswordByTelNo.',
    body: forgetPasswordVerBodySchema,
    datum: nullDatumSchema,
  }),
  isexistemail: webRoute({
    method: 'POST',
    path: '/web/register/isexistemail',
    auth: 'public',
    summary: 'Whether an account uses an e-mail address',
    description:
      'Limited per client address per hour (ACCOUNT_CHECKS_PER_IP_PER_HOUR), so nobody lists ' +
      'accounts faster than that.',
    body: isExistEmailBodySchema,
    datum: isExistEmailDatumSchema,
  }),
  guest: webRoute({
    method: 'POST',
    path: '/web/login/guest',
    auth: 'public',
    summary: 'Sign in as a guest: a short-lived, read-only session',
    description:
      'Each call makes a new guest (no shared account) whose session ends after ' +
      'GUEST_SESSION_MINUTES. Guests are refused (`forbidden`) every call that changes data. ' +
      'Limited per client address per hour.',
    tags: ['auth'],
    datum: guestLoginDatumSchema,
  }),
  sendPhoneChangeCode: webRoute({
    method: 'POST',
    path: '/web/user/sendPhoneChangeCode',
    auth: 'editor',
    summary: 'Send a code to the phone number you want to use instead of yours',
    description:
      'Refused (`conflict`) when another account has the number; limited like sign-up codes.',
    tags: ['auth'],
    body: sendPhoneChangeCodeBodySchema,
    datum: nullDatumSchema,
  }),
  changePhone: webRoute({
    method: 'POST',
    path: '/web/user/changePhone',
    auth: 'editor',
    summary: 'Change your phone number with the code sent to the new one',
    tags: ['auth'],
    body: changePhoneBodySchema,
    datum: userSchema,
  }),
  sendEmailChangeCode: webRoute({
    method: 'POST',
    path: '/web/user/sendEmailChangeCode',
    auth: 'editor',
    summary: 'Send a code to the e-mail address you want to use instead of yours',
    description:
      'Refused (`conflict`) when another account has the address; limited like sign-up codes.',
    tags: ['auth'],
    body: sendEmailChangeCodeBodySchema,
    datum: nullDatumSchema,
  }),
  changeEmail: webRoute({
    method: 'POST',
    path: '/web/user/changeEmail',
    auth: 'editor',
    summary: 'Change your e-mail address with the code sent to the new one',
    tags: ['auth'],
    body: changeEmailBodySchema,
    datum: userSchema,
  }),
  createTicket: webRoute({
    method: 'POST',
    path: '/web/user/createTicket',
    auth: 'user',
    summary: 'A one-time ticket for GET /web/getTokenByTicket, valid 60 s',
    datum: createTicketDatumSchema,
  }),
  getTokenByTicket: webRoute({
    method: 'GET',
    path: '/web/getTokenByTicket',
    auth: 'public',
    summary: 'Exchange a one-time ticket for a token of its user',
    description:
      'A ticket works once and for 60 s; the new session ends no later than the one that ' +
      'asked for the ticket. Anything else answers `2011`.',
    tags: ['auth'],
    query: getTokenByTicketQuerySchema,
    datum: getTokenByTicketDatumSchema,
  }),
}
