import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { TextField, type TextFieldProps } from './TextField'

/** Props of {@link PasswordField}: those of {@link TextField} except the input type. */
export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'>

/** A password input with a show/hide toggle; `autoComplete` defaults to "current-password". */
export function PasswordField({ autoComplete = 'current-password', ...props }: PasswordFieldProps) {
  const { t } = useLingui()
  const [isRevealed, setIsRevealed] = useState(false)
  return (
    <TextField
      {...props}
      type={isRevealed ? 'text' : 'password'}
      autoComplete={autoComplete}
      endAdornment={
        <button
          type="button"
          className="ts-field__toggle"
          aria-pressed={isRevealed}
          aria-label={isRevealed ? t`Hide password` : t`Show password`}
          onClick={() => setIsRevealed((revealed) => !revealed)}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
            {isRevealed && <path d="M4 4l16 16" />}
          </svg>
        </button>
      }
    />
  )
}
