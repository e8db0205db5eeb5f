import type { WebMercatorViewport } from '@deck.gl/core'
import type { Map as MapLibreMap } from 'maplibre-gl'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { CityFeaturePick } from '../../api/city-snapshot'
import type { PoiSurfacePoint, ScenePoi } from '../../api/poi-commands'
import { mapViewport } from '../map-viewport'
import type { LngLatBox } from './poi-clusters'
import { poiMarkerLayout } from './poi-layers'
import { boxUnderScreenRect, distanceToSegmentSquared, eastNorthMeters } from './poi-screen'

/** How far from a marker's centre (CSS pixels) the pointer still picks it. */
const hitRadiusPixels = poiMarkerLayout.iconSizePixels / 2 + 2

/** What a POI pick needs: the camera, the point, and where to look for candidates. */
export interface PoiPickQuery {
  viewport: WebMercatorViewport
  x: number
  y: number
  /** Lowest and highest POI heights (metres): candidates are searched at both. */
  heightRange: [number, number]
  /** The single (unclustered) POIs drawn inside a box, from the cluster index. */
  candidatesIn(box: LngLatBox): readonly ScenePoi[]
  /** A drawn 3D model's height (0 for icons): its whole upright extent picks it. */
  topMetersOf(poi: ScenePoi): number
}

/**
 * The POI drawn under a canvas point: the candidates of the cluster index's KD-tree inside the
 * ground box under a small square around the point, projected and measured on screen; the
 * nearest within the marker's radius wins. It never visits all POIs, so 100,000 cost no more
 * than 100 (the GPU picking pass deck offers redraws every instance).
 */
export function pickPoi(query: PoiPickQuery): ScenePoi | null {
  const { viewport, x, y } = query
  const reach = hitRadiusPixels
  const [low, high] = query.heightRange
  const box = boxUnderScreenRect(
    viewport,
    { left: x - reach, top: y - reach, right: x + reach, bottom: y + reach },
    low,
    high,
  )
  let best: ScenePoi | null = null
  let bestDistance = reach * reach
  for (const poi of query.candidatesIn(box)) {
    const [baseX = Number.NaN, baseY = Number.NaN] = viewport.project(
      poi.position as unknown as number[],
    )
    const topMeters = query.topMetersOf(poi)
    let distance: number
    if (topMeters > 0) {
      const [lng, lat, height] = poi.position
      const [topX = baseX, topY = baseY] = viewport.project([lng, lat, height + topMeters])
      distance = distanceToSegmentSquared(x, y, baseX, baseY, topX, topY)
    } else {
      distance = (baseX - x) ** 2 + (baseY - y) ** 2
    }
    if (distance <= bestDistance) {
      best = poi
      bestDistance = distance
    }
  }
  return best
}

/** A unit normal in east-north-up from three nearby surface points. */
function normalOf(
  center: Vector3Tuple,
  right: Vector3Tuple,
  down: Vector3Tuple,
  viewport: WebMercatorViewport,
): Vector3Tuple {
  const a = eastNorthMeters(center, right)
  const b = eastNorthMeters(center, down)
  let normal: Vector3Tuple = [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ]
  const length = Math.hypot(...normal)
  if (!(length > 1e-9)) return [0, 0, 1]
  normal = [normal[0] / length, normal[1] / length, normal[2] / length]
  // Facing the viewer: deck's common space is east, north, up like the normal, up to scale.
  const point = viewport.projectPosition(center as unknown as number[])
  const camera = viewport.cameraPosition
  const toCamera = [camera[0]! - point[0], camera[1]! - point[1], camera[2]! - point[2]]
  const facing = normal[0] * toCamera[0]! + normal[1] * toCamera[1]! + normal[2] * toCamera[2]!
  return facing < 0 ? [-normal[0], -normal[1], -normal[2]] : normal
}

function pickedPosition(pick: CityFeaturePick | null): Vector3Tuple | null {
  const position = pick?.position
  return position ? [position.lng, position.lat, position.heightMeters] : null
}

/**
 * The surface a POI would be placed on at a canvas point: a tileset's surface where one is
 * drawn (deck's depth pick), with a normal from two neighbouring depth picks; else the basemap
 * at height 0, facing up; null for the sky above the horizon.
 */
export function surfacePoint(
  map: MapLibreMap,
  x: number,
  y: number,
  pickTileset: (x: number, y: number) => CityFeaturePick | null,
): PoiSurfacePoint | null {
  const viewport = mapViewport(map)
  const onTileset = pickedPosition(pickTileset(x, y))
  if (onTileset) {
    const step = 3
    const right = pickedPosition(pickTileset(x + step, y))
    const down = pickedPosition(pickTileset(x, y + step))
    return {
      position: onTileset,
      normal: right && down ? normalOf(onTileset, right, down, viewport) : [0, 0, 1],
      surface: 'tileset',
    }
  }
  const [lng = Number.NaN, lat = Number.NaN] = viewport.unproject([x, y], { targetZ: 0 })
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 85) return null
  // Above the horizon the ground ray never meets the map: its point projects elsewhere.
  const [backX = Number.NaN, backY = Number.NaN] = viewport.project([lng, lat, 0])
  if (!(Math.hypot(backX - x, backY - y) < 1)) return null
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180
  return { position: [wrapped, lat, 0], normal: [0, 0, 1], surface: 'basemap' }
}
