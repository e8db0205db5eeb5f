import type { ReactNode, TextareaHTMLAttributes } from 'react'
import { useId } from 'react'
import { useControllableState } from './use-controllable-state'
import './field.css'

/** SPEC §5: a text area allows 100 characters unless told otherwise. */
export const defaultTextAreaMaxLength = 100

/** Props of {@link TextArea}. */
export interface TextAreaProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue' | 'onChange'> {
  label: ReactNode
  value?: string
  defaultValue?: string
  onValueChange?: (value: string) => void
  /** Characters allowed; the counter shows "used/maxLength". */
  maxLength?: number
  error?: ReactNode
}

/**
 * A multi-line input with a live character count ("12/100"). The limit uses the native
 * `maxlength`, which browsers apply correctly while an IME is composing Korean or Chinese.
 */
export function TextArea({
  label,
  value,
  defaultValue = '',
  onValueChange,
  maxLength = defaultTextAreaMaxLength,
  error,
  id,
  required,
  rows = 4,
  ...rest
}: TextAreaProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  const countId = `${inputId}-count`
  const messageId = `${inputId}-message`
  const [text, setText] = useControllableState({ value, defaultValue, onChange: onValueChange })
  const hasError = Boolean(error)
  return (
    <div
      className={['ts-field', 'ts-textarea', hasError && 'ts-field--invalid']
        .filter(Boolean)
        .join(' ')}
    >
      <label className="ts-field__label" htmlFor={inputId}>
        {label}
        {required && (
          <span className="ts-field__required" aria-hidden="true">
            *
          </span>
        )}
      </label>
      <textarea
        {...rest}
        id={inputId}
        rows={rows}
        className="ts-textarea__input"
        maxLength={maxLength}
        required={required}
        aria-required={required || undefined}
        aria-invalid={hasError || undefined}
        aria-describedby={[countId, hasError && messageId].filter(Boolean).join(' ')}
        value={text}
        // Some edit paths skip maxlength (an IME committing past the limit), so it is kept here too.
        onChange={(event) => setText(event.target.value.slice(0, maxLength))}
      />
      <div className="ts-textarea__footer">
        {hasError ? (
          <p id={messageId} className="ts-field__error" role="alert">
            {error}
          </p>
        ) : (
          <span />
        )}
        <span id={countId} className="ts-textarea__count">
          {text.length}/{maxLength}
        </span>
      </div>
    </div>
  )
}
