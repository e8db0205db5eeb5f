import type { StyleSpecification } from 'maplibre-gl'

/** What a PMTiles archive holds, read from its header and metadata. */
export interface PmtilesDescription {
  /** The archive's address, as MapLibre's `pmtiles://` protocol takes it. */
  url: string
  kind: 'vector' | 'raster'
  minZoom: number
  maxZoom: number
  /** Layer ids of a vector archive (metadata `vector_layers`). */
  vectorLayerIds: readonly string[]
  attribution?: string
}

/** Neutral colours: a user's PMTiles has no style of its own, and the tilesets are the subject. */
export const pmtilesColors = {
  background: '#eef0f2',
  fill: '#d9dde2',
  line: '#9aa3ad',
  point: '#51606f',
} as const

/**
 * A MapLibre style that draws a PMTiles archive: a raster archive as a raster layer; a vector
 * archive (whose schema we cannot know) with every layer drawn plainly, polygons filled, lines
 * stroked and points as dots, so any OpenMapTiles, Protomaps or custom schema shows something.
 */
export function createPmtilesStyle(archive: PmtilesDescription): StyleSpecification {
  const sourceUrl = `pmtiles://${archive.url}`
  const base = {
    version: 8 as const,
    name: 'Twinscape PMTiles',
  }
  if (archive.kind === 'raster') {
    return {
      ...base,
      sources: {
        basemap: {
          type: 'raster',
          url: sourceUrl,
          tileSize: 256,
          ...(archive.attribution ? { attribution: archive.attribution } : {}),
        },
      },
      layers: [
        {
          id: 'background',
          type: 'background',
          paint: { 'background-color': pmtilesColors.background },
        },
        { id: 'basemap', type: 'raster', source: 'basemap' },
      ],
    }
  }
  const layers: StyleSpecification['layers'] = [
    {
      id: 'background',
      type: 'background',
      paint: { 'background-color': pmtilesColors.background },
    },
  ]
  for (const layerId of archive.vectorLayerIds) {
    layers.push(
      {
        id: `${layerId}-fill`,
        type: 'fill',
        source: 'basemap',
        'source-layer': layerId,
        filter: ['==', ['geometry-type'], 'Polygon'],
        paint: { 'fill-color': pmtilesColors.fill, 'fill-outline-color': pmtilesColors.line },
      },
      {
        id: `${layerId}-line`,
        type: 'line',
        source: 'basemap',
        'source-layer': layerId,
        filter: ['==', ['geometry-type'], 'LineString'],
        paint: { 'line-color': pmtilesColors.line, 'line-width': 1 },
      },
      {
        id: `${layerId}-point`,
        type: 'circle',
        source: 'basemap',
        'source-layer': layerId,
        filter: ['==', ['geometry-type'], 'Point'],
        paint: { 'circle-color': pmtilesColors.point, 'circle-radius': 2 },
      },
    )
  }
  return {
    ...base,
    sources: {
      basemap: {
        type: 'vector',
        url: sourceUrl,
        ...(archive.attribution ? { attribution: archive.attribution } : {}),
      },
    },
    layers,
  }
}
