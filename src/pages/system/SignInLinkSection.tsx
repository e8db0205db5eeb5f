import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { createSignInTicket } from '../../api/auth'
import { showErrorToast } from '../../components/feedback/error-text'
import { Button, toast } from '../../ui'

/** The console's address of a sign-in link: the login page with the ticket in its query. */
export function signInLinkOf(ticket: string, location: Pick<Location, 'origin' | 'pathname'>) {
  return `${location.origin}${location.pathname}#/login?ticket=${encodeURIComponent(ticket)}`
}

/**
 * Sign in on another browser or device without typing the password (`createTicket` →
 * `getTokenByTicket`): a link that works once, for 60 seconds, and whose session ends no later
 * than this one.
 */
export function SignInLinkSection({
  create = createSignInTicket,
}: {
  create?: typeof createSignInTicket
}) {
  const { t, i18n } = useLingui()
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null)
  const [isBusy, setIsBusy] = useState(false)

  async function make() {
    setIsBusy(true)
    try {
      const ticket = await create()
      setLink({ url: signInLinkOf(ticket.ticket, window.location), expiresAt: ticket.expires_at })
    } catch (error) {
      showErrorToast(error)
    } finally {
      setIsBusy(false)
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url)
      toast.success(t`Link copied.`)
    } catch {
      // no clipboard (an insecure page, a refused permission): the link stays selectable
      toast.warning(t`Copy the link by hand.`)
    }
  }

  const expiresAt = link ? i18n.date(link.expiresAt, { timeStyle: 'medium' }) : ''
  return (
    <section className="ts-system-panel" aria-labelledby="sign-in-link-title">
      <h2 id="sign-in-link-title">
        <Trans>Sign in on another device</Trans>
      </h2>
      <p>
        <Trans>
          Make a link that signs you in on another browser or device without your password. It works
          once, within 60 seconds.
        </Trans>
      </p>
      <Button onClick={() => void make()} isBusy={isBusy}>
        <Trans>Make a sign-in link</Trans>
      </Button>
      {link && (
        <div className="ts-system-page__link" data-testid="sign-in-link">
          <input readOnly value={link.url} aria-label={t`Sign-in link`} />
          <Button onClick={() => void copy(link.url)}>
            <Trans>Copy</Trans>
          </Button>
          <p>
            <Trans>Valid until {expiresAt}.</Trans>
          </p>
        </div>
      )}
    </section>
  )
}
