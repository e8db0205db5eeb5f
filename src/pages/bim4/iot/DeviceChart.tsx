import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useSnapshot } from 'valtio'
import { statusKey } from '../../../../contract/iot'
import { getDeviceTimeseries } from '../../../api/iot'
import { showErrorToast } from '../../../components/feedback/error-text'
import { Spinner } from '../../../ui'
import { iotStore } from './iot-store'

/** The chart's window: the last hour, one average per minute (the 1-minute rollups). */
const windowMs = 3_600_000
const bucketMs = 60_000
const seriesColours = ['#1e88e5', '#e53935', '#43a047', '#8e24aa', '#fb8c00']

type ChartData = { keys: string[]; times: number[]; columns: (number | null)[][] }

/** Adds a live message as the newest point; false when it is not newer than the last one. */
function appendLiveValue(
  data: ChartData,
  message: { ts: number; values: Record<string, unknown> },
): boolean {
  const second = message.ts / 1000
  if (data.times.length > 0 && second <= data.times[data.times.length - 1]!) return false
  data.times.push(second)
  data.keys.forEach((key, index) => {
    const value = message.values[key]
    data.columns[index]!.push(typeof value === 'number' ? value : null)
  })
  return true
}

/** The time axis's span in seconds: the hour up to now, or up to a newer live value. */
export function lastHourRange(nowMs: number, dataMaxSeconds: number | null): [number, number] {
  const nowSeconds = nowMs / 1000
  const maxSeconds = Math.max(nowSeconds, dataMaxSeconds ?? nowSeconds)
  return [maxSeconds - windowMs / 1000, maxSeconds]
}

/**
 * A device's keys over the last hour (uPlot): per-minute averages read from the server's
 * 1-minute rollups (`getDeviceTimeseries` AVG), then each live value drawn as it arrives.
 * The keys are the ones the device has sent while the page is open, or `temperature`.
 */
export function DeviceChart({ deviceId }: { deviceId: string }) {
  const { t, i18n } = useLingui()
  const iot = useSnapshot(iotStore)
  const latest = iot.latest[deviceId]
  // read by the plot when it is made, without remaking the plot on every message
  const latestRef = useRef(latest)
  latestRef.current = latest
  const keys = Object.keys(latest?.values ?? {})
    .filter((key) => key !== statusKey)
    .sort()
    .slice(0, seriesColours.length)
  const keyText = keys.length > 0 ? keys.join(',') : 'temperature'
  const hostRef = useRef<HTMLDivElement>(null)
  const plotRef = useRef<uPlot | null>(null)
  /** Seconds (uPlot's x unit) and one column per key, as loaded plus live values. */
  const dataRef = useRef<ChartData>({
    keys: [],
    times: [],
    columns: [],
  })
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading')

  // (re)load when the device or its keys change
  useEffect(() => {
    const chartKeys = keyText.split(',')
    const abort = new AbortController()
    setState('loading')
    const endTs = Date.now()
    const startTs = Math.floor((endTs - windowMs) / bucketMs) * bucketMs
    getDeviceTimeseries({
      deviceId,
      keys: chartKeys,
      startTs,
      endTs: endTs + bucketMs,
      intervalMs: bucketMs,
      agg: 'AVG',
      limit: 1000,
      signal: abort.signal,
    })
      .then((series) => {
        const times = [
          ...new Set(chartKeys.flatMap((key) => (series[key] ?? []).map((point) => point.ts))),
        ].sort((a, b) => a - b)
        const columns = chartKeys.map((key) => {
          const byTime = new Map((series[key] ?? []).map((point) => [point.ts, point.value]))
          return times.map((time) => byTime.get(time) ?? null)
        })
        dataRef.current = { keys: chartKeys, times: times.map((time) => time / 1000), columns }
        setState('ready')
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        setState('error')
        showErrorToast(error)
      })
    return () => abort.abort()
  }, [deviceId, keyText])

  // the plot, made once the data is there
  useEffect(() => {
    const host = hostRef.current
    if (state !== 'ready' || !host) return undefined
    // a value that arrived while the series loaded (the minute's rollup may not have it yet)
    if (latestRef.current) appendLiveValue(dataRef.current, latestRef.current)
    const { keys: chartKeys, times, columns } = dataRef.current
    // the canvas cannot inherit CSS colours: the axes take the panel's text colour
    const textColour = getComputedStyle(host).color
    const gridColour = 'rgba(128, 128, 128, 0.25)'
    // uPlot's own labels and dates are English: the time axis and the legend speak the
    // user's language through Intl instead
    const axisTime = new Intl.DateTimeFormat(i18n.locale, { hour: '2-digit', minute: '2-digit' })
    const legendTime = new Intl.DateTimeFormat(i18n.locale, {
      dateStyle: 'short',
      timeStyle: 'medium',
    })
    const plot = new uPlot(
      {
        width: Math.max(200, host.clientWidth),
        height: 180,
        series: [
          {
            label: t`Time`,
            value: (_plot, seconds) =>
              seconds == null ? '--' : legendTime.format(new Date(seconds * 1000)),
          },
          ...chartKeys.map((key, index) => ({
            label: key,
            stroke: seriesColours[index % seriesColours.length]!,
            width: 2,
            spanGaps: true,
            // a lone value has no line to draw: its point is
            points: { show: true, size: 5 },
          })),
        ],
        axes: [
          {
            stroke: textColour,
            grid: { stroke: gridColour },
            ticks: { stroke: gridColour },
            values: (_plot, splits) =>
              splits.map((seconds) => axisTime.format(new Date(seconds * 1000))),
          },
          {
            size: 44,
            stroke: textColour,
            grid: { stroke: gridColour },
            ticks: { stroke: gridColour },
          },
        ],
        // The time axis always spans the last hour up to now (or the newest live value): with
        // a single point, uPlot's own range would be one instant and every tick the same time.
        scales: {
          x: {
            time: true,
            // the newest time from the data itself: uPlot pads a lone point's extent by a day
            range: (plot) => lastHourRange(Date.now(), plot.data[0].at(-1) ?? null),
          },
        },
        legend: { show: true },
      },
      [times, ...columns] as uPlot.AlignedData,
      host,
    )
    plotRef.current = plot
    return () => {
      plot.destroy()
      plotRef.current = null
    }
  }, [state, i18n.locale, t])

  // live values: each message of the device becomes a point
  useEffect(() => {
    const plot = plotRef.current
    if (!plot || !latest) return
    if (appendLiveValue(dataRef.current, latest)) {
      const data = dataRef.current
      plot.setData([data.times, ...data.columns] as uPlot.AlignedData)
    }
  }, [latest])

  return (
    <figure className="ts-iot-chart" data-testid="iot-device-chart">
      <figcaption>
        <Trans>Last hour (average per minute, then live)</Trans>
      </figcaption>
      {state === 'loading' && <Spinner label={t`Loading the time series`} />}
      {state === 'error' && (
        <p className="ts-bim4-muted">
          <Trans>The time series could not be loaded.</Trans>
        </p>
      )}
      <div ref={hostRef} className="ts-iot-chart__plot" lang={i18n.locale} />
    </figure>
  )
}
