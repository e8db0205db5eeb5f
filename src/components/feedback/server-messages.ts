import { i18n, type MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * The server words its answers in English: they double as its log lines and API reference. The
 * ones a user meets on the account screens and admin pages are known here by their exact text,
 * so the console shows them in the user's language (decisions.md: no English left on the ko
 * screens). Any other message is shown as the server sent it, which SPEC §7 asks for anyway.
 * The texts mirror server/modules (auth, sign-in guard, registration, verification codes,
 * password policy, users, roles); e2e/sign-up.spec.ts and e2e/language.spec.ts meet them.
 */
const exactMessages: ReadonlyMap<string, MessageDescriptor> = new Map([
  ['Incorrect user name or password.', msg`Incorrect user name or password.`],
  ['This account is disabled.', msg`This account is disabled.`],
  [
    'Too many failed sign-ins from your network. Please wait before trying again.',
    msg`Too many failed sign-ins from your network. Please wait before trying again.`,
  ],
  [
    'Too many failed sign-ins: this account is locked for a while.',
    msg`Too many failed sign-ins: this account is locked for a while.`,
  ],
  [
    'The verification code is wrong or has expired. Please request a new one.',
    msg`The verification code is wrong or has expired. Please request a new one.`,
  ],
  [
    'A code was just sent. Please wait before asking for another one.',
    msg`A code was just sent. Please wait before asking for another one.`,
  ],
  [
    'Too many codes were sent to this recipient in the last hour. Please try again later.',
    msg`Too many codes were sent to this recipient in the last hour. Please try again later.`,
  ],
  [
    'Too many codes were requested from your network in the last hour. Please try again later.',
    msg`Too many codes were requested from your network in the last hour. Please try again later.`,
  ],
  [
    'The message could not be sent. Please try again later.',
    msg`The message could not be sent. Please try again later.`,
  ],
  [
    'This password is one of the most common ones. Please choose another.',
    msg`This password is one of the most common ones. Please choose another.`,
  ],
  [
    'The password may not be one character repeated.',
    msg`The password may not be one character repeated.`,
  ],
  [
    'The password may not be your user name, phone number or e-mail.',
    msg`The password may not be your user name, phone number or e-mail.`,
  ],
  ['This is not a phone number.', msg`This is not a phone number.`],
  ['This user name is already taken.', msg`This user name is already taken.`],
  ['This phone number is already registered.', msg`This phone number is already registered.`],
  ['This e-mail address is already registered.', msg`This e-mail address is already registered.`],
  [
    'This user name, phone number or e-mail is already taken.',
    msg`This user name, phone number or e-mail is already taken.`,
  ],
  ['You cannot delete your own account.', msg`You cannot delete your own account.`],
  ['You cannot change your own role.', msg`You cannot change your own role.`],
  ['A role with this name already exists.', msg`A role with this name already exists.`],
  ['A built-in role cannot be deleted.', msg`A built-in role cannot be deleted.`],
  ['A built-in role cannot be renamed.', msg`A built-in role cannot be renamed.`],
  ['A built-in role keeps its access level.', msg`A built-in role keeps its access level.`],
  ['User not found.', msg`User not found.`],
  ['This role does not exist.', msg`This role does not exist.`],
])

/** Messages carrying a number, matched by shape. */
const patternMessages: ReadonlyArray<{
  pattern: RegExp
  translate: (match: RegExpExecArray) => string
}> = [
  {
    pattern: /^(\d+) user\(s\) hold this role: give them another role before deleting it\.$/,
    translate: (match) => {
      const holders = Number(match[1])
      return i18n._(
        msg`Accounts holding this role: ${holders}. Give them another role before deleting it.`,
      )
    },
  },
]

/**
 * The server's message in the user's language when the console knows it, else unchanged. A
 * validation answer reads `field: problem`; the problem alone is looked up then.
 */
export function translateServerMessage(message: string): string {
  const exact = exactMessages.get(message)
  if (exact) return i18n._(exact)
  for (const { pattern, translate } of patternMessages) {
    const match = pattern.exec(message)
    if (match) return translate(match)
  }
  const fieldProblem = /^[\w.[\]]+: (.+)$/.exec(message)
  const problem = fieldProblem?.[1] ? exactMessages.get(fieldProblem[1]) : undefined
  return problem ? i18n._(problem) : message
}
