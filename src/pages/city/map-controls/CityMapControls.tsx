import { Trans, useLingui } from '@lingui/react/macro'
import { useSnapshot } from 'valtio'
import { offlineDetailMaxZoom } from '../../../components/map-picker/offline-style'
import { sceneStore, useEngine } from '../../../engine-bridge'
import { cityTabPath } from '../city-modules'
import { basemapFailureMessage } from './basemap-failure-messages'
import './map-controls.css'

/** One tilt step of the tilt buttons, in degrees. */
const pitchStepDegrees = 20
/** MapLibre's camera tilts up to this (engine/api/city-snapshot.ts cityPitchRange). */
const maxPitchDegrees = 85

/** Degrees with five decimals (about a metre) and the hemisphere letter. */
function formatCoordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value).toFixed(5)}° ${value >= 0 ? positive : negative}`
}

/**
 * The navigation aids over the city map (issue 12 item 6): zoom ±, a compass that turns the map
 * back to north, tilt buttons, the longitude/latitude under the cursor, a hint when the shipped
 * offline map has no detail at the current zoom, and a plain-language message when the basemap
 * fails. The engine draws the scale bar and the attribution; everything with words is here.
 */
export function CityMapControls() {
  const { t, i18n } = useLingui()
  const engine = useEngine()
  const { city } = useSnapshot(sceneStore)
  if (!city.isOpen) return null
  const { camera, pointer, basemap } = city
  const run = (command: Promise<unknown>) => {
    // a command on a city that just closed has nothing to do
    command.catch(() => undefined)
  }
  const isBeyondShippedDetail =
    basemap?.kind === 'offline' && camera.zoom > offlineDetailMaxZoom + 0.5
  const failure = basemap?.failure ?? null
  const pitch = Math.round(camera.pitch)
  return (
    <>
      {(failure || isBeyondShippedDetail) && (
        <div className="ts-map-notices">
          {failure && (
            <p
              className="ts-map-notice ts-map-notice--error"
              role="alert"
              data-testid="basemap-failure"
            >
              {i18n._(basemapFailureMessage(failure))}{' '}
              <a href={`#${cityTabPath('style', 'basemap')}`}>
                <Trans>Basemap setting</Trans>
              </a>
            </p>
          )}
          {!failure && isBeyondShippedDetail && (
            <p className="ts-map-notice" role="status" data-testid="basemap-detail-hint">
              <Trans>
                The shipped offline map has no detail at this zoom. Add a detailed basemap (a
                PMTiles file or an online style) to see streets and buildings.
              </Trans>{' '}
              <a href={`#${cityTabPath('style', 'basemap')}`}>
                <Trans>Basemap setting</Trans>
              </a>
            </p>
          )}
        </div>
      )}
      <div className="ts-map-controls" role="toolbar" aria-label={t`Map navigation`}>
        <button
          type="button"
          className="ts-map-controls__button"
          aria-label={t`Zoom in`}
          title={t`Zoom in`}
          onClick={() => run(engine.run('city.zoomBy', { delta: 1 }))}
        >
          <span aria-hidden="true">+</span>
        </button>
        <button
          type="button"
          className="ts-map-controls__button"
          aria-label={t`Zoom out`}
          title={t`Zoom out`}
          onClick={() => run(engine.run('city.zoomBy', { delta: -1 }))}
        >
          <span aria-hidden="true">−</span>
        </button>
        <button
          type="button"
          className="ts-map-controls__button"
          aria-label={t`Reset north`}
          title={t`Reset north`}
          data-testid="map-compass"
          onClick={() => run(engine.run('city.resetNorth'))}
        >
          <svg
            viewBox="0 0 24 24"
            width="20"
            height="20"
            aria-hidden="true"
            style={{ transform: `rotate(${-camera.bearing}deg)` }}
          >
            <path d="M12 2 L17 12 L12 10 L7 12 Z" fill="#e5484d" />
            <path d="M12 22 L7 12 L12 14 L17 12 Z" fill="currentColor" opacity="0.55" />
          </svg>
        </button>
        <button
          type="button"
          className="ts-map-controls__button"
          aria-label={t`Tilt the view`}
          title={t`Tilt the view`}
          disabled={pitch >= maxPitchDegrees}
          onClick={() =>
            run(engine.run('city.setPitch', { pitch: camera.pitch + pitchStepDegrees }))
          }
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M4 18 L9 8 H15 L20 18 Z" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <button
          type="button"
          className="ts-map-controls__button"
          aria-label={t`Look straight down`}
          title={t`Look straight down`}
          disabled={pitch <= 0}
          onClick={() =>
            run(engine.run('city.setPitch', { pitch: camera.pitch - pitchStepDegrees }))
          }
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <rect
              x="5"
              y="5"
              width="14"
              height="14"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            />
          </svg>
        </button>
        <output className="ts-map-controls__pitch" aria-label={t`Tilt`}>
          {pitch}°
        </output>
      </div>
      <output className="ts-map-readout" data-testid="map-pointer-readout" aria-live="off">
        {pointer ? (
          <>
            <span>
              <Trans>Longitude</Trans> {formatCoordinate(pointer.lng, 'E', 'W')}
            </span>
            <span>
              <Trans>Latitude</Trans> {formatCoordinate(pointer.lat, 'N', 'S')}
            </span>
          </>
        ) : (
          <span>
            <Trans>Point at the map to read its longitude and latitude</Trans>
          </span>
        )}
      </output>
    </>
  )
}
