import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { session } from '../../state/session'
import { dayPeriodGreetings, dayPeriodOfHour } from './greeting'

/** How often the greeting re-reads the clock; a minute is exact enough for a period change. */
const clockCheckIntervalMs = 60_000

/** Props of {@link Greeting}. */
export interface GreetingProps {
  /** The clock to read; tests pass a fixed one. */
  now?: () => Date
}

/** "Good morning, Ada": the period of the local hour and the user's nickname or name. */
export function Greeting({ now = () => new Date() }: GreetingProps) {
  const { i18n, t } = useLingui()
  const { userData } = useSnapshot(session)
  const [hour, setHour] = useState(() => now().getHours())

  useEffect(() => {
    const timer = setInterval(() => setHour(now().getHours()), clockCheckIntervalMs)
    return () => clearInterval(timer)
  }, [now])

  const greeting = i18n._(dayPeriodGreetings[dayPeriodOfHour(hour)])
  const name = userData?.nickname || userData?.name
  return (
    <span className="ts-greeting" data-testid="greeting">
      {name ? t`${greeting}, ${name}` : greeting}
    </span>
  )
}
