/**
 * Camera limits and wheel speed of the city map, from SPEC §9. The spec states limits as camera
 * distances (metres) scaled by factors; MapLibre thinks in zoom levels, so they are converted
 * here for the current latitude and viewport height.
 */

/** SPEC §9: factors a user may apply to the closest camera distance. */
export const minDistanceFactors = [1, 0.9, 0.8, 0.65, 0.5, 0.3, 0.1] as const
/** SPEC §9: factors a user may apply to the farthest camera distance. */
export const maxDistanceFactors = [1, 1.5, 2, 3.5, 5, 7.5, 10] as const
/** SPEC §9: wheel scale options; 1 is the basic speed. */
export const wheelScaleOptions = [1, 1.1, 1.25, 1.5, 1.8, 2, 2.5] as const
/** SPEC §9 city kind: the closest the camera may come to the ground, before factors. */
export const cityMinDistanceBaseMeters = 0.5
/** SPEC §9 city kind: the farthest the camera may be, before factors. */
export const cityMaxDistanceBaseMeters = 2e8
/**
 * SPEC §9's basic wheel scale. It is the product's speed at wheel scale 1, which we match to
 * MapLibre's own default wheel rate so scale 1 feels like any MapLibre map.
 */
export const basicWheelScale = 0.5
/** MapLibre's default mouse-wheel zoom rate (zoom levels per wheel delta pixel). */
const mapLibreDefaultWheelZoomRate = 1 / 450
/** MapLibre's zoom range. */
const mapLibreZoomRange = { min: 0, max: 24 } as const
/** MapLibre's default vertical field of view. */
const mapLibreFieldOfViewDegrees = 36.87
const earthRadiusMeters = 6_378_137
/** MapLibre's world is 512 px wide at zoom 0. */
const worldSizePixelsAtZoom0 = 512

/** The MapLibre zoom at which the camera is `distanceMeters` from the centre of the view. */
export function zoomForCameraDistance(
  distanceMeters: number,
  latitudeDegrees: number,
  viewportHeightPixels: number,
  fieldOfViewDegrees = mapLibreFieldOfViewDegrees,
): number {
  const cameraDistancePixels =
    viewportHeightPixels / 2 / Math.tan((fieldOfViewDegrees * Math.PI) / 360)
  const latitudeCircumferenceMeters =
    2 * Math.PI * earthRadiusMeters * Math.cos((latitudeDegrees * Math.PI) / 180)
  return Math.log2(
    (latitudeCircumferenceMeters * cameraDistancePixels) /
      (worldSizePixelsAtZoom0 * distanceMeters),
  )
}

/** MapLibre min/max zoom for the SPEC §9 distance limits with the user's factors. */
export function cityZoomLimits(options: {
  minDistanceFactor: number
  maxDistanceFactor: number
  latitudeDegrees: number
  viewportHeightPixels: number
}): { minZoom: number; maxZoom: number } {
  const height = Math.max(1, options.viewportHeightPixels)
  const clamp = (zoom: number) =>
    Math.min(mapLibreZoomRange.max, Math.max(mapLibreZoomRange.min, zoom))
  // The closest distance gives the highest zoom and the farthest distance the lowest.
  const maxZoom = clamp(
    zoomForCameraDistance(
      cityMinDistanceBaseMeters * options.minDistanceFactor,
      options.latitudeDegrees,
      height,
    ),
  )
  const minZoom = clamp(
    zoomForCameraDistance(
      cityMaxDistanceBaseMeters * options.maxDistanceFactor,
      options.latitudeDegrees,
      height,
    ),
  )
  return { minZoom: Math.min(minZoom, maxZoom), maxZoom }
}

/** MapLibre's `scrollZoom.setWheelZoomRate` value for a wheel scale option. */
export function wheelZoomRate(wheelScale: number): number {
  return mapLibreDefaultWheelZoomRate * wheelScale
}

/** True when `value` is one of `options` (the UI offers only the SPEC's choices). */
export function isOneOf(value: number, options: readonly number[]): boolean {
  return options.includes(value)
}
