import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import {
  verificationCodeLength,
  verificationCodeMaxTries,
  verificationCodeValidityMs,
} from '../../../contract/auth'
import { fieldError } from '../../http/app-error'
import { type Clock, timestampOf } from '../time/clock'
import type { CodeAddress, VerificationCodesRepository } from './verification-codes.repository'

/**
 * Sign-up and password-reset codes (decisions.md "Accounts"): 6 random digits, valid 10 minutes,
 * 5 wrong entries, only the newest code of an address counts. Codes are stored hashed with
 * their row id, so the table alone does not show a usable code.
 */
export interface VerificationCodes {
  /** Makes a new code for the address (earlier ones stop working) and returns it. */
  issue(address: CodeAddress): Promise<string>
  /**
   * Checks a code; `validation` on the field `code` when it is wrong, used, expired or out of
   * tries. A wrong code costs a try; a right one costs none. With `consume`, a right code is
   * used up (exactly one of parallel checks gets it).
   */
  check(address: CodeAddress, code: string, options: { consume: boolean }): Promise<void>
}

/** The answer to any code that does not work, whatever the reason. */
const invalidCode = () => fieldError('validation', 'code', 'code.invalid')

function hashCode(id: string, code: string): string {
  return createHash('sha256').update(`${id}:${code}`).digest('hex')
}

/** Builds the verification codes service. */
export function createVerificationCodes(dependencies: {
  codes: VerificationCodesRepository
  clock: Clock
}): VerificationCodes {
  const { codes, clock } = dependencies
  return {
    async issue(address) {
      const code = String(randomInt(0, 10 ** verificationCodeLength)).padStart(
        verificationCodeLength,
        '0',
      )
      const nowMs = clock.nowMs()
      const id = randomUUID()
      await codes.insertReplacing(
        {
          id,
          ...address,
          code_hash: hashCode(id, code),
          created_at: timestampOf(nowMs),
          expires_at: timestampOf(nowMs + verificationCodeValidityMs),
          consumed_at: null,
        },
        timestampOf(nowMs),
      )
      return code
    },

    async check(address, code, { consume }) {
      const row = await codes.findNewest(address)
      const nowMs = clock.nowMs()
      if (row === undefined || row.consumed_at !== null || nowMs >= Date.parse(row.expires_at)) {
        throw invalidCode()
      }
      if (!(await codes.reserveTry(row.id, verificationCodeMaxTries))) {
        throw invalidCode()
      }
      const expected = Buffer.from(row.code_hash, 'hex')
      const given = Buffer.from(hashCode(row.id, code), 'hex')
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        const triesLeft = Math.max(0, verificationCodeMaxTries - (row.tries + 1))
        if (triesLeft === 0) throw invalidCode()
        throw triesLeft === 1
          ? fieldError('validation', 'code', 'code.wrongOneTryLeft')
          : fieldError('validation', 'code', 'code.wrongWithTriesLeft', { tries: triesLeft })
      }
      if (!consume) {
        await codes.refundTry(row.id)
        return
      }
      if (!(await codes.consume(row.id, timestampOf(nowMs)))) throw invalidCode()
    },
  }
}
