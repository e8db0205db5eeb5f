import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { captureDwellRange } from '../../../contract/visit'
import { NumberInput } from '../../ui'

/** Quiet time after the last step before a dwell is saved (stepping 1 → 10 saves once). */
export const dwellSaveDelayMs = 500

/**
 * How long the tour stays on one capture (issue 19 "dwell"), 1–600 seconds: typed or stepped,
 * saved after a short quiet time; a refused save puts the saved value back.
 */
export function DwellField({
  name,
  seconds,
  onSave,
}: {
  name: string
  seconds: number
  onSave: (seconds: number) => Promise<void>
}) {
  const { t } = useLingui()
  const [value, setValue] = useState(seconds)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => setValue(seconds), [seconds])
  useEffect(() => () => clearTimeout(timer.current), [])

  const change = (next: number) => {
    setValue(next)
    clearTimeout(timer.current)
    if (next === seconds) return
    timer.current = setTimeout(() => {
      onSave(next).catch(() => setValue(seconds))
    }, dwellSaveDelayMs)
  }
  return (
    <span className="ts-visit__dwell">
      <NumberInput
        label={t`Dwell of ${name}`}
        value={value}
        onChange={change}
        min={captureDwellRange.min}
        max={captureDwellRange.max}
        step={1}
        precision={0}
        unit={t`s`}
      />
    </span>
  )
}
