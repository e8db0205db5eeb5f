import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { redirectTargetAfterSignIn } from '../../app/guard'
import { navigateHash } from '../../app/hash-location'
import type { PageProps } from '../../app/page-props'
import { useServices } from '../../app/services'
import { ApiError } from '../../api/client'
import { showErrorToast } from '../../components/feedback/error-text'
import { Button, FormWrapper, PasswordField, TextField, toast } from '../../ui'
import { startSmsCountdown } from './sms-countdown'
import { SmsCodeField } from './SmsCodeField'
import './sign.css'

/** The envelope code of `rateLimited` (contract/errors.ts). */
const rateLimitedCode = '1029'

/**
 * The wait a held-back sign-in answered, when a sign-in code would let the owner in now
 * (contract/auth.ts `rateLimitedDatumSchema`), else undefined.
 */
export function heldBackWaitSeconds(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.code !== rateLimitedCode) return undefined
  const datum = error.datum as { retryAfterSeconds?: unknown; secondFactor?: unknown } | null
  if (datum?.secondFactor !== 'code' || typeof datum.retryAfterSeconds !== 'number') {
    return undefined
  }
  return datum.retryAfterSeconds
}

/**
 * Sign in (SPEC §2): name and password, links to forgotten password and sign-up, and guest
 * sign-in. Afterwards the user returns to the page the guard stopped them at. A sign-in link
 * made in another signed-in browser (`?ticket=`, `getTokenByTicket`) signs in at once.
 */
export function LoginPage({ search }: PageProps) {
  const { t } = useLingui()
  const services = useServices()
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [hasTriedSubmit, setHasTriedSubmit] = useState(false)
  const [isGuestSigningIn, setIsGuestSigningIn] = useState(false)
  /** Set when the server held this sign-in back: the wait, and the code the owner may use. */
  const [heldBackSeconds, setHeldBackSeconds] = useState<number | null>(null)
  const [code, setCode] = useState('')

  const nameError = hasTriedSubmit && !name.trim() ? t`Please enter your user name.` : undefined
  const passwordError = hasTriedSubmit && !password ? t`Please enter your password.` : undefined

  function returnToWantedPage() {
    navigateHash(redirectTargetAfterSignIn(search), { replace: true })
  }

  const ticket = new URLSearchParams(search).get('ticket')
  const [ticketState, setTicketState] = useState<'none' | 'signingIn' | 'failed'>(
    ticket ? 'signingIn' : 'none',
  )
  // a ticket works once: a second run of the effect (strict mode) must not spend it again
  const spentTicket = useRef<string | null>(null)
  // returnToWantedPage reads `search`, which holds the ticket: the ticket is the dependency
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!ticket || spentTicket.current === ticket) return
    spentTicket.current = ticket
    services.signInWithTicket(ticket).then(
      () => returnToWantedPage(),
      () => setTicketState('failed'),
    )
  }, [ticket, services])

  async function signIn() {
    setHasTriedSubmit(true)
    if (!name.trim() || !password) return
    const withCode = heldBackSeconds !== null && code.length > 0 ? code : undefined
    try {
      await services.signInWithPassword(name.trim(), password, withCode)
      returnToWantedPage()
    } catch (error) {
      const waitSeconds = heldBackWaitSeconds(error)
      if (waitSeconds === undefined) {
        showErrorToast(error)
        return
      }
      // Many wrong passwords were tried on this name: say so in the user's language and offer
      // the owner's way in (a code to the account's phone) instead of a bare English refusal.
      setHeldBackSeconds(waitSeconds)
    }
  }

  async function requestCode(): Promise<boolean> {
    if (!name.trim()) {
      setHasTriedSubmit(true)
      return false
    }
    try {
      await services.requestSignInCode(name.trim())
      startSmsCountdown()
      toast.success(
        t`If this account has a phone number or e-mail address, a sign-in code was sent to it.`,
      )
      return true
    } catch (error) {
      showErrorToast(error)
      return false
    }
  }

  const waitMinutes = Math.max(1, Math.ceil((heldBackSeconds ?? 0) / 60))

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
      {ticketState === 'signingIn' && (
        <p role="status" data-testid="ticket-sign-in">
          <Trans>Signing in with the link…</Trans>
        </p>
      )}
      {ticketState === 'failed' && (
        <p role="alert" data-testid="ticket-sign-in">
          <Trans>
            This sign-in link has expired or was already used. Make a new one, or sign in with your
            name and password.
          </Trans>
        </p>
      )}
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
        {heldBackSeconds !== null && (
          <div className="ts-sign-page__held-back" role="alert" data-testid="sign-in-held-back">
            <p>
              {heldBackSeconds < 60 ? (
                <Trans>
                  Too many wrong passwords were tried for this account. Try again in{' '}
                  {heldBackSeconds} s, or sign in now with a code sent to the account's phone or
                  e-mail.
                </Trans>
              ) : (
                <Trans>
                  Too many wrong passwords were tried for this account. Try again in {waitMinutes}{' '}
                  min, or sign in now with a code sent to the account's phone or e-mail.
                </Trans>
              )}
            </p>
            <SmsCodeField value={code} onValueChange={setCode} onRequestCode={requestCode} />
          </div>
        )}
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
