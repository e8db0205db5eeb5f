import type { SmsPurpose } from '../../../contract/auth'
import { verificationResendIntervalMs } from '../../../contract/auth'
import type { User } from '../../../contract/user'
import { AppError, fieldError } from '../../http/app-error'
import { isUniqueViolation } from '../../plugins/db'
import type { AccountSecuritySettings } from '../auth/account-security-settings'
import type { AuthService } from '../auth/auth.service'
import { type Clock, timestampOf } from '../time/clock'
import type { MessageSender, OutgoingMessage } from '../messaging/message-sender'
import { type MessageLanguage, messageTexts } from '../messaging/message-texts'
import { assertAcceptablePassword } from '../auth/password-policy'
import { hourMs, type RateLimiter, rateLimitedError } from '../auth/rate-limiter'
import type { SessionsRepository } from '../auth/sessions.repository'
import type { SignInGuard } from '../auth/sign-in-guard'
import type { CodeAddress } from '../auth/verification-codes.repository'
import type { VerificationCodes } from '../auth/verification-codes'
import { hashPassword } from '../auth/passwords'
import type { UserRow, UsersRepository } from './users.repository'
import { type AuthUser, toPublicUser, type UsersService } from './users.service'

/** Who asks: the client address the per-IP limits count against, and the message language. */
export interface Requester {
  clientAddress: string
  language: MessageLanguage
}

/** A new account signed in. */
export interface SignedUpAccount {
  token: string
  user: User
}

/**
 * Sign-up by phone or e-mail code, password reset by phone, and the e-mail check
 * (SPEC §7 "/register/…", decisions.md "Accounts").
 *
 * Requesting a code answers the same whether the phone or address has an account or not: a
 * sign-up request for a registered phone sends a message saying so instead of a code, and a
 * reset request for an unknown phone sends nothing. Both count against the same limits, so the
 * call cannot be used to find out who has an account.
 */
export interface RegistrationService {
  requestSmsCode(input: { tel: string; purpose: SmsPurpose } & Requester): Promise<void>
  requestMailCode(input: { email: string } & Requester): Promise<void>
  registerByTel(input: {
    tel: string
    code: string
    password: string
    name?: string | undefined
  }): Promise<SignedUpAccount>
  registerByMail(input: {
    email: string
    code: string
    password: string
    name?: string | undefined
  }): Promise<SignedUpAccount>
  /** Sets a new password with a `forget` code; every session of the account ends. */
  resetPasswordByTel(input: { tel: string; code: string; password: string }): Promise<void>
  /** Checks a `forget` code without using it up. */
  checkResetCode(input: { tel: string; code: string }): Promise<void>
  /** Whether an account uses the address; limited per client address. */
  isEmailRegistered(input: { email: string } & Pick<Requester, 'clientAddress'>): Promise<boolean>
  /**
   * Sends a code to the phone or e-mail address the signed-in person wants to use instead
   * (issue 21); `conflict` when another account has it. Limited as the sign-up codes are.
   */
  requestContactChangeCode(person: AuthUser, input: ContactChange & Requester): Promise<void>
  /** Makes the change once the code sent to the new phone or address is right. */
  confirmContactChange(person: AuthUser, input: ContactChange & { code: string }): Promise<User>
}

/** A new phone number (`tel`) or e-mail address (`email`) of an account. */
export interface ContactChange {
  field: 'tel' | 'email'
  address: string
}

