import type { StyleSpecification } from 'maplibre-gl'
import { offlineMapColors, offlineMapDataPaths } from '../../../contract/geo'
import type { Language } from '../../i18n/languages'
import { browserLocales, localeRegionView, type MapView } from './locale-region'

/**
 * The offline default map style (decisions.md "Maps"): Natural Earth country outlines and
 * populated places served by our own server, so the picker draws with the network unplugged.
 * There is no `glyphs` URL: MapLibre 6 draws label glyphs itself from the local fonts named in
 * `text-font` when a style has none, so no glyph files need shipping.
 */

/** Colours of the offline style (shared with the offline package's viewer). */
export { offlineMapColors }

/**
 * The offline basemap has country outlines and cities only: past this zoom it shows nothing new,
 * so the picker opens no closer than this.
 */
export const offlineDetailMaxZoom = 8

/** Shown by the map's attribution control: the offline style's data is Natural Earth's. */
const naturalEarth = '© Natural Earth'

/** Fonts tried for labels, in order; the browser picks what is installed (CJK included). */
const labelFonts = ['Noto Sans CJK SC', 'Noto Sans CJK KR', 'Noto Sans', 'sans-serif']

/** The place name in the map's language; Natural Earth has no Korean for most places. */
function nameExpression(language: Language): unknown[] {
  const property = language === 'ko' ? 'nameKo' : language === 'zh' ? 'nameZh' : 'nameEn'
  if (property === 'nameEn') return ['get', 'nameEn']
  return ['case', ['!=', ['get', property], ''], ['get', property], ['get', 'nameEn']]
}

/** Where the data comes from: our server's paths, or inline GeoJSON (tests, previews). */
export interface OfflineStyleData {
  countries: string | object
  places: string | object
}

/** The server's data addresses made absolute (MapLibre's worker needs absolute URLs). */
export function serverMapData(origin: string): OfflineStyleData {
  return {
    countries: new URL(offlineMapDataPaths.countries, origin).href,
    places: new URL(offlineMapDataPaths.places, origin).href,
  }
}

/** Builds the offline style, labels in the given language. */
export function createOfflineMapStyle(
  data: OfflineStyleData,
  language: Language,
): StyleSpecification {
  return {
    version: 8,
    name: 'Twinscape offline',
    sources: {
      countries: { type: 'geojson', data: data.countries as string, attribution: naturalEarth },
      places: { type: 'geojson', data: data.places as string, attribution: naturalEarth },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': offlineMapColors.water } },
      {
        id: 'land',
        type: 'fill',
        source: 'countries',
        paint: { 'fill-color': offlineMapColors.land },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'countries',
        paint: {
          'line-color': offlineMapColors.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.6, 8, 1.6],
        },
      },
      {
        id: 'places',
        type: 'circle',
        source: 'places',
        // small places appear as one zooms in, the way labels do
        filter: ['<=', ['get', 'rank'], ['step', ['zoom'], 1, 3, 2, 5, 3]],
        paint: {
          'circle-color': offlineMapColors.place,
          'circle-radius': ['match', ['get', 'rank'], 0, 4, 1, 3.5, 2, 3, 2.5],
          'circle-stroke-color': offlineMapColors.halo,
          'circle-stroke-width': 1,
        },
      },
      {
        id: 'place-labels',
        type: 'symbol',
        source: 'places',
        filter: ['<=', ['get', 'rank'], ['step', ['zoom'], 1, 3, 2, 5, 3]],
        layout: {
          'text-field': nameExpression(language) as never,
          'text-font': labelFonts,
          'text-size': ['match', ['get', 'rank'], 0, 14, 1, 13, 12],
          'text-variable-anchor': ['top', 'bottom', 'left', 'right'],
          'text-radial-offset': 0.6,
          // bigger places win where labels collide
          'symbol-sort-key': ['-', ['get', 'rank'], ['/', ['get', 'population'], 1e9]],
        },
        paint: {
          'text-color': offlineMapColors.label,
          'text-halo-color': offlineMapColors.halo,
          'text-halo-width': 1.4,
        },
      },
    ],
  }
}

/** Where a map opens: centre and zoom. */
export type { MapView } from './locale-region'

/** decisions.md: city projects open at lon 121.6, lat 31.2, zoom 16. */
export const cityDefaultView: MapView = { center: { lng: 121.6, lat: 31.2 }, zoom: 16 }

/**
 * Where the address picker opens so the user sees land: at the point already picked (the
 * project's location), else over the region of the browser's locale (locale-region.ts; the UI
 * language's home when the browser names none), never closer than the offline basemap has
 * detail for. (Issue 12: it used to open over open sea at Shanghai's coast.)
 */
export function pickerStartView(
  language: Language,
  picked: { lng: number; lat: number } | null,
  maxZoom = offlineDetailMaxZoom,
  locales: readonly string[] = browserLocales(),
): MapView {
  const view = picked ? { center: picked, zoom: maxZoom } : localeRegionView(locales, language)
  return { center: view.center, zoom: Math.min(view.zoom, maxZoom) }
}
