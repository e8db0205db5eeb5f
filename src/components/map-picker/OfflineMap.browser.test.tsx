import { i18n } from '@lingui/core'
import type { Map as MapLibreMap } from 'maplibre-gl'
import { beforeAll, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { renderWithI18n } from '../../ui/testing/render-with-i18n'
import { type LatLng, OfflineMap } from './OfflineMap'
import { offlineMapColors } from './offline-style'
import './MapPicker.css'

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})

// A square "country" around the view's centre and one labelled place, given inline so the test
// needs no server: the style, the worker and the WebGL drawing are the product's own.
const countries = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { countryCode: 'KR', name: 'Testland' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [120, 30],
              [134, 30],
              [134, 44],
              [120, 44],
              [120, 30],
            ],
          ],
        ],
      },
    },
  ],
}
const places = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {
        id: 'p1',
        nameEn: 'Seoul',
        nameZh: '首尔',
        nameKo: '서울',
        population: 9e6,
        rank: 0,
      },
      geometry: { type: 'Point', coordinates: [126.978, 37.567] },
    },
  ],
}

function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

/** Counts pixels close to a colour in the map's drawn canvas. */
function countPixels(map: MapLibreMap, hex: string): number {
  const source = map.getCanvas()
  const copy = document.createElement('canvas')
  copy.width = source.width
  copy.height = source.height
  const context = copy.getContext('2d')!
  context.drawImage(source, 0, 0)
  const { data } = context.getImageData(0, 0, copy.width, copy.height)
  const [red, green, blue] = hexToRgb(hex)
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const distance =
      Math.abs(data[index]! - red) +
      Math.abs(data[index + 1]! - green) +
      Math.abs(data[index + 2]! - blue)
    if (distance < 12) count++
  }
  return count
}

describe('offline map in a real browser', () => {
  it('draws water, land and a place with no network, and reports clicks as coordinates', async () => {
    const picks: LatLng[] = []
    let readyMap: MapLibreMap | null = null
    renderWithI18n(
      <div style={{ width: 640, height: 480 }}>
        <OfflineMap
          startView={{ center: { lng: 134, lat: 37 }, zoom: 4 }}
          language="ko"
          marker={null}
          flyTo={null}
          onPick={(location) => picks.push(location)}
          data={{ countries, places }}
          onReady={(map) => {
            readyMap = map
          }}
        />
      </div>,
    )
    await expect.poll(() => readyMap, { timeout: 30_000 }).not.toBeNull()
    const map = readyMap as unknown as MapLibreMap
    await new Promise<void>((resolve) => {
      if (map.loaded() && map.areTilesLoaded()) resolve()
      else map.once('idle', () => resolve())
    })
    // the view is split between the "country" (west) and water (east) at lng 134
    const total = map.getCanvas().width * map.getCanvas().height
    const water = countPixels(map, offlineMapColors.water)
    const land = countPixels(map, offlineMapColors.land)
    expect(water / total).toBeGreaterThan(0.2)
    expect(land / total).toBeGreaterThan(0.2)
    expect(countPixels(map, offlineMapColors.place)).toBeGreaterThan(4)

    const canvas = map.getCanvas()
    const { width, height } = canvas.getBoundingClientRect()
    await userEvent.click(canvas, { position: { x: width / 2, y: height / 2 } })
    await expect.poll(() => picks.length).toBe(1)
    expect(picks[0]!.lng).toBeCloseTo(134, 0)
    expect(picks[0]!.lat).toBeCloseTo(37, 0)
  })
})

/** Renders the map on a style address and answers the map once its first full frame is drawn. */
async function renderOnStyle(styleUrl: string): Promise<MapLibreMap> {
  let readyMap: MapLibreMap | null = null
  renderWithI18n(
    <div style={{ width: 320, height: 240 }}>
      <OfflineMap
        startView={{ center: { lng: 134, lat: 37 }, zoom: 4 }}
        language="en"
        marker={null}
        flyTo={null}
        onPick={() => undefined}
        data={{ countries, places }}
        styleUrl={styleUrl}
        onReady={(map) => {
          readyMap = map
        }}
      />
    </div>,
  )
  await expect.poll(() => readyMap, { timeout: 30_000 }).not.toBeNull()
  const map = readyMap as unknown as MapLibreMap
  await new Promise<void>((resolve) => {
    if (map.loaded() && map.areTilesLoaded()) resolve()
    else map.once('idle', () => resolve())
  })
  return map
}

describe('online map style (MAP_STYLE_URL)', () => {
  it('draws the configured style instead of the offline one', async () => {
    const magenta = '#d01cd0'
    const style = { version: 8, sources: {}, layers: [] as unknown[] }
    style.layers.push({ id: 'bg', type: 'background', paint: { 'background-color': magenta } })
    const styleUrl = URL.createObjectURL(
      new Blob([JSON.stringify(style)], { type: 'application/json' }),
    )
    const map = await renderOnStyle(styleUrl)
    const total = map.getCanvas().width * map.getCanvas().height
    expect(countPixels(map, magenta) / total).toBeGreaterThan(0.9)
    expect(countPixels(map, offlineMapColors.land)).toBe(0)
  })

  it('falls back to the offline style when the online one cannot be loaded', async () => {
    // nothing listens on port 9 (discard): the request is refused at once
    const map = await renderOnStyle('http://127.0.0.1:9/style.json')
    const total = map.getCanvas().width * map.getCanvas().height
    expect(countPixels(map, offlineMapColors.land) / total).toBeGreaterThan(0.2)
    expect(countPixels(map, offlineMapColors.water) / total).toBeGreaterThan(0.2)
  })
})
