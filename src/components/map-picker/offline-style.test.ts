import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec'
import { describe, expect, it } from 'vitest'
import {
  createOfflineMapStyle,
  offlineDetailMaxZoom,
  pickerStartView,
  serverMapData,
} from './offline-style'

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
  it('opens at Seoul in Korean and at the city default otherwise, within the basemap’s detail', () => {
    expect(pickerStartView('ko', null)).toEqual({
      center: { lng: 126.978408, lat: 37.566653 },
      zoom: offlineDetailMaxZoom,
    })
    expect(pickerStartView('zh', null).center).toEqual({ lng: 121.6, lat: 31.2 })
    expect(pickerStartView('en', null, 20)).toEqual({ center: { lng: 121.6, lat: 31.2 }, zoom: 16 })
    expect(pickerStartView('ko', null, 20).zoom).toBe(12)
  })

  it('opens at a point picked before', () => {
    expect(pickerStartView('en', { lng: 2.35, lat: 48.85 }).center).toEqual({
      lng: 2.35,
      lat: 48.85,
    })
  })
})
