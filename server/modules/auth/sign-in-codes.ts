import { verificationResendIntervalMs } from '../../../contract/auth'
import type { AccountSecuritySettings } from './account-security-settings'
import type { MessageSender } from '../messaging/message-sender'
import { type MessageLanguage, messageTexts } from '../messaging/message-texts'
import { hourMs, type RateLimiter } from './rate-limiter'
import type { SignInGuard } from './sign-in-guard'
import type { UsersRepository } from '../accounts/users.repository'
import type { VerificationCodes } from './verification-codes'
import type { CodeAddress } from './verification-codes.repository'
import { fieldError } from '../../http/app-error'

/**
 * The owner's way past a guessing attack (issue 13, class 8): a one-time code sent to the
 * account's phone (else its e-mail) that `/web/login` takes with the password, passing the
 * name's delay and the address's lock (sign-in-guard.ts). Codes are sent only while the name is
 * held back, at most once a minute and a few times an hour per name, and the answer never says
 * whether the name exists or has a phone.
 *
 * A sign-in code proves the same thing as a password-reset code (holding the account's phone
 * or mailbox), so both live at the account's `forget` address: the newest of either counts.
 */
export interface SignInCodes {
  /** Sends a code when the name is held back for this address and has somewhere to send it. */
  send(accountName: string, clientAddress: string, language: MessageLanguage): Promise<void>
  /** Checks a code without using it up; `validation` on the field `code` when it does not work. */
  check(accountName: string, code: string): Promise<void>
  /** Uses the code up after the sign-in it admitted succeeded. */
  consume(accountName: string, code: string): Promise<void>
}

const tooManyCodes = 'code.tooManySignInCodes'

/** Builds the sign-in codes. */
export function createSignInCodes(dependencies: {
  users: UsersRepository
  codes: VerificationCodes
  limiter: RateLimiter
  sender: MessageSender
  guard: SignInGuard
  settings: Pick<AccountSecuritySettings, 'codesPerRecipientPerHour' | 'codesPerIpPerHour'>
}): SignInCodes {
  const { users, codes, limiter, sender, guard, settings } = dependencies

  /** Where the account's codes go: its phone, else its e-mail; none for guests or unknown names. */
  const addressOf = async (accountName: string): Promise<CodeAddress | undefined> => {
    const user = await users.findByName(accountName)
    if (user === undefined || user.role === 'guest' || user.disabled === 1) return undefined
    if (user.tel) return { channel: 'sms', recipient: user.tel, purpose: 'forget' }
    if (user.email) return { channel: 'email', recipient: user.email, purpose: 'forget' }
    return undefined
  }

  const invalid = () => fieldError('validation', 'code', 'code.invalid')

  return {
    async send(accountName, clientAddress, language) {
      const bucket = `sign-in-code:name:${accountName}`
      await limiter.assertIntervalPassed(bucket, verificationResendIntervalMs, tooManyCodes)
      await limiter.take(
        `code:ip:${clientAddress}`,
        settings.codesPerIpPerHour,
        hourMs,
        tooManyCodes,
      )
      await limiter.take(bucket, settings.codesPerRecipientPerHour, hourMs, tooManyCodes)
      if (!(await guard.isHeldBack(accountName, clientAddress))) return
      const address = await addressOf(accountName)
      if (address === undefined) return
      const code = await codes.issue(address)
      const texts = messageTexts[language]
      await sender.send({
        channel: address.channel,
        to: address.recipient,
        subject: texts.signInSubject,
        text: texts.signInCode(code),
      })
    },

    async check(accountName, code) {
      const address = await addressOf(accountName)
      if (address === undefined) throw invalid()
      await codes.check(address, code, { consume: false })
    },

    async consume(accountName, code) {
      const address = await addressOf(accountName)
      if (address === undefined) throw invalid()
      await codes.check(address, code, { consume: true })
    },
  }
}
