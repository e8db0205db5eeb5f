import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec'
import { describe, expect, it } from 'vitest'
import {
  createOfflineMapStyle,
  offlineDetailMaxZoom,
  pickerStartView,
  serverMapData,
} from './offline-style'
import { localeRegionView, worldView } from './locale-region'

describe('offline map style', () => {
  it('is a valid MapLibre style that needs no network but our own server', () => {
    const style = createOfflineMapStyle(serverMapData('http://127.0.0.1:8080'), 'ko')
    expect(validateStyleMin(style)).toEqual([])
    const text = JSON.stringify(style)
    const urls = text.match(/https?:\/\/[^"]+/g) ?? []
    expect(urls.sort()).toEqual([
      'http://127.0.0.1:8080/web/maps/countries.geojson',
      'http://127.0.0.1:8080/web/maps/places.geojson',
    ])
    expect(style.glyphs).toBeUndefined()
    expect(style.sprite).toBeUndefined()
  })

  it('labels places in the chosen language, falling back to English', () => {
    const labelsOf = (language: 'ko' | 'zh' | 'en') =>
      JSON.stringify(
        createOfflineMapStyle({ countries: {}, places: {} }, language).layers.find(
          (layer) => layer.id === 'place-labels',
        ),
      )
    expect(labelsOf('ko')).toContain('nameKo')
    expect(labelsOf('zh')).toContain('nameZh')
    expect(labelsOf('en')).not.toMatch(/nameKo|nameZh/)
  })
})

describe('picker start view', () => {
  it('opens over the browser locale’s region, else the UI language’s home, else the world', () => {
    expect(pickerStartView('en', null, offlineDetailMaxZoom, ['en-GB', 'en'])).toEqual(
      localeRegionView(['en-GB'], 'en'),
    )
    expect(pickerStartView('en', null, offlineDetailMaxZoom, ['en-GB']).center.lng).toBeCloseTo(
      -2.5,
    )
    expect(
      pickerStartView('zh', null, offlineDetailMaxZoom, ['zh-Hant-TW']).center.lat,
    ).toBeCloseTo(23.7)
    // a locale without a region: the language's home
    expect(pickerStartView('en', null, offlineDetailMaxZoom, ['ko']).center.lng).toBeCloseTo(127.8)
    expect(pickerStartView('ko', null, offlineDetailMaxZoom, []).center.lng).toBeCloseTo(127.8)
    expect(pickerStartView('en', null, offlineDetailMaxZoom, ['en'])).toEqual(worldView)
    // never closer than the offline data has detail for
    expect(pickerStartView('en', null, 3, ['en-SG']).zoom).toBe(3)
  })

  it('opens at a point picked before', () => {
    expect(pickerStartView('en', { lng: 2.35, lat: 48.85 }).center).toEqual({
      lng: 2.35,
      lat: 48.85,
    })
  })
})
