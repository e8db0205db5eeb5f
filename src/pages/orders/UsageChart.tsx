import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { getUsageHistory, type UsageDay, type UsageHistory } from '../../api/orders'
import { errorText } from '../../components/feedback/error-text'
import { ErrorState, formatFileSize, Spinner } from '../../ui'

/** Days the chart shows. */
const chartDays = 30

/** Drawing units of one chart row (the SVG scales to the panel's width). */
const width = 300
const rowHeight = 48

/**
 * The project's metered usage over the last 30 days (issue 20 item 2): bytes uploaded, bytes of
 * files that replaced earlier ones (update traffic) and configuration changes per day, as three
 * rows of bars; each bar names its day and value, and the totals are written out for readers
 * who do not see the bars.
 */
export function UsageChart({ projectId }: { projectId: string }) {
  const { i18n, t } = useLingui()
  const [history, setHistory] = useState<UsageHistory | null>(null)
  const [loadError, setLoadError] = useState<unknown>(null)
  const [attempt, setAttempt] = useState(0)

  // `attempt` is a dependency on purpose: Retry bumps it
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    let isCurrent = true
    getUsageHistory(projectId, chartDays)
      .then((loaded) => isCurrent && setHistory(loaded))
      .catch((error: unknown) => isCurrent && setLoadError(error))
    return () => {
      isCurrent = false
    }
  }, [projectId, attempt])

  if (!history) {
    return loadError !== null ? (
      <ErrorState message={errorText(loadError)} onRetry={() => setAttempt(attempt + 1)} />
    ) : (
      <Spinner label={t`Loading the usage`} />
    )
  }
  const uploaded = formatFileSize(history.days.reduce((sum, day) => sum + day.upload_bytes, 0))
  const updated = formatFileSize(history.days.reduce((sum, day) => sum + day.update_bytes, 0))
  const changes = history.days.reduce((sum, day) => sum + day.configuration_operations, 0)
  const firstDay = history.days[0]?.day
  const lastDay = history.days.at(-1)?.day
  return (
    <figure className="ts-usage-chart">
      <figcaption className="ts-usage-chart__caption">
        <Trans>Usage in the last {chartDays} days</Trans>
      </figcaption>
      <BarRow
        label={t`Uploaded`}
        days={history.days}
        amountOf={(day) => day.upload_bytes}
        textOf={(day) => formatFileSize(day.upload_bytes)}
        total={uploaded}
        className="ts-usage-chart__bars--upload"
      />
      <BarRow
        label={t`Updated`}
        days={history.days}
        amountOf={(day) => day.update_bytes}
        textOf={(day) => formatFileSize(day.update_bytes)}
        total={updated}
        className="ts-usage-chart__bars--update"
      />
      <BarRow
        label={t`Configuration changes`}
        days={history.days}
        amountOf={(day) => day.configuration_operations}
        textOf={(day) => String(day.configuration_operations)}
        total={String(changes)}
        className="ts-usage-chart__bars--changes"
      />
      {firstDay !== undefined && lastDay !== undefined && (
        // the first and last day under the bars: one day's bar at the right edge reads as today
        // in the rows' grid, so the days stand under the bars' first and last slot
        <div className="ts-usage-chart__row">
          <span />
          <div className="ts-usage-chart__axis" data-testid="usage-axis">
            <span>{dayText(firstDay, i18n.locale)}</span>
            <span>{dayText(lastDay, i18n.locale)}</span>
          </div>
        </div>
      )}
      <p className="ts-usage-chart__totals">
        <Trans>
          Uploaded {uploaded}, updated {updated}, {changes} configuration changes.
        </Trans>
      </p>
    </figure>
  )
}

/** A `YYYY-MM-DD` day as a short date in the user's language ("11월 28일", "Nov 28"). */
function dayText(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return day
  return date.toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

/** One row of bars, scaled to its largest day, with the row's total beside its name. */
function BarRow({
  label,
  days,
  amountOf,
  textOf,
  total,
  className,
}: {
  label: string
  days: readonly UsageDay[]
  amountOf: (day: UsageDay) => number
  textOf: (day: UsageDay) => string
  total: string
  className: string
}) {
  const largest = Math.max(1, ...days.map(amountOf))
  const slot = width / Math.max(1, days.length)
  return (
    <div className="ts-usage-chart__row">
      <span className="ts-usage-chart__label">
        {label}
        <strong className="ts-usage-chart__total">{total}</strong>
      </span>
      <svg
        className={`ts-usage-chart__bars ${className}`}
        viewBox={`0 0 ${width} ${rowHeight}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
      >
        <line x1={0} x2={width} y1={rowHeight - 0.5} y2={rowHeight - 0.5} />
        {days.map((day, index) => {
          const value = amountOf(day)
          // a day with any usage stays visible next to a large one
          const height = value === 0 ? 0 : Math.max(2, (value / largest) * (rowHeight - 2))
          return (
            <rect
              key={day.day}
              x={index * slot + slot * 0.15}
              y={rowHeight - height}
              width={slot * 0.7}
              height={height}
            >
              <title>{`${day.day}: ${textOf(day)}`}</title>
            </rect>
          )
        })}
      </svg>
    </div>
  )
}
