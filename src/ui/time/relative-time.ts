import type { MessageDescriptor } from '@lingui/core'
import { msg, plural } from '@lingui/core/macro'

/** The unit a relative time is told in (SPEC §9). */
export type RelativeTimeUnit = 'now' | 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'

/** Translates a message; pass lingui's `i18n._` (or `_` from `useLingui()`). */
export type Translate = (descriptor: MessageDescriptor) => string

const secondMs = 1000
const minuteSeconds = 60
const hourSeconds = 60 * minuteSeconds
const daySeconds = 24 * hourSeconds
/** SPEC §9: under 30 s reads "just now". */
const justNowSeconds = 30
/** SPEC §9: days are counted up to 30; from 31 days on, months. */
const maxDays = 30
const monthDays = 30
const yearDays = 365

/**
 * Which unit and how many of it describe the time from `fromMs` to `nowMs`. A time in the
 * future (a clock a little ahead) counts as now.
 */
export function relativeTimeParts(
  fromMs: number,
  nowMs: number,
): { unit: RelativeTimeUnit; count: number } {
  const seconds = Math.max(0, Math.floor((nowMs - fromMs) / secondMs))
  if (seconds < justNowSeconds) return { unit: 'now', count: 0 }
  if (seconds < minuteSeconds) return { unit: 'second', count: seconds }
  if (seconds < hourSeconds) return { unit: 'minute', count: Math.floor(seconds / minuteSeconds) }
  if (seconds < daySeconds) return { unit: 'hour', count: Math.floor(seconds / hourSeconds) }
  const days = Math.floor(seconds / daySeconds)
  if (days <= maxDays) return { unit: 'day', count: days }
  const months = Math.floor(days / monthDays)
  if (months < 12) return { unit: 'month', count: months }
  return { unit: 'year', count: Math.max(1, Math.floor(days / yearDays)) }
}

/**
 * "just now", "5 minutes ago", "2 years ago" … in the active language, with its plural rules.
 * Pure: the clock and the translator are arguments.
 */
export function relativeTime(fromMs: number, nowMs: number, t: Translate): string {
  const { unit, count } = relativeTimeParts(fromMs, nowMs)
  switch (unit) {
    case 'now':
      return t(msg`just now`)
    case 'second':
      return t(msg({ message: plural(count, { one: '# second ago', other: '# seconds ago' }) }))
    case 'minute':
      return t(msg({ message: plural(count, { one: '# minute ago', other: '# minutes ago' }) }))
    case 'hour':
      return t(msg({ message: plural(count, { one: '# hour ago', other: '# hours ago' }) }))
    case 'day':
      return t(msg({ message: plural(count, { one: '# day ago', other: '# days ago' }) }))
    case 'month':
      return t(msg({ message: plural(count, { one: '# month ago', other: '# months ago' }) }))
    case 'year':
      return t(msg({ message: plural(count, { one: '# year ago', other: '# years ago' }) }))
  }
}

/**
 * How long until the text for `fromMs` can next change: every second while seconds are
 * shown, less often later, so a page full of timestamps does not re-render needlessly.
 */
export function relativeTimeRefreshMs(fromMs: number, nowMs: number): number {
  const seconds = Math.max(0, (nowMs - fromMs) / secondMs)
  if (seconds < minuteSeconds) return secondMs
  if (seconds < hourSeconds) return 15 * secondMs
  return minuteSeconds * secondMs
}
