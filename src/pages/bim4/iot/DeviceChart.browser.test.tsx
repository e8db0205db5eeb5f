import { i18n } from '@lingui/core'
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { messages as koMessages } from '../../../i18n/locales/ko/messages.po'
import { messages as zhMessages } from '../../../i18n/locales/zh/messages.po'
import { renderWithI18n } from '../../../ui/testing/render-with-i18n'
import { DeviceChart, lastHourRange } from './DeviceChart'
import { iotStore } from './iot-store'

/**
 * The device chart in real Chromium (uPlot draws on a canvas): its legend speaks the user's
 * language. uPlot's own label is English ("Time"), which a Korean or Chinese editor saw next to
 * their own text in the POI panel.
 */

afterEach(() => {
  cleanup()
  iotStore.latest = {}
  vi.unstubAllGlobals()
})

/** The server's answer: three per-minute averages of `temperature` in the last hour. */
function stubTimeseries(pointCount = 3) {
  const now = Date.now()
  const minute = Math.floor(now / 60_000) * 60_000
  const points = [3, 2, 1]
    .slice(0, pointCount)
    .map((back, index) => ({ ts: minute - back * 60_000, value: 20 + index }))
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ code: '0', message: '', datum: { temperature: points } }), {
          headers: { 'content-type': 'application/json' },
        }),
    ),
  )
}

/** Pixels in the first series' colour (#1e88e5) on the chart's canvas. */
function countSeriesPixels(canvas: HTMLCanvasElement): number {
  const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
  let count = 0
  for (let index = 0; index < pixels.length; index += 4) {
    const [red, green, blue] = [pixels[index]!, pixels[index + 1]!, pixels[index + 2]!]
    if (Math.abs(red - 0x1e) < 40 && Math.abs(green - 0x88) < 40 && Math.abs(blue - 0xe5) < 40) {
      count++
    }
  }
  return count
}

describe('DeviceChart', () => {
  it.each([
    ['ko', koMessages, '시간'],
    ['zh', zhMessages, '时间'],
  ] as const)('labels its legend in %s', async (locale, messages, timeLabel) => {
    await act(async () => i18n.loadAndActivate({ locale, messages }))
    stubTimeseries()
    renderWithI18n(<DeviceChart deviceId="device-1" />)
    const chart = await screen.findByTestId('iot-device-chart')
    await waitFor(() => expect(chart.querySelector('.u-legend')).not.toBeNull(), {
      timeout: 10_000,
    })
    const legend = chart.querySelector('.u-legend')!.textContent ?? ''
    expect(legend).toContain(timeLabel)
    expect(legend).not.toContain('Time')
  })

  it('spans the last hour on its time axis, even with a single point', () => {
    // uPlot's own range of one point is one instant: every tick read "00:00"
    const nowMs = Date.UTC(2026, 10, 28, 12, 0, 0)
    expect(lastHourRange(nowMs, nowMs / 1000 - 60)).toEqual([nowMs / 1000 - 3600, nowMs / 1000])
    // a live value newer than the clock moves the window with it
    expect(lastHourRange(nowMs, nowMs / 1000 + 5)).toEqual([nowMs / 1000 - 3595, nowMs / 1000 + 5])
  })

  it('draws a live value that arrived before the minute was rolled up', async () => {
    // the server has no average yet, the live stream already has the value: the chart shows it
    await act(async () => i18n.loadAndActivate({ locale: 'ko', messages: koMessages }))
    stubTimeseries(0)
    iotStore.latest['device-1'] = { ts: Date.now(), values: { temperature: 21.5 } }
    renderWithI18n(<DeviceChart deviceId="device-1" />)
    const chart = await screen.findByTestId('iot-device-chart')
    await waitFor(() => expect(chart.querySelector('canvas')).not.toBeNull(), { timeout: 10_000 })
    // uPlot draws in a later task: wait for the point's pixels
    await waitFor(
      () => expect(countSeriesPixels(chart.querySelector('canvas')!)).toBeGreaterThan(4),
      {
        timeout: 10_000,
      },
    )
  })
})
