import type { Layer } from '@deck.gl/core'
import { PathLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers'
import type { TrackLayerState, TrackMarker } from '../../api/track-commands'
import type { CitySceneContext } from '../city-scene-parts'
import { rgbaOf } from './draw-shapes'

/** The marker's heading arrow: a character turned by deck's text angle (no icon atlas needed). */
const headingGlyph = '▲'

/**
 * Positioned objects on the city map (issue 18, GPS positioning): each marker is a dot (red
 * ring while inside a fence), an arrow turned to its heading, and its trail as a line. Four
 * deck.gl layers for every marker at once, rebuilt when the UI hands new markers.
 */
export class CityTracking {
  private markers: readonly TrackMarker[] = []
  private cachedLayers: Layer[] = []

  constructor(private readonly context: CitySceneContext) {}

  /** The tracking state of the snapshot. */
  state(): TrackLayerState {
    return {
      markerCount: this.markers.length,
      trailPointCount: this.markers.reduce((sum, marker) => sum + marker.trail.length, 0),
    }
  }

  /** Replaces the markers drawn. */
  setMarkers(markers: readonly TrackMarker[]): void {
    this.markers = markers
    this.cachedLayers = this.buildLayers()
    this.context.updateLayers()
    this.context.publish({ track: this.state() })
  }

  /** Flies to a marker; false when there is none with this id. */
  async flyTo(id: string): Promise<boolean> {
    const marker = this.markers.find((candidate) => candidate.id === id)
    if (!marker) return false
    const map = this.context.map
    map.flyTo({ center: [marker.lng, marker.lat], zoom: Math.max(map.getZoom(), 17) })
    await new Promise<void>((resolve) => map.once('moveend', () => resolve()))
    return true
  }

  /** deck.gl layers of the markers. */
  layers(): Layer[] {
    return this.cachedLayers
  }

  private buildLayers(): Layer[] {
    const markers = this.markers
    if (markers.length === 0) return []
    const colorOf = (marker: TrackMarker) => rgbaOf(marker.color, [0, 122, 255, 255])
    return [
      new PathLayer<TrackMarker>({
        id: 'track-trails',
        // The trail ends at the marker, so the line reaches the dot.
        data: markers.filter((marker) => marker.trail.length > 0),
        getPath: (marker) => [
          ...(marker.trail as [number, number][]),
          [marker.lng, marker.lat] as [number, number],
        ],
        getColor: (marker) => {
          const [red, green, blue] = colorOf(marker)
          return [red, green, blue, 170]
        },
        getWidth: 3,
        widthUnits: 'pixels',
        jointRounded: true,
        capRounded: true,
      }),
      new ScatterplotLayer<TrackMarker>({
        id: 'track-markers',
        data: markers,
        getPosition: (marker) => [marker.lng, marker.lat],
        getFillColor: colorOf,
        getLineColor: (marker) =>
          marker.isInsideFence ? [255, 45, 45, 255] : [255, 255, 255, 255],
        getRadius: 8,
        radiusUnits: 'pixels',
        stroked: true,
        lineWidthUnits: 'pixels',
        getLineWidth: (marker) => (marker.isInsideFence ? 3 : 2),
        updateTriggers: { getLineColor: [markers], getLineWidth: [markers] },
      }),
      new TextLayer<TrackMarker>({
        id: 'track-headings',
        data: markers.filter((marker) => marker.heading !== null),
        getPosition: (marker) => [marker.lng, marker.lat],
        getText: () => headingGlyph,
        characterSet: [headingGlyph],
        // deck turns text counter-clockwise; a heading is clockwise from north.
        getAngle: (marker) => -(marker.heading ?? 0),
        getSize: 12,
        getColor: [255, 255, 255, 255],
        getPixelOffset: [0, 0],
        billboard: true,
      }),
    ]
  }
}
