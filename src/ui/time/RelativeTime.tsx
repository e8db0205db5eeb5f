import { useLingui } from '@lingui/react'
import { useEffect, useState } from 'react'
import { relativeTime, relativeTimeRefreshMs } from './relative-time'

/** Props of {@link RelativeTime}. */
export interface RelativeTimeProps {
  /** The moment described, in epoch milliseconds. */
  fromMs: number
  /** A fixed "now"; without it the text follows the clock and updates itself. */
  nowMs?: number
}

/**
 * "5 minutes ago" in the active language, inside a `<time>` whose tooltip is the full local
 * date and time.
 */
export function RelativeTime({ fromMs, nowMs }: RelativeTimeProps) {
  const { i18n } = useLingui()
  const [clockMs, setClockMs] = useState(() => Date.now())
  const currentMs = nowMs ?? clockMs

  useEffect(() => {
    if (nowMs !== undefined) return
    const timer = setTimeout(() => setClockMs(Date.now()), relativeTimeRefreshMs(fromMs, clockMs))
    return () => clearTimeout(timer)
  }, [fromMs, nowMs, clockMs])

  const date = new Date(fromMs)
  return (
    <time
      dateTime={date.toISOString()}
      title={i18n.date(date, { dateStyle: 'medium', timeStyle: 'medium' })}
    >
      {relativeTime(fromMs, currentMs, (descriptor) => i18n._(descriptor))}
    </time>
  )
}
