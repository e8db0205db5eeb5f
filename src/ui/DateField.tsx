import { useLingui } from '@lingui/react/macro'
import { type ReactNode, useEffect, useState } from 'react'
import { Select } from './Select'
import './DateField.css'

/** Props of {@link DateField}. */
export interface DateFieldProps {
  label: ReactNode
  /** `YYYY-MM-DD`, or '' for no date. */
  value: string
  /** Called with `YYYY-MM-DD` once year, month and day are all chosen. */
  onValueChange: (value: string) => void
  disabled?: boolean
  /** First year offered; the last is the current year. */
  firstYear?: number
}

type Part = 'year' | 'month' | 'day'
interface Parts {
  year: number | null
  month: number | null
  day: number | null
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/

function partsOf(value: string): Parts {
  const match = datePattern.exec(value)
  if (!match) return { year: null, month: null, day: null }
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
}

function daysIn(year: number | null, month: number | null): number {
  if (month === null) return 31
  return new Date(Date.UTC(year ?? 2000, month, 0)).getUTCDate()
}

/** The order the UI language writes a date's parts in (ko/zh: year first, en: month first). */
export function datePartOrder(locale: string): Part[] {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: 'UTC' }).formatToParts(
    Date.UTC(2000, 10, 22),
  )
  return parts
    .map((part) => part.type)
    .filter((type): type is Part => type === 'year' || type === 'month' || type === 'day')
}

/**
 * A calendar date in the console's language, whatever the browser's: year, month and day
 * chosen from lists ordered and named as the UI language writes them (`1990년 3월 7일`,
 * `1990年3月7日`, `March 7, 1990`), with the whole date written out below. A native
 * `<input type="date">` shows the browser's locale instead (issue 12 item 17).
 */
export function DateField({
  label,
  value,
  onValueChange,
  disabled,
  firstYear = 1900,
}: DateFieldProps) {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const [parts, setParts] = useState<Parts>(() => partsOf(value))
  useEffect(() => setParts(partsOf(value)), [value])

  const format = (options: Intl.DateTimeFormatOptions, year: number, month = 1, day = 1) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(
      Date.UTC(year, month - 1, day),
    )
  const lastYear = new Date().getFullYear()
  const options: Record<Part, { value: string; label: string }[]> = {
    year: Array.from({ length: lastYear - firstYear + 1 }, (_, index) => {
      const year = lastYear - index
      return { value: String(year), label: format({ year: 'numeric' }, year) }
    }),
    month: Array.from({ length: 12 }, (_, index) => ({
      value: String(index + 1),
      label: format({ month: 'long' }, 2000, index + 1),
    })),
    day: Array.from({ length: daysIn(parts.year, parts.month) }, (_, index) => ({
      value: String(index + 1),
      label: format({ day: 'numeric' }, 2000, 1, index + 1),
    })),
  }
  const labels: Record<Part, string> = { year: t`Year`, month: t`Month`, day: t`Day` }

  function choose(part: Part, chosen: string) {
    const next = { ...parts, [part]: Number(chosen) }
    if (next.day !== null) next.day = Math.min(next.day, daysIn(next.year, next.month))
    setParts(next)
    if (next.year !== null && next.month !== null && next.day !== null) {
      const pad = (number: number) => String(number).padStart(2, '0')
      onValueChange(`${next.year}-${pad(next.month)}-${pad(next.day)}`)
    }
  }

  const isComplete = parts.year !== null && parts.month !== null && parts.day !== null
  return (
    <fieldset className="ts-date-field" disabled={disabled}>
      <legend className="ts-field__label">{label}</legend>
      <div className="ts-date-field__parts">
        {datePartOrder(locale).map((part) => (
          <Select
            key={part}
            label={labels[part]}
            options={options[part]}
            value={parts[part] === null ? undefined : String(parts[part])}
            onValueChange={(chosen) => choose(part, chosen)}
            placeholder={labels[part]}
            disabled={disabled}
          />
        ))}
      </div>
      {isComplete && (
        <output className="ts-date-field__summary" data-testid="date-field-summary">
          {format({ dateStyle: 'long' }, parts.year ?? 2000, parts.month ?? 1, parts.day ?? 1)}
        </output>
      )}
    </fieldset>
  )
}
