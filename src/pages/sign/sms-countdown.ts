import { session } from '../../state/session'

/** decisions.md "Accounts": another code may be requested 60 s after the last one. */
export const smsResendIntervalSeconds = 60

let countdownTimer: ReturnType<typeof setInterval> | null = null

/**
 * Starts the resend countdown in the session store (SPEC's again_second), so it keeps running
 * when the user moves between sign-up and forgot-password.
 */
export function startSmsCountdown(seconds: number = smsResendIntervalSeconds): void {
  stopSmsCountdown()
  session.againSecond = seconds
  countdownTimer = setInterval(() => {
    session.againSecond = Math.max(0, session.againSecond - 1)
    if (session.againSecond === 0) stopSmsCountdown()
  }, 1000)
}

/** Stops the countdown and allows a new request at once. */
export function stopSmsCountdown(): void {
  if (countdownTimer !== null) clearInterval(countdownTimer)
  countdownTimer = null
  session.againSecond = 0
}
