import { WebMercatorViewport } from '@deck.gl/core'
import type { Map as MapLibreMap } from 'maplibre-gl'
import type { CityCameraTarget, CitySnapshot } from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import { cityZoomLimits, wheelZoomRate } from './city-controls'
import type { CitySceneContext } from './city-scene-parts'
import type { FeatureSelection } from './feature-selection'
import { mapLibreViewId } from './library-internals'
import type { TilesetStreams } from './tileset-streams'

/** A camera destination in MapLibre terms (what is not given stays as it is). */
interface CameraDestination {
  lng: number
  lat: number
  zoom?: number
  pitch?: number
  bearing?: number
}

/**
 * The map's camera as a deck viewport. loaders.gl keeps one tile tree per viewport id, so the
 * scene's own traversals (before deck runs) use deck's MapLibre view id and share its tree.
 */
export function mapViewport(map: MapLibreMap): WebMercatorViewport {
  const canvas = map.getCanvas()
  const center = map.getCenter()
  return new WebMercatorViewport({
    id: mapLibreViewId,
    width: canvas.clientWidth,
    height: canvas.clientHeight,
    longitude: center.lng,
    latitude: center.lat,
    zoom: map.getZoom(),
    pitch: map.getPitch(),
    bearing: map.getBearing(),
  })
}

/**
 * The camera part of a city scene: flights (to a place, a tileset, a selected feature), the
 * zoom limits and wheel speed (SPEC §9 controls), and the camera in the snapshot.
 */
export class CityCameraController {
  private controls: CitySnapshot['controls']

  constructor(
    private readonly context: CitySceneContext,
    controls: CitySnapshot['controls'],
    private readonly streams: TilesetStreams,
    private readonly selection: FeatureSelection,
  ) {
    this.controls = controls
    this.applyControls()
    context.map.on('move', () => this.publish())
    context.map.on('resize', () => this.applyControls())
  }

  get currentControls(): CitySnapshot['controls'] {
    return this.controls
  }

  /** Moves the camera; resolves when the flight ends. */
  async flyTo(target: CityCameraTarget): Promise<void> {
    const destination = this.destination(target)
    const durationMs = target.durationMs
    const map = this.context.map
    await new Promise<void>((resolve) => {
      map.once('moveend', () => resolve())
      const options = {
        center: [destination.lng, destination.lat] as [number, number],
        ...(destination.zoom === undefined ? {} : { zoom: destination.zoom }),
        ...(destination.pitch === undefined ? {} : { pitch: destination.pitch }),
        ...(destination.bearing === undefined ? {} : { bearing: destination.bearing }),
      }
      if (durationMs === 0) map.jumpTo(options)
      else map.flyTo({ ...options, ...(durationMs ? { duration: durationMs } : {}) })
    })
  }

  /** Where a geographic point is drawn, in CSS pixels of the container. */
  projectToScreen(lng: number, lat: number, heightMeters = 0): { x: number; y: number } {
    const [x = 0, y = 0] = mapViewport(this.context.map).project([lng, lat, heightMeters])
    return { x, y }
  }

  setControls(controls: Partial<CitySnapshot['controls']>): void {
    this.controls = { ...this.controls, ...controls }
    this.applyControls()
    this.context.publish({ controls: this.controls })
  }

  /** Publishes the camera summary. */
  publish(): void {
    const map = this.context.map
    const center = map.getCenter()
    this.context.publish({
      camera: {
        lng: center.lng,
        lat: center.lat,
        zoom: map.getZoom(),
        pitch: map.getPitch(),
        bearing: map.getBearing(),
      },
    })
  }

  private destination(target: CityCameraTarget): CameraDestination {
    if ('lng' in target) return target
    const entry = this.streams.entry(target.tilesetId)
    if (target.featureId !== undefined) {
      const at = this.selection.featurePosition(target.tilesetId, target.featureId)
      if (at) return { lng: at.lng, lat: at.lat, zoom: 18 }
    }
    if (!entry.center) {
      throw new EngineError(
        'city.tilesetNotReady',
        `Tileset ${target.tilesetId} has not loaded its tileset.json yet.`,
        target.tilesetId,
      )
    }
    const zoom = entry.tileset3d?.zoom
    return {
      lng: entry.center.lng,
      lat: entry.center.lat,
      ...(zoom !== undefined && Number.isFinite(zoom) ? { zoom: Math.min(zoom, 20) } : {}),
    }
  }

  private applyControls(): void {
    const map = this.context.map
    const { minZoom, maxZoom } = cityZoomLimits({
      minDistanceFactor: this.controls.minDistanceFactor,
      maxDistanceFactor: this.controls.maxDistanceFactor,
      latitudeDegrees: map.getCenter().lat,
      viewportHeightPixels: map.getCanvas().clientHeight || 600,
    })
    map.setMinZoom(minZoom)
    map.setMaxZoom(maxZoom)
    map.scrollZoom.setWheelZoomRate(wheelZoomRate(this.controls.wheelScale))
  }
}
