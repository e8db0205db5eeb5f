import { useLingui } from '@lingui/react/macro'
import './Spinner.css'

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  /** Diameter in CSS pixels. */
  sizePx?: number
  /** Announced to screen readers; defaults to "Loading". */
  label?: string
  /** Hidden from screen readers, for spinners inside a control that already says it is busy. */
  isDecorative?: boolean
}

/** An indeterminate loading indicator, announced as a status. */
export function Spinner({ sizePx = 20, label, isDecorative = false }: SpinnerProps) {
  const { t } = useLingui()
  if (isDecorative) {
    return (
      <span className="ts-spinner" aria-hidden="true" style={{ width: sizePx, height: sizePx }} />
    )
  }
  return (
    <span
      className="ts-spinner"
      role="status"
      aria-label={label ?? t`Loading`}
      style={{ width: sizePx, height: sizePx }}
    />
  )
}