/** Builds the registration service. */
export function createRegistrationService(dependencies: {
  users: UsersRepository
  usersService: UsersService
  sessions: SessionsRepository
  auth: Pick<AuthService, 'startSession'>
  codes: VerificationCodes
  limiter: RateLimiter
  signInGuard: Pick<SignInGuard, 'clear'>
  sender: MessageSender
  clock: Clock
  settings: Pick<
    AccountSecuritySettings,
    'codesPerRecipientPerHour' | 'codesPerIpPerHour' | 'accountChecksPerIpPerHour'
  >
}): RegistrationService {
  const { users, usersService, sessions, auth, codes, limiter, signInGuard, sender, clock } =
    dependencies
  const { settings } = dependencies

  /**
   * Counts a code request against the resend countdown and both hourly budgets, then sends what
   * `compose` decides (nothing when it answers undefined). A failed send gives the counts back.
   */
  async function sendLimited(
    recipient: string,
    requester: Pick<Requester, 'clientAddress'>,
    compose: () => Promise<OutgoingMessage | undefined>,
  ): Promise<void> {
    const recipientBucket = `code:to:${recipient}`
    await limiter.assertIntervalPassed(
      recipientBucket,
      verificationResendIntervalMs,
      'code.resendTooSoon',
    )
    const addressEvent = await limiter.take(
      `code:ip:${requester.clientAddress}`,
      settings.codesPerIpPerHour,
      hourMs,
      'code.tooManyForAddress',
    )
    let recipientEvent: string
    try {
      recipientEvent = await limiter.take(
        recipientBucket,
        settings.codesPerRecipientPerHour,
        hourMs,
        'code.tooManyForRecipient',
      )
    } catch (error) {
      await limiter.giveBack(addressEvent)
      throw error
    }
    // Two requests racing past the countdown: only one of them may send.
    const recentCount = await limiter.countSince(
      recipientBucket,
      clock.nowMs() - verificationResendIntervalMs,
    )
    if (recentCount > 1) {
      await limiter.giveBack(recipientEvent)
      await limiter.giveBack(addressEvent)
      throw rateLimitedError('code.resendTooSoon', verificationResendIntervalMs / 1_000)
    }
    try {
      const message = await compose()
      if (message !== undefined) await sender.send(message)
    } catch (error) {
      await limiter.giveBack(recipientEvent)
      await limiter.giveBack(addressEvent)
      if (error instanceof AppError) throw error
      throw new AppError('unavailable', 'code.sendFailed')
    }
  }

  const smsAddress = (tel: string, purpose: SmsPurpose): CodeAddress => ({
    channel: 'sms',
    recipient: tel,
    purpose,
  })
  const mailAddress = (email: string): CodeAddress => ({
    channel: 'email',
    recipient: email,
    purpose: 'register',
  })

  /** Checks name and password before the code is used up, so a typo does not cost the code. */
  async function prepareSignUp(input: {
    name: string
    password: string
    tel?: string
    email?: string
  }): Promise<void> {
    assertAcceptablePassword(input.password, input)
    if (await users.findByName(input.name)) {
      throw fieldError('conflict', 'name', 'account.nameTaken')
    }
  }

  async function signUp(fields: {
    name: string
    password: string
    tel?: string
    email?: string
  }): Promise<SignedUpAccount> {
    const row = await usersService.createUser({ ...fields, role: 'editor' })
    const token = await auth.startSession(row)
    return { token, user: toPublicUser(row) }
  }

  const contactCodeAddress = ({ field, address }: ContactChange): CodeAddress => ({
    channel: field === 'tel' ? 'sms' : 'email',
    recipient: address,
    purpose: 'change',
  })
  const takenError = (field: ContactChange['field']) =>
    fieldError('conflict', field, field === 'tel' ? 'account.telTaken' : 'account.emailTaken')

  /** Another account's phone or address cannot become this one's. */
  async function assertContactFree(person: AuthUser, change: ContactChange): Promise<void> {
    const holder =
      change.field === 'tel'
        ? await users.findByTel(change.address)
        : await users.findByEmail(change.address)
    if (holder !== undefined && holder.id !== person.id) throw takenError(change.field)
  }

  return {
    async requestContactChangeCode(person, { field, address, clientAddress, language }) {
      await assertContactFree(person, { field, address })
      const texts = messageTexts[language]
      await sendLimited(address, { clientAddress }, async () => {
        const code = await codes.issue(contactCodeAddress({ field, address }))
        return field === 'tel'
          ? { channel: 'sms', to: address, text: texts.changeCode(code, 'phone') }
          : {
              channel: 'email',
              to: address,
              subject: texts.changeSubject,
              text: texts.changeCode(code, 'email'),
            }
      })
    },

    async confirmContactChange(person, { field, address, code }) {
      await assertContactFree(person, { field, address })
      await codes.check(contactCodeAddress({ field, address }), code, { consume: true })
      try {
        await users.update(person.id, {
          [field]: address,
          updated_at: timestampOf(clock.nowMs()),
        })
      } catch (error) {
        // another account took it between the check and the change
        if (isUniqueViolation(error)) throw takenError(field)
        throw error
      }
      return usersService.getUser(person.id)
    },

    async requestSmsCode({ tel, purpose, clientAddress, language }) {
      const texts = messageTexts[language]
      await sendLimited(tel, { clientAddress }, async () => {
        const account = await users.findByTel(tel)
        if (purpose === 'register') {
          if (account !== undefined) {
            return { channel: 'sms', to: tel, text: texts.alreadyRegistered('phone') }
          }
          const code = await codes.issue(smsAddress(tel, 'register'))
          return { channel: 'sms', to: tel, text: texts.registerCode(code) }
        }
        // A reset code only goes to phones that have an account; others get nothing.
        if (account === undefined || account.role === 'guest') return undefined
        const code = await codes.issue(smsAddress(tel, 'forget'))
        return { channel: 'sms', to: tel, text: texts.resetCode(code) }
      })
    },

    async requestMailCode({ email, clientAddress, language }) {
      const texts = messageTexts[language]
      await sendLimited(email, { clientAddress }, async () => {
        if ((await users.findByEmail(email)) !== undefined) {
          return {
            channel: 'email',
            to: email,
            subject: texts.mailSubject,
            text: texts.alreadyRegistered('email'),
          }
        }
        const code = await codes.issue(mailAddress(email))
        return {
          channel: 'email',
          to: email,
          subject: texts.mailSubject,
          text: texts.registerCode(code),
        }
      })
    },

    async registerByTel({ tel, code, password, name }) {
      const fields = { name: name ?? tel, password, tel }
      await prepareSignUp(fields)
      await codes.check(smsAddress(tel, 'register'), code, { consume: true })
      return signUp(fields)
    },

    async registerByMail({ email, code, password, name }) {
      const accountName = name ?? email
      if (accountName.length > 64) {
        throw fieldError('validation', 'name', 'account.emailTooLongForName')
      }
      const fields = { name: accountName, password, email }
      await prepareSignUp(fields)
      await codes.check(mailAddress(email), code, { consume: true })
      return signUp(fields)
    },

    async resetPasswordByTel({ tel, code, password }) {
      const account = await users.findByTel(tel)
      assertAcceptablePassword(password, account ?? { tel })
      await codes.check(smsAddress(tel, 'forget'), code, { consume: true })
      // Only an account's phone receives reset codes; it may have been deleted since.
      if (account === undefined) {
        throw fieldError('validation', 'code', 'code.invalid')
      }
      await changePassword(account, password)
    },

    async checkResetCode({ tel, code }) {
      await codes.check(smsAddress(tel, 'forget'), code, { consume: false })
    },

    async isEmailRegistered({ email, clientAddress }) {
      await limiter.take(
        `account-check:ip:${clientAddress}`,
        settings.accountChecksPerIpPerHour,
        hourMs,
        'code.tooManyChecks',
      )
      return (await users.findByEmail(email)) !== undefined
    },
  }

  async function changePassword(account: UserRow, password: string): Promise<void> {
    const nowMs = clock.nowMs()
    await users.update(account.id, {
      password_hash: await hashPassword(password),
      updated_at: timestampOf(nowMs),
    })
    await sessions.revokeAllOfUser(account.id, timestampOf(nowMs))
    // Whoever holds the phone proved it: a lock set by someone guessing the password goes.
    await signInGuard.clear(account.name)
  }
}
