import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { changePassword } from '../../api/user'
import { showErrorToast } from '../../components/feedback/error-text'
import { usePermissions } from '../../components/use-permissions'
import { FormWrapper, PasswordField, toast } from '../../ui'
import { confirmationProblem, newPasswordProblem } from '../sign/validation'
import { SignInLinkSection } from './SignInLinkSection'
import './system.css'

/** Props of {@link PasswordChangeForm}. */
export interface PasswordChangeFormProps {
  /** `/user/updateUserPassword`. */
  changePassword: (oldPassword: string, password: string) => Promise<void>
  canEdit: boolean
}

/** Old password, new password (8–128 characters) and its confirmation (SPEC §5). */
export function PasswordChangeForm({ changePassword, canEdit }: PasswordChangeFormProps) {
  const { i18n, t } = useLingui()
  const [oldPassword, setOldPassword] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)

  const oldPasswordError = !oldPassword ? t`Please enter your current password.` : undefined
  const passwordProblem = newPasswordProblem(password)
  const confirmationError = confirmationProblem(password, confirmation)
  const shown = (message: string | undefined) => (hasTriedSubmit ? message : undefined)

  async function submit() {
    setHasTriedSubmit(true)
    if (oldPasswordError || passwordProblem || confirmationError) return
    try {
      await changePassword(oldPassword, password)
      toast.success(t`Your password was changed.`)
      setOldPassword('')
      setPassword('')
      setConfirmation('')
      setHasTriedSubmit(false)
    } catch (error) {
      showErrorToast(error)
    }
  }

  return (
    <FormWrapper
      title={<Trans>Change password</Trans>}
      onSubmit={submit}
      submitLabel={<Trans>Modify</Trans>}
      isSubmitDisabled={!canEdit}
    >
      <PasswordField
        label={t`Current password`}
        value={oldPassword}
        onChange={(event) => setOldPassword(event.target.value)}
        error={shown(oldPasswordError)}
        disabled={!canEdit}
        required
      />
      <PasswordField
        label={t`New password`}
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={shown(passwordProblem ? i18n._(passwordProblem) : undefined)}
        hint={t`8 to 128 characters.`}
        disabled={!canEdit}
        required
      />
      <PasswordField
        label={t`Confirm password`}
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        error={shown(confirmationError ? i18n._(confirmationError) : undefined)}
        disabled={!canEdit}
        required
      />
    </FormWrapper>
  )
}

/** `/system/security`: the password change, and a sign-in link for another device. */
export function SecurityPage() {
  const { canEdit } = usePermissions()
  return (
    <section className="ts-system-page ts-system-page--narrow">
      <h1 className="ts-page-title">
        <Trans>System settings</Trans>
      </h1>
      {!canEdit && (
        <p className="ts-system-page__notice" role="note">
          <Trans>Guests cannot change the password.</Trans>
        </p>
      )}
      <PasswordChangeForm changePassword={changePassword} canEdit={canEdit} />
      {canEdit && <SignInLinkSection />}
    </section>
  )
}
