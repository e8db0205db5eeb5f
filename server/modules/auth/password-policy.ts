import { readFileSync } from 'node:fs'
import { passwordMaxLength, passwordMinLength } from '../../../contract/auth'
import { type ServerMessage, serverMessage } from '../../../contract/messages'
import { fieldErrorOf } from '../../http/app-error'

/**
 * The rules a new password meets (decisions.md "Accounts"): 8–128 characters, not one of the
 * most common passwords (server/resources/passwords), not the account's own name, phone or
 * e-mail, and not a single character repeated. Old passwords are never re-checked: sign-in only
 * compares hashes.
 */

const commonPasswordsFile = new URL(
  '../../resources/passwords/common-passwords.txt',
  import.meta.url,
)

let commonPasswords: ReadonlySet<string> | undefined

/** The shipped list, lower-cased; read once, on first use. */
export function loadCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(commonPasswordsFile, 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
  return commonPasswords
}

/** What the password may not equal: the account's own identifiers. */
export interface PasswordOwner {
  name?: string | null | undefined
  tel?: string | null | undefined
  email?: string | null | undefined
}

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordProblem(
  password: string,
  owner: PasswordOwner = {},
): ServerMessage | undefined {
  // Code points, not UTF-16 units, so an emoji counts as one character as people expect.
  const length = [...password].length
  if (length < passwordMinLength) {
    return serverMessage('password.tooShort', { minimum: passwordMinLength })
  }
  if (length > passwordMaxLength) {
    return serverMessage('password.tooLong', { maximum: passwordMaxLength })
  }
  const folded = password.normalize('NFKC').toLowerCase()
  if (loadCommonPasswords().has(folded)) return serverMessage('password.common')
  if (new Set(folded).size === 1) return serverMessage('password.repeated')
  const ownValues = [owner.name, owner.tel, owner.email]
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .map((value) => value.normalize('NFKC').toLowerCase())
  if (ownValues.includes(folded)) return serverMessage('password.ownIdentity')
  return undefined
}

/** Throws `validation` on the field `password` when the password breaks a rule. */
export function assertAcceptablePassword(
  password: string,
  owner: PasswordOwner = {},
  field = 'password',
): void {
  const problem = passwordProblem(password, owner)
  if (problem !== undefined) throw fieldErrorOf('validation', field, problem)
}
