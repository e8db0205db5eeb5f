import type { InputHTMLAttributes, ReactNode, Ref } from 'react'
import { useId } from 'react'
import './field.css'

/** Props of {@link TextField}: native input attributes plus label, hint and error. */
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: ReactNode
  /** A validation message; marks the input invalid and is announced with it. */
  error?: ReactNode
  /** Help text under the input, hidden while an error shows. */
  hint?: ReactNode
  /** A control drawn inside the input's right edge (e.g. a show-password toggle). */
  endAdornment?: ReactNode
  ref?: Ref<HTMLInputElement>
}

/**
 * A labelled text input. `required` adds a visual marker and `aria-required`; the error is wired
 * through `aria-describedby` so screen readers read it when the input gets focus.
 */
export function TextField({
  label,
  error,
  hint,
  endAdornment,
  id,
  required,
  className,
  ...inputProps
}: TextFieldProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  const messageId = `${inputId}-message`
  const hasError = error !== undefined && error !== null && error !== false && error !== ''
  const message = hasError ? error : hint
  return (
    <div
      className={['ts-field', hasError && 'ts-field--invalid', className].filter(Boolean).join(' ')}
    >
      <label className="ts-field__label" htmlFor={inputId}>
        {label}
        {required && (
          <span className="ts-field__required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <div className="ts-field__control">
        <input
          {...inputProps}
          id={inputId}
          className="ts-field__input"
          required={required}
          aria-required={required || undefined}
          aria-invalid={hasError || undefined}
          aria-describedby={message ? messageId : undefined}
        />
        {endAdornment && <div className="ts-field__adornment">{endAdornment}</div>}
      </div>
      {message && (
        <p
          id={messageId}
          className={hasError ? 'ts-field__error' : 'ts-field__hint'}
          role={hasError ? 'alert' : undefined}
        >
          {message}
        </p>
      )}
    </div>
  )
}
