import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'

/** Props of {@link NotConfigured}. */
export interface NotConfiguredProps {
  /** What the page would show. */
  children: ReactNode
  /** The environment lines that configure it (shown as typed: variable names are not words). */
  settings: readonly string[]
  /** What to know besides setting the variables. */
  notes?: ReactNode
}

/**
 * Says why an embedded product's page is empty and how the server's administrator connects it:
 * the environment variables to set (docs/configuration.md "Embedded products") and a restart.
 */
export function NotConfigured({ children, settings, notes }: NotConfiguredProps) {
  return (
    <section className="ts-tb-setup" data-testid="embedded-not-configured">
      <h2 className="ts-tb-setup__title">
        <Trans>Not connected yet</Trans>
      </h2>
      {children}
      <p>
        <Trans>
          To connect it, the server's administrator sets these environment variables and restarts
          the server:
        </Trans>
      </p>
      <pre className="ts-tb-setup__settings">
        <code>{settings.join('\n')}</code>
      </pre>
      <p>
        <Trans>
          The console then lets the browser show that address in a frame, and no other (the Content
          Security Policy's frame-src). The product itself must allow being framed by this console's
          address.
        </Trans>
      </p>
      {notes}
    </section>
  )
}
