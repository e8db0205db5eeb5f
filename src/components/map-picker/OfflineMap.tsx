import { Trans, useLingui } from '@lingui/react/macro'
import {
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  ScaleControl,
  setWorkerUrl,
} from 'maplibre-gl'
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url'
import 'maplibre-gl/dist/maplibre-gl.css'
import { useEffect, useRef, useState } from 'react'
import type { Language } from '../../i18n/languages'
import {
  createOfflineMapStyle,
  type MapView,
  type OfflineStyleData,
  serverMapData,
} from './offline-style'

// The worker is bundled as its own file; MapLibre must be told where it went (stack-notes.md).
setWorkerUrl(workerUrl)

/** A point on the map in degrees. */
export interface LatLng {
  lat: number
  lng: number
}

/** Props of {@link OfflineMap}. */
export interface OfflineMapProps {
  /** Where the map opens; later changes do not move it (use `flyTo`). */
  startView: MapView
  language: Language
  /** The picked point, shown as a marker. */
  marker: LatLng | null
  /** A place to fly to (a search result); a new object flies again. */
  flyTo: { location: LatLng; zoom: number } | null
  /** A click on the map. */
  onPick: (location: LatLng) => void
  /** The style's data; defaults to our server's GeoJSON. */
  data?: OfflineStyleData
  /**
   * An online MapLibre style (MAP_STYLE_URL) to draw instead of the offline style; the offline
   * style takes over when it cannot be loaded.
   */
  styleUrl?: string | null
  /** Reports the MapLibre map once its style has loaded (tests read its canvas). */
  onReady?: (map: MapLibreMap) => void
}

/** How long an online style may take to load before the offline style is drawn instead. */
export const onlineStyleTimeoutMs = 8_000

/**
 * A MapLibre map on the offline style (or on a configured online style, falling back to the
 * offline one when it fails or is too slow to load). Without WebGL it says so instead of failing, so search
 * still works and a place can be picked from the results.
 */
export function OfflineMap({
  startView,
  language,
  marker,
  flyTo,
  onPick,
  data,
  styleUrl,
  onReady,
}: OfflineMapProps) {
  const { t } = useLingui()
  const container = useRef<HTMLDivElement>(null)
  const mapRef = useRef<MapLibreMap | null>(null)
  const markerRef = useRef<Marker | null>(null)
  const onPickRef = useRef(onPick)
  onPickRef.current = onPick
  const onReadyRef = useRef(onReady)
  onReadyRef.current = onReady
  const [failure, setFailure] = useState<string | null>(null)

  // One map per mount, language and style; the start view and data are read once on purpose.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-creating the map on view changes would lose the user's panning
  useEffect(() => {
    if (!container.current) return
    const offlineStyle = createOfflineMapStyle(
      data ?? serverMapData(window.location.origin),
      language,
    )
    let map: MapLibreMap
    try {
      map = new MapLibreMap({
        container: container.current,
        style: styleUrl ?? offlineStyle,
        center: [startView.center.lng, startView.center.lat],
        zoom: startView.zoom,
        maxZoom: 18,
        attributionControl: { compact: true, customAttribution: 'Natural Earth' },
        // lets tests and screenshots read the drawn pixels back
        canvasContextAttributes: { preserveDrawingBuffer: true },
      })
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error))
      return
    }
    mapRef.current = map
    let fallbackTimer: ReturnType<typeof setTimeout> | undefined
    if (styleUrl) {
      // Errors before the style has loaded are the style's own (tiles come after it); once it
      // loaded, a failing tile is MapLibre's business and the style stays.
      let isSettled = false
      const switchToOfflineStyle = () => {
        if (isSettled) return
        isSettled = true
        clearTimeout(fallbackTimer)
        map.off('error', switchToOfflineStyle)
        // no diff: there is no loaded style to diff against
        map.setStyle(offlineStyle, { diff: false })
      }
      fallbackTimer = setTimeout(switchToOfflineStyle, onlineStyleTimeoutMs)
      map.on('error', switchToOfflineStyle)
      map.once('style.load', () => {
        if (isSettled) return
        isSettled = true
        clearTimeout(fallbackTimer)
        map.off('error', switchToOfflineStyle)
      })
    }
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right')
    map.addControl(new ScaleControl({}), 'bottom-left')
    map.on('click', (event) => onPickRef.current({ lat: event.lngLat.lat, lng: event.lngLat.lng }))
    map.once('load', () => onReadyRef.current?.(map))
    return () => {
      clearTimeout(fallbackTimer)
      markerRef.current = null
      mapRef.current = null
      map.remove()
    }
  }, [language, styleUrl])

  useEffect(() => {
    const map = mapRef.current
    if (!map) return
    if (!marker) {
      markerRef.current?.remove()
      markerRef.current = null
      return
    }
    if (!markerRef.current) {
      markerRef.current = new Marker({ color: '#e5484d' }).setLngLat(marker).addTo(map)
    } else {
      markerRef.current.setLngLat(marker)
    }
  }, [marker])

  useEffect(() => {
    if (!flyTo) return
    mapRef.current?.flyTo({ center: flyTo.location, zoom: flyTo.zoom, duration: 800 })
  }, [flyTo])

  if (failure) {
    return (
      <div className="ts-offline-map ts-offline-map--failed" role="status">
        <p>
          <Trans>The map cannot be shown in this browser (WebGL is not available).</Trans>
        </p>
        <p className="ts-offline-map__hint">
          <Trans>Search for a place above to pick its address.</Trans>
        </p>
      </div>
    )
  }
  return (
    <div
      ref={container}
      className="ts-offline-map"
      data-testid="map-picker-map"
      aria-label={t`Map: click to pick a location`}
      role="application"
    />
  )
}
