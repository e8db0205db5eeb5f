import { useLingui } from '@lingui/react/macro'
import { type PointerEvent, useEffect, useRef } from 'react'
import { useSnapshot } from 'valtio'
import { isTestApiEnabled } from '../../app/test-api'
import { useEngine } from '../../engine-bridge'
import type { Language } from '../../i18n/languages'
import { useCityProjectStore } from './city-context'
import { frameTilesets } from './city-actions'
import { loadProjectStyle } from '../bim4/style/style-store'
import { engineBasemap, projectCenter, tilesetSource } from './city-project-store'

/** A press that moves further than this is a drag of the map, not a click on it. */
const clickMaxTravelPx = 4

/** Props of {@link CityMap}. */
export interface CityMapProps {
  /** Called for a click (not a drag) on the map, in CSS pixels from its top-left corner. */
  onMapClick?: (point: { x: number; y: number }) => void
  /** Called as the pointer moves over the map (hover), CSS pixels from its top-left corner. */
  onMapPointerMove?: (point: { x: number; y: number }) => void
}

/**
 * The one map element of the city editor. It stays mounted for every /home route (all of them
 * render the same page), is handed to the engine once, and the project is opened in it as soon
 * as its records have loaded; later changes go to the engine as commands from the tabs.
 */
export function CityMap({ onMapClick, onMapPointerMove }: CityMapProps) {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const store = useCityProjectStore()
  const { loadState, projectId } = useSnapshot(store)
  const container = useRef<HTMLDivElement>(null)
  const press = useRef<{ x: number; y: number } | null>(null)

  useEffect(() => {
    const element = container.current
    if (!element) return
    // failures land in snapshot.lastError; after the engine was disposed there is nothing to do
    engine.run('city.attachContainer', { container: element }).catch(() => undefined)
    return () => {
      engine.run('city.attachContainer', { container: null }).catch(() => undefined)
    }
  }, [engine])

  // Opens once per loaded project; the language is read at that moment on purpose (switching
  // language re-labels the offline style only when the basemap is applied again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reopening on every store change would reload all tiles
  useEffect(() => {
    if (loadState !== 'ready' || !projectId) return
    let isCurrent = true
    // the engine keeps the style for the map it opens next: both start together
    void loadProjectStyle(engine, projectId, { scene: 'city', isCurrent: () => isCurrent })
    const tilesets = store.tilesets.flatMap((tileset) => {
      const source = tilesetSource(tileset)
      return source ? [source] : []
    })
    void engine
      .run('city.open', {
        projectId,
        center: projectCenter(store.project),
        zoom: 16,
        basemap: engineBasemap(store.basemap, i18n.locale as Language),
        tilesets,
        // pixel checks of test sessions read the drawn frame back; others skip the extra copy
        keepDrawingBuffer: isTestApiEnabled(),
      })
      // Nobody is left at an empty place: the view frames the project's tilesets, wherever
      // they are (the engine knows where once their tileset.json is read).
      .then(() => frameTilesets(engine, tilesets, 0))
      .catch(() => {
        // the failure is in snapshot.lastError, which the status bar shows
      })
    return () => {
      isCurrent = false
      void engine.run('city.close').catch(() => undefined)
    }
  }, [engine, loadState, projectId])

  // The offline style's labels follow the UI language; other basemaps carry their own labels.
  const locale = i18n.locale
  const isOpenedFor = useRef<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a language change re-applies the basemap
  useEffect(() => {
    if (loadState !== 'ready') return
    if (isOpenedFor.current === null) {
      isOpenedFor.current = locale
      return
    }
    if (
      isOpenedFor.current === locale ||
      (store.basemap?.setting.kind ?? 'offline') !== 'offline'
    ) {
      return
    }
    isOpenedFor.current = locale
    engine
      .run('city.setBasemap', { basemap: engineBasemap(store.basemap, locale as Language) })
      .catch(() => undefined)
  }, [locale, loadState])

  function handlePointerDown(event: PointerEvent<HTMLDivElement>) {
    press.current = { x: event.clientX, y: event.clientY }
  }

  function handlePointerUp(event: PointerEvent<HTMLDivElement>) {
    const start = press.current
    press.current = null
    if (!start || !onMapClick || !container.current) return
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > clickMaxTravelPx) return
    const bounds = container.current.getBoundingClientRect()
    onMapClick({ x: event.clientX - bounds.left, y: event.clientY - bounds.top })
  }

  function handlePointerMove(event: PointerEvent<HTMLDivElement>) {
    if (!onMapPointerMove || !container.current || event.buttons !== 0) return
    const bounds = container.current.getBoundingClientRect()
    onMapPointerMove({ x: event.clientX - bounds.left, y: event.clientY - bounds.top })
  }

  return (
    <div
      ref={container}
      className="ts-city__map"
      data-testid="city-map"
      role="application"
      aria-label={t`City map`}
      onPointerDown={handlePointerDown}
      onPointerUp={handlePointerUp}
      onPointerMove={handlePointerMove}
    />
  )
}
