import { Trans } from '@lingui/react/macro'
import { Link } from 'wouter'
import './misc.css'

/** The `*` route: an unknown address. */
export function NotFoundPage() {
  return (
    <main className="ts-message-page">
      <p className="ts-message-page__code" aria-hidden="true">
        404
      </p>
      <h1 className="ts-message-page__title">
        <Trans>Page not found</Trans>
      </h1>
      <p className="ts-message-page__text">
        <Trans>The address you opened does not exist or has moved.</Trans>
      </p>
      <Link href="/" className="ts-message-page__link">
        <Trans>Go to the home page</Trans>
      </Link>
    </main>
  )
}

/** Shown while `/logout` signs out; the guard then goes to sign-in. */
export function LogoutPage() {
  return (
    <main className="ts-message-page" aria-busy="true">
      <p className="ts-message-page__text">
        <Trans>Signing out…</Trans>
      </p>
    </main>
  )
}

/** Shown in place of an admin page to anyone else. */
export function NoPermission() {
  return (
    <section className="ts-message-page ts-message-page--inline" role="alert">
      <h1 className="ts-message-page__title">
        <Trans>No permission</Trans>
      </h1>
      <p className="ts-message-page__text">
        <Trans>Only administrators can open this page.</Trans>
      </p>
    </section>
  )
}
