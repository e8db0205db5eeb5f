import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button } from './Button'
import './states.css'

/** Props of {@link ErrorState}. */
export interface ErrorStateProps {
  /** Defaults to "Something went wrong". */
  title?: ReactNode
  /** The reason, typically the server's message. */
  message?: ReactNode
  /** Shows a Retry button that calls this. */
  onRetry?: () => void
  /** The retry is running. */
  isRetrying?: boolean
}

/** Shown in place of content that failed to load, with an optional retry. */
export function ErrorState({ title, message, onRetry, isRetrying = false }: ErrorStateProps) {
  return (
    <div className="ts-state ts-state--error" role="alert">
      <svg className="ts-state__icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 3l10 18H2z M12 10v5 M12 18v.5" />
      </svg>
      <p className="ts-state__title">{title ?? <Trans>Something went wrong</Trans>}</p>
      {message && <p className="ts-state__description">{message}</p>}
      {onRetry && (
        <div className="ts-state__action">
          <Button onClick={onRetry} isBusy={isRetrying}>
            <Trans>Retry</Trans>
          </Button>
        </div>
      )}
    </div>
  )
}
