import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { SmsPurpose } from '../../api/types'
import { showErrorToast } from '../../components/feedback/error-text'
import { FormWrapper, PasswordField, TextField } from '../../ui'
import { SmsCodeField } from './SmsCodeField'
import { startSmsCountdown } from './sms-countdown'
import {
  confirmationProblem,
  newPasswordProblem,
  normaliseTel,
  smsCodeProblem,
  telProblem,
} from './validation'

/** Props of {@link TelCodePasswordForm}. */
export interface TelCodePasswordFormProps {
  /** Sign-up or forgotten password: decides the texts and the SMS purpose. */
  purpose: SmsPurpose
  /** `/register/verificationSms`. */
  requestCode: (tel: string, purpose: SmsPurpose) => Promise<void>
  /** `/register/registerByTelNo` or `/register/forgetPasswordByTelNo`. */
  submit: (tel: string, code: string, password: string) => Promise<void>
  /** Called after the server accepted the form. */
  onDone: () => void
}

type FieldName = 'tel' | 'code' | 'password' | 'confirmation'

/**
 * Phone, SMS code, password and confirmation: the shared body of sign-up and forgotten password
 * (SPEC §2). Messages show after the first submit attempt, and then follow the typing.
 */
export function TelCodePasswordForm({
  purpose,
  requestCode,
  submit,
  onDone,
}: TelCodePasswordFormProps) {
  const { i18n, t } = useLingui()
  const [values, setValues] = useState<Record<FieldName, string>>({
    tel: '',
    code: '',
    password: '',
    confirmation: '',
  })
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [telError, setTelError] = useState<MessageDescriptor | null>(null)

  const problems: Record<FieldName, MessageDescriptor | null> = {
    tel: telProblem(values.tel),
    code: smsCodeProblem(values.code),
    password: newPasswordProblem(values.password),
    confirmation: confirmationProblem(values.password, values.confirmation),
  }
  const shownError = (field: FieldName) => {
    const problem = field === 'tel' && telError ? telError : hasTriedSubmit ? problems[field] : null
    return problem ? i18n._(problem) : undefined
  }
  const update = (field: FieldName) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }))
    if (field === 'tel') setTelError(null)
  }

  async function sendCode(): Promise<boolean> {
    // The code request checks the phone number alone, before the rest of the form is filled.
    const problem = telProblem(values.tel)
    if (problem) {
      setTelError(problem)
      return false
    }
    try {
      await requestCode(normaliseTel(values.tel), purpose)
      startSmsCountdown()
      return true
    } catch (error) {
      showErrorToast(error)
      return false
    }
  }

  async function handleSubmit() {
    setHasTriedSubmit(true)
    if (Object.values(problems).some(Boolean)) return
    try {
      await submit(normaliseTel(values.tel), values.code.trim(), values.password)
      onDone()
    } catch (error) {
      showErrorToast(error)
    }
  }

  const isRegister = purpose === 'register'
  return (
    <FormWrapper
      title={isRegister ? <Trans>Create an account</Trans> : <Trans>Reset your password</Trans>}
      onSubmit={handleSubmit}
      submitLabel={isRegister ? <Trans>Sign up</Trans> : <Trans>Reset password</Trans>}
    >
      <TextField
        label={t`Phone number`}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={values.tel}
        onChange={(event) => update('tel')(event.target.value)}
        error={shownError('tel')}
        required
      />
      <SmsCodeField
        value={values.code}
        onValueChange={update('code')}
        error={shownError('code')}
        onRequestCode={sendCode}
      />
      <PasswordField
        label={isRegister ? t`Password` : t`New password`}
        autoComplete="new-password"
        value={values.password}
        onChange={(event) => update('password')(event.target.value)}
        error={shownError('password')}
        hint={t`8 to 128 characters.`}
        required
      />
      <PasswordField
        label={t`Confirm password`}
        autoComplete="new-password"
        value={values.confirmation}
        onChange={(event) => update('confirmation')(event.target.value)}
        error={shownError('confirmation')}
        required
      />
    </FormWrapper>
  )
}
