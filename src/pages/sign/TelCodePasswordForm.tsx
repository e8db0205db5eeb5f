import { Trans, useLingui } from '@lingui/react/macro'
import type { SmsPurpose } from '../../api/types'
import { AddressCodePasswordForm } from './AddressCodePasswordForm'
import { normaliseTel, telProblem } from './validation'

/** Props of {@link TelCodePasswordForm}. */
export interface TelCodePasswordFormProps {
  /** Sign-up or forgotten password: decides the texts and the SMS purpose. */
  purpose: SmsPurpose
  /** `/register/verificationSms`. */
  requestCode: (tel: string, purpose: SmsPurpose) => Promise<void>
  /**
   * `/register/forgetPasswordVer`: when given, the code is checked before the new password is
   * asked for.
   */
  verifyCode?: (tel: string, code: string) => Promise<void>
  /** `/register/registerByTelNo` or `/register/forgetPasswordByTelNo`. */
  submit: (tel: string, code: string, password: string) => Promise<void>
  /** Called after the server accepted the form. */
  onDone: () => void
}

/**
 * Phone, SMS code, password and confirmation: sign-up and forgotten password (SPEC §2), on the
 * shared address-code-password form.
 */
export function TelCodePasswordForm({
  purpose,
  requestCode,
  verifyCode,
  submit,
  onDone,
}: TelCodePasswordFormProps) {
  const { t } = useLingui()
  const isRegister = purpose === 'register'
  return (
    <AddressCodePasswordForm
      title={isRegister ? <Trans>Create an account</Trans> : <Trans>Reset your password</Trans>}
      submitLabel={isRegister ? <Trans>Sign up</Trans> : <Trans>Reset password</Trans>}
      address={{
        label: t`Phone number`,
        type: 'tel',
        problem: telProblem,
        normalise: normaliseTel,
      }}
      passwordLabel={isRegister ? t`Password` : t`New password`}
      requestCode={(tel) => requestCode(tel, purpose)}
      {...(verifyCode ? { verifyCode } : {})}
      submit={submit}
      onDone={onDone}
    />
  )
}
