import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { poiStatusColourOf } from '../../../engine-bridge'

/** SPEC §3 device status codes as people read them. */
const statusNames: Record<number, MessageDescriptor> = {
  0: msg`Off`,
  1: msg`On`,
  2: msg`Normal`,
  3: msg`Fire alarm`,
  11: msg`Fault`,
  31: msg`Abnormal`,
  41: msg`Hidden danger`,
}

/** The name of a status code; unknown codes and "no status yet" have their own words. */
export function statusNameOf(i18n: I18n, code: number | null): string {
  if (code === null) return i18n._(msg`No status yet`)
  const name = statusNames[code]
  return name ? i18n._(name) : i18n._(msg`Status ${code}`)
}

/** The CSS colour of a status code: the same the scene draws the POI's disc in. */
export function statusCssColourOf(code: number | null): string {
  if (code === null) return 'transparent'
  const [red, green, blue] = poiStatusColourOf(code)
  return `rgb(${red}, ${green}, ${blue})`
}

/** The alarm states as people read them. */
export const alarmStateNames = {
  active: msg`Active`,
  acknowledged: msg`Acknowledged`,
  cleared: msg`Cleared`,
} as const

/** A value for a list: at most one decimal place, in the user's number format. */
export function formatValue(i18n: I18n, value: number): string {
  return new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 1 }).format(value)
}

/** A date and time in the user's language. */
export function formatDateTime(i18n: I18n, value: string | number): string {
  return new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'medium' }).format(
    new Date(value),
  )
}
