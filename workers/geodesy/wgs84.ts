import * as geodesicNamespace from 'geographiclib-geodesic'

/**
 * GeographicLib's geodesic routines (Karney 2013), loaded once. The package is a CommonJS
 * bundle: Node's ESM loader exposes it only as `default`, bundlers as named exports too, so the
 * namespace is read whichever way it arrives.
 */
const library = ((geodesicNamespace as unknown as { default?: typeof geodesicNamespace }).default ??
  geodesicNamespace) as typeof geodesicNamespace

/** The WGS84 ellipsoid's geodesic solver (a = 6378137 m, f = 1/298.257223563). */
export const wgs84 = library.Geodesic.WGS84

/** Output masks of {@link wgs84}'s Direct and Inverse. */
export const GeodesicMask = library.Geodesic

/** A polygon (or, with `isPolyline`, a polyline) accumulator on {@link wgs84}. */
export const createGeodesicPolygon = (isPolyline: boolean) => wgs84.Polygon(isPolyline)

/** WGS84 semi-major axis, metres. */
export const wgs84SemiMajorMeters = 6_378_137

/** WGS84 flattening. */
export const wgs84Flattening = 1 / 298.257223563
