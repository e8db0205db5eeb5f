import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { AddressCodePasswordForm } from './AddressCodePasswordForm'

/** Props of {@link EmailSignUpForm}. */
export interface EmailSignUpFormProps {
  /** `/register/verificationMail`. */
  requestCode: (email: string) => Promise<void>
  /** `/register/isexistemail`. */
  isTaken: (email: string) => Promise<boolean>
  /** `/register/registerbymail`. */
  submit: (email: string, code: string, password: string) => Promise<void>
  onDone: () => void
}

/** A plausible address (the server's check is the real one). */
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** What is wrong with an e-mail address, or null. */
export function emailProblem(email: string): MessageDescriptor | null {
  if (!email.trim()) return msg`Please enter your e-mail address.`
  if (!emailPattern.test(email.trim())) return msg`Please enter a valid e-mail address.`
  return null
}

const takenMessage = msg`An account already uses this e-mail address. Sign in or reset the password instead.`

/**
 * Sign-up by e-mail (SPEC §7 `registerbymail`, decisions.md "Accounts"): address, a code sent
 * to it, password and confirmation. Before a code is sent the address is checked with
 * `isexistemail`, so someone who has an account is told at once instead of after the code.
 */
export function EmailSignUpForm({ requestCode, isTaken, submit, onDone }: EmailSignUpFormProps) {
  const { t } = useLingui()
  return (
    <AddressCodePasswordForm
      title={<Trans>Create an account with e-mail</Trans>}
      submitLabel={<Trans>Sign up</Trans>}
      address={{
        label: t`E-mail`,
        type: 'email',
        problem: emailProblem,
        normalise: (email) => email.trim().toLowerCase(),
      }}
      passwordLabel={t`Password`}
      checkAddress={async (email) => ((await isTaken(email)) ? takenMessage : null)}
      requestCode={requestCode}
      submit={submit}
      onDone={onDone}
    />
  )
}
