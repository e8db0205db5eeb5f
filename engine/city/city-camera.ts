import type { CityCameraTarget, CitySnapshot } from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import { cityZoomLimits, wheelZoomRate } from './city-controls'
import type { CitySceneContext } from './city-scene-parts'
import type { FeatureSelection } from './feature-selection'
import { mapViewport } from './map-viewport'
import { type LocatedVolume, nearbyVolumes } from './tileset-geometry'
import type { TilesetStreams } from './tileset-streams'

/** Metres per degree of latitude (and of longitude at the equator), near enough for framing. */
const metersPerDegree = 111_320

/** A camera destination in MapLibre terms (what is not given stays as it is). */
interface CameraDestination {
  lng: number
  lat: number
  zoom?: number
  pitch?: number
  bearing?: number
}

/**
 * A map zoom that shows something of this radius whole in a view `viewPixels` across
 * (web-mercator metres per pixel shrink with the cosine of the latitude), between 3 and 20.
 */
export function zoomToFit(radiusMeters: number, latDegrees: number, viewPixels: number): number {
  // MapLibre's zoom counts 512-pixel tiles: at zoom 0 the equator spans 512 px.
  const metersPerPixelAtZoomZero = 78_271.516_96 * Math.cos((latDegrees * Math.PI) / 180)
  const wantedMetersPerPixel = Math.max(1, radiusMeters * 2.5) / viewPixels
  const zoom = Math.log2(metersPerPixelAtZoomZero / wantedMetersPerPixel)
  return Math.min(20, Math.max(3, zoom))
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
    const destination = await this.destination(target)
    if (this.context.isDisposed()) return
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

  private async destination(target: CityCameraTarget): Promise<CameraDestination> {
    if ('lng' in target) return target
    if ('tilesetIds' in target) return this.framing(target.tilesetIds)
    if (target.featureId !== undefined) {
      this.streams.entry(target.tilesetId)
      const at = this.selection.featurePosition(target.tilesetId, target.featureId)
      if (at) return { lng: at.lng, lat: at.lat, zoom: 18 }
    }
    const located = await this.streams.locate(target.tilesetId, target.partIndex)
    if (!located) {
      throw new EngineError(
        'city.tilesetNotReady',
        `Tileset ${target.tilesetId} (part ${target.partIndex ?? 'all'}) cannot be located.`,
        target.tilesetId,
      )
    }
    return this.showing(located)
  }

  /**
   * A view of several tilesets together: their volumes' box in degrees, seen whole — of those
   * near the one nearest the view's centre, when they lie far apart.
   */
  private async framing(tilesetIds: readonly string[]): Promise<CameraDestination> {
    const found = (
      await Promise.all(tilesetIds.map((id) => this.streams.locate(id).catch(() => null)))
    ).filter((volume): volume is LocatedVolume => volume !== null)
    const located = nearbyVolumes(found, this.context.map.getCenter())
    if (located.length === 0) {
      throw new EngineError('city.tilesetNotReady', 'No tileset to frame could be located.')
    }
    if (located.length === 1) return this.showing(located[0]!)
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity]
    for (const volume of located) {
      const latDegrees = volume.radiusMeters / metersPerDegree
      const lngDegrees = latDegrees / Math.max(0.01, Math.cos((volume.lat * Math.PI) / 180))
      west = Math.min(west, volume.lng - lngDegrees)
      east = Math.max(east, volume.lng + lngDegrees)
      south = Math.min(south, volume.lat - latDegrees)
      north = Math.max(north, volume.lat + latDegrees)
    }
    const lat = (south + north) / 2
    const widthMeters = (east - west) * metersPerDegree * Math.cos((lat * Math.PI) / 180)
    const heightMeters = (north - south) * metersPerDegree
    return this.showing({
      lng: (west + east) / 2,
      lat,
      heightMeters: 0,
      radiusMeters: Math.hypot(widthMeters, heightMeters) / 2,
    })
  }

  /** A top-down view that shows a located volume whole. */
  private showing(located: LocatedVolume): CameraDestination {
    const canvas = this.context.map.getCanvas()
    const viewPixels = Math.min(canvas.clientWidth, canvas.clientHeight) || 480
    return {
      lng: located.lng,
      lat: located.lat,
      zoom: zoomToFit(located.radiusMeters, located.lat, viewPixels),
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
