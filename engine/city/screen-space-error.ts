/**
 * loaders.gl's `Tileset3D` computes a tile's screen-space error with a fixed denominator of 1.15
 * ("assumes fovy = 60 degrees"), while MapLibre's camera has a vertical field of view of
 * 36.87°. Left alone, every tile's error is under-estimated by 1.15 / (2·tan(fovy / 2)) ≈ 1.7×,
 * so a "16 px" setting behaves as ≈ 28 px and streams far coarser tiles than 3D Tiles'
 * definition (and CesiumJS or 3DTilesRendererJS at the same setting) would.
 */
const loadersGlScreenSpaceErrorDenominator = 1.15

/**
 * The `viewDistanceScale` that makes loaders.gl's screen-space error the 3D Tiles one for a
 * camera with this vertical field of view: loaders.gl multiplies its error by it.
 */
export function screenSpaceErrorScale(verticalFieldOfViewDegrees: number): number {
  if (!(verticalFieldOfViewDegrees > 0 && verticalFieldOfViewDegrees < 180)) return 1
  const fieldOfViewRadians = (verticalFieldOfViewDegrees * Math.PI) / 180
  const denominator = 2 * Math.tan(fieldOfViewRadians / 2)
  return loadersGlScreenSpaceErrorDenominator / denominator
}
