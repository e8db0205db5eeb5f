import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Link } from 'wouter'
import { redirectTargetAfterSignIn } from '../../app/guard'
import { navigateHash } from '../../app/hash-location'
import type { PageProps } from '../../app/page-props'
import { useServices } from '../../app/services'
import { showErrorToast } from '../../components/feedback/error-text'
import { Button, FormWrapper, PasswordField, TextField } from '../../ui'
import './sign.css'

/**
 * Sign in (SPEC §2): name and password, links to forgotten password and sign-up, and guest
 * sign-in. Afterwards the user returns to the page the guard stopped them at.
 */
export function LoginPage({ search }: PageProps) {
  const { t } = useLingui()
  const services = useServices()
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [isGuestSigningIn, setIsGuestSigningIn] = useState(false)

  const nameError = hasTriedSubmit && !name.trim() ? t`Please enter your user name.` : undefined
  const passwordError = hasTriedSubmit && !password ? t`Please enter your password.` : undefined

  function returnToWantedPage() {
    navigateHash(redirectTargetAfterSignIn(search), { replace: true })
  }

  async function signIn() {
    setHasTriedSubmit(true)
    if (!name.trim() || !password) return
    try {
      await services.signInWithPassword(name.trim(), password)
      returnToWantedPage()
    } catch (error) {
      showErrorToast(error)
    }
  }

  async function signInAsGuest() {
    setIsGuestSigningIn(true)
    try {
      await services.signInAsGuest()
      returnToWantedPage()
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsGuestSigningIn(false)
    }
  }

  return (
    <div className="ts-sign-page">
      <FormWrapper
        title={<Trans>Sign in</Trans>}
        onSubmit={signIn}
        submitLabel={<Trans>Sign in</Trans>}
      >
        <TextField
          label={t`User name`}
          autoComplete="username"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          required
          autoFocus
        />
        <PasswordField
          label={t`Password`}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={passwordError}
          required
        />
      </FormWrapper>
      <div className="ts-sign-page__links">
        <Link href="/forget">
          <Trans>Forgot password?</Trans>
        </Link>
        <Link href="/register">
          <Trans>Create an account</Trans>
        </Link>
      </div>
      <div className="ts-sign-page__divider" aria-hidden="true" />
      <Button className="ts-sign-page__guest" onClick={signInAsGuest} isBusy={isGuestSigningIn}>
        <Trans>Continue as guest</Trans>
      </Button>
    </div>
  )
}
