import { describe, expect, it } from 'vitest'
import { createPmtilesStyle } from './basemap-style'

describe('createPmtilesStyle', () => {
  it('draws a raster archive as one raster layer through the pmtiles protocol', () => {
    const style = createPmtilesStyle({
      url: 'http://localhost/maps/aerial.pmtiles',
      kind: 'raster',
      minZoom: 0,
      maxZoom: 14,
      vectorLayerIds: [],
    })
    expect(style.sources.basemap).toMatchObject({
      type: 'raster',
      url: 'pmtiles://http://localhost/maps/aerial.pmtiles',
    })
    expect(style.layers.map((layer) => layer.type)).toEqual(['background', 'raster'])
  })

  it('draws every layer of a vector archive by geometry type', () => {
    const style = createPmtilesStyle({
      url: 'http://localhost/maps/city.pmtiles',
      kind: 'vector',
      minZoom: 0,
      maxZoom: 15,
      vectorLayerIds: ['roads', 'buildings'],
      attribution: '© OpenStreetMap',
    })
    expect(style.sources.basemap).toMatchObject({ type: 'vector', attribution: '© OpenStreetMap' })
    const ids = style.layers.map((layer) => layer.id)
    expect(ids).toEqual([
      'background',
      'roads-fill',
      'roads-line',
      'roads-point',
      'buildings-fill',
      'buildings-line',
      'buildings-point',
    ])
    for (const layer of style.layers.slice(1)) {
      expect(layer).toHaveProperty('source-layer')
    }
  })
})
