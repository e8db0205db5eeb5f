import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import './states.css'

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  /** What is empty; defaults to "No data". */
  title?: ReactNode
  /** A hint on how to fill it, e.g. "Create a project to start." */
  description?: ReactNode
  /** An action such as a Create button. */
  action?: ReactNode
}

/** Shown in place of a list or panel that has nothing to show yet. */
export function EmptyState({ title, description, action }: EmptyStateProps) {
  return (
    <div className="ts-state ts-state--empty">
      <svg className="ts-state__icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M3 7l3-4h12l3 4v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z M3 7h18 M9 12h6" />
      </svg>
      <p className="ts-state__title">{title ?? <Trans>No data</Trans>}</p>
      {description && <p className="ts-state__description">{description}</p>}
      {action && <div className="ts-state__action">{action}</div>}
    </div>
  )
}
