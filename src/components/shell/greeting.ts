import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/** SPEC §9 greeting periods. */
export type DayPeriod = 'night' | 'morning' | 'noon' | 'afternoon' | 'evening'

/** SPEC §9: 0-5 night, 6-11 morning, 12-13 noon, 14-18 afternoon, 19-23 evening. */
export function dayPeriodOfHour(hour: number): DayPeriod {
  if (hour < 6) return 'night'
  if (hour < 12) return 'morning'
  if (hour < 14) return 'noon'
  if (hour < 19) return 'afternoon'
  return 'evening'
}

/** The greeting of each period, followed by the user's name in the top menu. */
export const dayPeriodGreetings: Record<DayPeriod, MessageDescriptor> = {
  night: msg`Good night`,
  morning: msg`Good morning`,
  noon: msg`Good noon`,
  afternoon: msg`Good afternoon`,
  evening: msg`Good evening`,
}
