/**
 * The time source of the server. Session expiry and timestamps read it instead of `Date.now()`
 * so tests can move time forward without waiting.
 */
export interface Clock {
  nowMs(): number
}

/** The real wall clock. */
export const systemClock: Clock = { nowMs: () => Date.now() }

/**
 * Stored timestamps are ISO 8601 UTC strings of fixed width (`toISOString()`), in SQLite and
 * PostgreSQL alike, so they compare correctly as text.
 */
export function timestampOf(epochMs: number): string {
  return new Date(epochMs).toISOString()
}
