import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { sceneStore, useEngine } from '../../engine-bridge'
import { Button, Spinner } from '../../ui'
import { frameTilesets } from './city-actions'
import type { CityProjectState } from './city-project-store'

/** What the map is waiting for, in the order a project opens; null once there is nothing. */
export type CityMapPhase = 'project' | 'map' | 'tilesets' | 'outOfView' | null

/** The phase the map is in, from the project store's load state and the engine snapshot. */
export function cityMapPhase(
  loadState: CityProjectState['loadState'],
  city: (typeof sceneStore)['city'],
): CityMapPhase {
  if (loadState === 'loading' || loadState === 'idle') return 'project'
  if (loadState !== 'ready') return null
  if (!city.isOpen || (!city.basemap?.isLoaded && !city.basemap?.error)) return 'map'
  const visible = city.tilesets.filter((tileset) => tileset.isVisible)
  const isStreaming = visible.some(
    (tileset) =>
      tileset.loadState === 'loading' ||
      (tileset.loadState === 'ready' && !tileset.isSettled && tileset.tilesDrawn === 0),
  )
  if (isStreaming) return 'tilesets'
  const isAnyInView = visible.some((tileset) => tileset.tilesInView > 0 || tileset.tilesDrawn > 0)
  const isAnyReady = visible.some((tileset) => tileset.loadState === 'ready')
  return isAnyReady && !isAnyInView ? 'outOfView' : null
}

/**
 * A note over the map while a project opens — the project, the map, then its oblique
 * photography (with the tiles loaded so far) — and, when every tileset is out of view, a hint
 * with a button that brings them back, so nobody is left at an empty place.
 */
export function CityMapStatus({ store }: { store: CityProjectState }) {
  const { t } = useLingui()
  const engine = useEngine()
  const { loadState } = useSnapshot(store)
  const { city } = useSnapshot(sceneStore)
  const phase = cityMapPhase(loadState, city)
  if (phase === null) return null
  if (phase === 'outOfView') {
    return (
      <div className="ts-city__map-status" role="status" data-testid="city-map-status">
        <span>
          <Trans>The oblique photography is outside the view.</Trans>
        </span>
        <Button
          onClick={() =>
            void frameTilesets(
              engine,
              city.tilesets.map(({ id, isVisible }) => ({ id, isVisible })),
            )
          }
        >
          <Trans>Show it</Trans>
        </Button>
      </div>
    )
  }
  const tilesLoaded = city.tilesLoaded
  const message =
    phase === 'project'
      ? t`Loading the project…`
      : phase === 'map'
        ? t`Loading the map…`
        : t`Loading oblique photography… (${tilesLoaded} tiles)`
  return (
    <div className="ts-city__map-status" role="status" data-testid="city-map-status">
      <Spinner isDecorative sizePx={16} />
      <span>{message}</span>
    </div>
  )
}
