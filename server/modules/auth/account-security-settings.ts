import { z } from 'zod'

/**
 * Limits of sign-in, sign-up codes, the e-mail check and guest sessions (docs/configuration.md
 * "Accounts and limits"), read from the environment with the rest of the configuration.
 */
export interface AccountSecuritySettings {
  /** From this many failed sign-ins in a row, each further attempt waits (doubling each time). */
  signInSlowAfterFailures: number
  /** The first wait once slowed; each further failure doubles it. */
  signInSlowDelayMs: number
  /** This many failures in a row from one address lock that address out of the name. */
  signInLockAfterFailures: number
  signInLockMs: number
  /**
   * From this many failures on one name over all addresses, each attempt on it waits for a
   * slot (`signInSlowDelayMs`, doubling, up to `signInNameMaxDelayMs`); no hard lock.
   */
  signInNameSlowAfterFailures: number
  signInNameMaxDelayMs: number
  /** Failed sign-ins one client address may make per hour, over all account names. */
  signInFailuresPerIpPerHour: number
  /** Verification codes (SMS or e-mail) sent to one phone or address per hour. */
  codesPerRecipientPerHour: number
  /** Verification codes one client address may request per hour. */
  codesPerIpPerHour: number
  /** `/register/isexistemail` checks one client address may make per hour. */
  accountChecksPerIpPerHour: number
  /** Lifetime of a guest session. */
  guestSessionMs: number
  /** Guest sessions one client address may open per hour. */
  guestSessionsPerIpPerHour: number
  /**
   * Where SMS and e-mail go instead of the local outbox: a URL receiving
   * `POST {channel, to, subject, text}` as JSON. Unset: the outbox only.
   */
  messageWebhookUrl: string | undefined
}

const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((value) => value >= min && value <= max, `${name} must be from ${min} to ${max}`)
    .default(fallback)

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const accountSecurityEnvironmentShape = {
  SIGN_IN_SLOW_AFTER_FAILURES: wholeNumber('SIGN_IN_SLOW_AFTER_FAILURES', 1, 100, 3),
  SIGN_IN_SLOW_DELAY_SECONDS: wholeNumber('SIGN_IN_SLOW_DELAY_SECONDS', 1, 3_600, 5),
  SIGN_IN_LOCK_AFTER_FAILURES: wholeNumber('SIGN_IN_LOCK_AFTER_FAILURES', 1, 1_000, 5),
  SIGN_IN_LOCK_MINUTES: wholeNumber('SIGN_IN_LOCK_MINUTES', 1, 10_080, 15),
  SIGN_IN_NAME_SLOW_AFTER_FAILURES: wholeNumber('SIGN_IN_NAME_SLOW_AFTER_FAILURES', 1, 1_000, 10),
  SIGN_IN_NAME_MAX_DELAY_MINUTES: wholeNumber('SIGN_IN_NAME_MAX_DELAY_MINUTES', 1, 1_440, 15),
  SIGN_IN_FAILURES_PER_IP_PER_HOUR: wholeNumber('SIGN_IN_FAILURES_PER_IP_PER_HOUR', 1, 100_000, 30),
  CODES_PER_RECIPIENT_PER_HOUR: wholeNumber('CODES_PER_RECIPIENT_PER_HOUR', 1, 1_000, 5),
  CODES_PER_IP_PER_HOUR: wholeNumber('CODES_PER_IP_PER_HOUR', 1, 100_000, 20),
  ACCOUNT_CHECKS_PER_IP_PER_HOUR: wholeNumber('ACCOUNT_CHECKS_PER_IP_PER_HOUR', 1, 100_000, 30),
  GUEST_SESSION_MINUTES: wholeNumber('GUEST_SESSION_MINUTES', 1, 1_440, 120),
  GUEST_SESSIONS_PER_IP_PER_HOUR: wholeNumber('GUEST_SESSIONS_PER_IP_PER_HOUR', 1, 100_000, 30),
  MESSAGE_WEBHOOK_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, 'MESSAGE_WEBHOOK_URL must be an http:// or https:// address')
    .optional(),
}

type ParsedEnvironment = z.output<z.ZodObject<typeof accountSecurityEnvironmentShape>>

/** The settings from the parsed environment variables. */
export function accountSecuritySettingsOf(values: ParsedEnvironment): AccountSecuritySettings {
  return {
    signInSlowAfterFailures: values.SIGN_IN_SLOW_AFTER_FAILURES,
    signInSlowDelayMs: values.SIGN_IN_SLOW_DELAY_SECONDS * 1_000,
    signInLockAfterFailures: values.SIGN_IN_LOCK_AFTER_FAILURES,
    signInLockMs: values.SIGN_IN_LOCK_MINUTES * 60_000,
    signInNameSlowAfterFailures: values.SIGN_IN_NAME_SLOW_AFTER_FAILURES,
    signInNameMaxDelayMs: values.SIGN_IN_NAME_MAX_DELAY_MINUTES * 60_000,
    signInFailuresPerIpPerHour: values.SIGN_IN_FAILURES_PER_IP_PER_HOUR,
    codesPerRecipientPerHour: values.CODES_PER_RECIPIENT_PER_HOUR,
    codesPerIpPerHour: values.CODES_PER_IP_PER_HOUR,
    accountChecksPerIpPerHour: values.ACCOUNT_CHECKS_PER_IP_PER_HOUR,
    guestSessionMs: values.GUEST_SESSION_MINUTES * 60_000,
    guestSessionsPerIpPerHour: values.GUEST_SESSIONS_PER_IP_PER_HOUR,
    messageWebhookUrl: values.MESSAGE_WEBHOOK_URL,
  }
}
