import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { engineErrorMessage, sceneStore } from '../../engine-bridge'
import { developerSettings } from '../../state/developer-settings'
import { formatFileSize } from '../../ui'
import { basemapFailureMessage } from './map-controls/basemap-failure-messages'

/**
 * The strip under the city map: tiles in memory, tile memory, the last map frame's draw time
 * (developer metrics only) and what went wrong (tile failures, the basemap, the last failed command).
 */
export function CityStatusBar() {
  const { t, i18n } = useLingui()
  const scene = useSnapshot(sceneStore)
  // Frame times are for developers (the personal page's switch, off by default).
  const { showsMetrics } = useSnapshot(developerSettings)
  const city = scene.city
  const tileErrorCount = city.tilesets.reduce((sum, tileset) => sum + tileset.errorCount, 0)
  const failedTilesets = city.tilesets.filter((tileset) => tileset.loadState === 'failed')
  const problems: string[] = []
  for (const tileset of failedTilesets) {
    const name = tileset.name
    const reason = tileset.failure ?? ''
    problems.push(t`${name} could not be loaded: ${reason}`)
  }
  if (tileErrorCount > 0) problems.push(t`${tileErrorCount} tiles failed to load`)
  // in the user's words, never MapLibre's raw error text (kept in the snapshot for developers)
  if (city.basemap?.failure) problems.push(i18n._(basemapFailureMessage(city.basemap.failure)))
  if (scene.lastError?.command.startsWith('city.')) {
    problems.push(i18n._(engineErrorMessage(scene.lastError.code)))
  }
  const frameMs = city.frameStats.lastFrameIntervalMs.toFixed(1)
  const tilesLoaded = city.tilesLoaded
  const memory = formatFileSize(city.memoryBytes)
  return (
    <section className="ts-city__status" aria-label={t`Scene status`} data-testid="city-status">
      <span data-testid="city-status-tiles">
        <Trans>Tiles loaded: {tilesLoaded}</Trans>
      </span>
      <span>
        <Trans>Tile memory: {memory}</Trans>
      </span>
      {showsMetrics && (
        <span>
          <Trans>Frame: {frameMs} ms</Trans>
        </span>
      )}
      <span
        className={problems.length > 0 ? 'ts-city__status-problems' : undefined}
        role={problems.length > 0 ? 'status' : undefined}
        title={problems.join('\n')}
      >
        {problems.length === 0 ? <Trans>No errors</Trans> : problems.join(' · ')}
      </span>
    </section>
  )
}
