import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import { useSnapshot } from 'valtio'
import { session } from '../../state/session'
import { Button, TextField } from '../../ui'
import { smsCodeLength } from './validation'

/** Props of {@link SmsCodeField}. */
export interface SmsCodeFieldProps {
  value: string
  onValueChange: (code: string) => void
  error?: ReactNode
  /**
   * Sends a code; resolves true when one was sent (the countdown then starts), false when the
   * request was refused (e.g. an invalid phone number) so the button stays available.
   */
  onRequestCode: () => Promise<boolean>
  disabled?: boolean
}

/**
 * The SMS code input with its get-code button. After a code is sent the button shows the
 * seconds left until another may be requested, then offers to resend.
 */
export function SmsCodeField({
  value,
  onValueChange,
  error,
  onRequestCode,
  disabled,
}: SmsCodeFieldProps) {
  const { t } = useLingui()
  const { againSecond } = useSnapshot(session)
  const [hasRequested, setHasRequested] = useState(false)
  const [isRequesting, setIsRequesting] = useState(false)

  async function request() {
    setIsRequesting(true)
    try {
      if (await onRequestCode()) setHasRequested(true)
    } finally {
      setIsRequesting(false)
    }
  }

  const isCountingDown = againSecond > 0
  return (
    <div className="ts-sms-code">
      <TextField
        label={t`Verification code`}
        value={value}
        onChange={(event) => onValueChange(event.target.value.replace(/\D/g, ''))}
        error={error}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={smsCodeLength}
        required
        disabled={disabled}
      />
      <Button
        className="ts-sms-code__button"
        onClick={request}
        isBusy={isRequesting}
        disabled={disabled || isCountingDown}
        data-testid="sms-code-button"
      >
        {isCountingDown ? (
          <Trans>Resend in {againSecond} s</Trans>
        ) : hasRequested ? (
          <Trans>Resend code</Trans>
        ) : (
          <Trans>Get code</Trans>
        )}
      </Button>
    </div>
  )
}
