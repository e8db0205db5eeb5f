import type { ReactNode } from 'react'
import { EmptyState } from './EmptyState'
import { ErrorState } from './ErrorState'
import { Spinner } from './Spinner'

/** Props of {@link LoadStates}. */
export interface LoadStatesProps<Data> {
  /** What has loaded; null or undefined until the first answer. */
  data: Data | null | undefined
  /**
   * Why loading failed, as the text to show; null when it did not. Shown only while nothing has
   * loaded: a failed refresh keeps the last content on screen.
   */
  error: ReactNode | null
  onRetry?: () => void
  isRetrying?: boolean
  /** Whether the loaded data has nothing to show. */
  isEmpty: (data: Data) => boolean
  /** The empty state's title (and, optionally, its description). */
  emptyTitle: ReactNode
  emptyDescription?: ReactNode
  /** An action in the empty state, e.g. a Create button. */
  emptyAction?: ReactNode
  /** The spinner's accessible label. */
  loadingLabel?: string
  children: (data: Data) => ReactNode
}

/**
 * The four states of anything loaded from the server — failed (with Retry), loading, empty and
 * loaded — in the order every list screen checks them, so each screen only says what it shows.
 */
export function LoadStates<Data>({
  data,
  error,
  onRetry,
  isRetrying,
  isEmpty,
  emptyTitle,
  emptyDescription,
  emptyAction,
  loadingLabel,
  children,
}: LoadStatesProps<Data>) {
  if (data === null || data === undefined) {
    if (error !== null)
      return <ErrorState message={error} onRetry={onRetry} isRetrying={isRetrying} />
    return <Spinner label={loadingLabel} />
  }
  if (isEmpty(data))
    return <EmptyState title={emptyTitle} description={emptyDescription} action={emptyAction} />
  return <>{children(data)}</>
}
