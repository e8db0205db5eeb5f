import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import { showErrorToast } from '../../components/feedback/error-text'
import { FormWrapper, PasswordField, TextField } from '../../ui'
import { SmsCodeField } from './SmsCodeField'
import { startSmsCountdown } from './sms-countdown'
import { confirmationProblem, newPasswordProblem, smsCodeProblem } from './validation'

/** The address a code is sent to: a phone number or an e-mail address. */
export interface CodeAddressField {
  label: string
  type: 'tel' | 'email'
  /** What is wrong with what was typed, or null. */
  problem: (value: string) => MessageDescriptor | null
  /** What is sent to the server (spaces dropped, lower case …). */
  normalise: (value: string) => string
}

/** Props of {@link AddressCodePasswordForm}. */
export interface AddressCodePasswordFormProps {
  title: ReactNode
  submitLabel: ReactNode
  address: CodeAddressField
  /** The new password's label; without it the form asks for none (a change of address). */
  passwordLabel?: string
  /**
   * Checked before a code is sent (e.g. `isexistemail`): a message to show at the address, or
   * null to go on.
   */
  checkAddress?: (address: string) => Promise<MessageDescriptor | null>
  requestCode: (address: string) => Promise<void>
  /**
   * When given, the code is checked first (`forgetPasswordVer`): the password fields appear only
   * once the server accepted it, so nobody types a new password for a wrong code.
   */
  verifyCode?: (address: string, code: string) => Promise<void>
  submit: (address: string, code: string, password: string) => Promise<void>
  onDone: () => void
}

type FieldName = 'address' | 'code' | 'password' | 'confirmation'

/**
 * An address (phone or e-mail), the code sent to it, a password and its confirmation: the
 * shared body of sign-up by phone or e-mail, of the forgotten password (SPEC §2) and, without
 * the password, of a person's change of phone or e-mail. Messages show after the first submit
 * attempt, and then follow the typing.
 */
export function AddressCodePasswordForm({
  title,
  submitLabel,
  address,
  passwordLabel,
  checkAddress,
  requestCode,
  verifyCode,
  submit,
  onDone,
}: AddressCodePasswordFormProps) {
  const { i18n, t } = useLingui()
  const [values, setValues] = useState<Record<FieldName, string>>({
    address: '',
    code: '',
    password: '',
    confirmation: '',
  })
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [addressError, setAddressError] = useState<MessageDescriptor | null>(null)
  /** The address and code the server accepted (two-step forms only). */
  const [verified, setVerified] = useState<{ address: string; code: string } | null>(null)
  const needsVerification = verifyCode !== undefined && verified === null
  const asksPassword = passwordLabel !== undefined && !needsVerification

  const problems: Record<FieldName, MessageDescriptor | null> = {
    address: address.problem(values.address),
    code: smsCodeProblem(values.code),
    password: asksPassword ? newPasswordProblem(values.password) : null,
    confirmation: asksPassword ? confirmationProblem(values.password, values.confirmation) : null,
  }
  const shownError = (field: FieldName) => {
    const problem =
      field === 'address' && addressError ? addressError : hasTriedSubmit ? problems[field] : null
    return problem ? i18n._(problem) : undefined
  }
  const update = (field: FieldName) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }))
    if (field === 'address') setAddressError(null)
    // a changed address or code must be checked again
    if (field === 'address' || field === 'code') setVerified(null)
  }

  async function sendCode(): Promise<boolean> {
    // The code request checks the address alone, before the rest of the form is filled.
    const problem = address.problem(values.address)
    if (problem) {
      setAddressError(problem)
      return false
    }
    const normalised = address.normalise(values.address)
    try {
      const refusal = checkAddress ? await checkAddress(normalised) : null
      if (refusal) {
        setAddressError(refusal)
        return false
      }
      await requestCode(normalised)
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
    const normalised = address.normalise(values.address)
    const code = values.code.trim()
    try {
      if (needsVerification) {
        await verifyCode(normalised, code)
        setVerified({ address: normalised, code })
        setHasTriedSubmit(false)
        return
      }
      await submit(normalised, code, values.password)
      onDone()
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormWrapper
      title={title}
      onSubmit={handleSubmit}
      submitLabel={needsVerification ? <Trans>Check the code</Trans> : submitLabel}
    >
      <TextField
        label={address.label}
        type={address.type}
        autoComplete={address.type === 'tel' ? 'tel' : 'email'}
        inputMode={address.type === 'tel' ? 'tel' : 'email'}
        value={values.address}
        onChange={(event) => update('address')(event.target.value)}
        error={shownError('address')}
        required
      />
      <SmsCodeField
        value={values.code}
        onValueChange={update('code')}
        error={shownError('code')}
        onRequestCode={sendCode}
      />
      {verified && (
        <p className="ts-sign__verified" role="status">
          <Trans>The code is right. Choose your new password.</Trans>
        </p>
      )}
      {asksPassword && (
        <>
          <PasswordField
            label={passwordLabel}
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
        </>
      )}
    </FormWrapper>
  )
}
