/**
 * Where a POI is in Earth-centred, Earth-fixed metres (SPEC §3 `cartisian_x/y/z`): a city POI's
 * WGS84 longitude, latitude and height turned into ECEF, so clients that place things in a
 * Cartesian globe frame read it without converting. A building POI's scene metres are kept as
 * they are (its building has no place on the globe here).
 */

/** WGS84 semi-major axis (m) and flattening. */
const semiMajorAxis = 6_378_137
const flattening = 1 / 298.257223563
const eccentricitySquared = flattening * (2 - flattening)

/** ECEF metres of a WGS84 point (degrees, metres above the ellipsoid). */
export function ecefOf(
  longitude: number,
  latitude: number,
  height: number,
): [number, number, number] {
  const lambda = (longitude * Math.PI) / 180
  const phi = (latitude * Math.PI) / 180
  const sinPhi = Math.sin(phi)
  const cosPhi = Math.cos(phi)
  const primeVertical = semiMajorAxis / Math.sqrt(1 - eccentricitySquared * sinPhi * sinPhi)
  return [
    (primeVertical + height) * cosPhi * Math.cos(lambda),
    (primeVertical + height) * cosPhi * Math.sin(lambda),
    (primeVertical * (1 - eccentricitySquared) + height) * sinPhi,
  ]
}

/** `cartisian_x/y/z` of a POI in a project of `kind`. */
export function cartesianOf(
  kind: 'city' | 'building',
  position: { x: number; y: number; z: number },
): { cartisian_x: number; cartisian_y: number; cartisian_z: number } {
  const [x, y, z] =
    kind === 'city'
      ? ecefOf(position.x, position.y, position.z)
      : [position.x, position.y, position.z]
  return { cartisian_x: x, cartisian_y: y, cartisian_z: z }
}
