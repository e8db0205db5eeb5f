import type { ButtonHTMLAttributes, Ref } from 'react'
import { Spinner } from './Spinner'
import './Button.css'

/** The four looks of a button: main action, secondary action, destructive action, quiet action. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost'

/** Props of {@link Button}: every native button attribute plus the kit's variant and busy state. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  /** An action is running: shows a spinner and refuses clicks until it ends. */
  isBusy?: boolean
  ref?: Ref<HTMLButtonElement>
}

/**
 * The kit's button. `type` defaults to "button" so a button inside a form never submits it by
 * accident; pass `type="submit"` for the one that should.
 */
export function Button({
  variant = 'secondary',
  isBusy = false,
  disabled,
  type = 'button',
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={['ts-button', `ts-button--${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled || isBusy}
      aria-busy={isBusy || undefined}
    >
      {isBusy && <Spinner sizePx={14} isDecorative />}
      <span className="ts-button__label">{children}</span>
    </button>
  )
}
