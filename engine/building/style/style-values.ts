import { Color, SRGBColorSpace, Vector3 } from 'three'
import type { SkyStyle, StyleColor } from '../../api/style-commands'

/**
 * Pure rules of a scene style: what is a valid style, and the numbers the scene draws it with
 * (light strengths, the sun's direction per sky). Shared by the building scene and its tests.
 */

/** A 0–1 intensity of the UI becomes this many three.js (physical) units at most. */
export const LIGHT_INTENSITY_SCALE = 4
/** Ambient light strength at alpha 1. */
export const AMBIENT_INTENSITY = 4
/** SPEC §9 fallbacks, used when an intensity is not a number. */
export const DIRECTIONAL_INTENSITY_FALLBACK = 0.01
export const HEMISPHERE_INTENSITY_FALLBACK = 0.05

/** The sun's elevation per sky style, degrees (sky 2 is the sky box at sun 25°). */
export const SUN_ELEVATION_DEG: Record<SkyStyle, number> = { 1: 60, 2: 25, 3: 40, 4: 70 }
/** The sun's azimuth, degrees from +z toward +x. */
export const SUN_AZIMUTH_DEG = 150

/** The unit direction from the scene toward the sun of a sky style. */
export function sunDirection(sky: SkyStyle): Vector3 {
  const elevation = (SUN_ELEVATION_DEG[sky] * Math.PI) / 180
  const azimuth = (SUN_AZIMUTH_DEG * Math.PI) / 180
  return new Vector3(
    Math.cos(elevation) * Math.sin(azimuth),
    Math.sin(elevation),
    Math.cos(elevation) * Math.cos(azimuth),
  )
}

/** A three.js colour (linear working space) of a style colour (sRGB 0–255). */
export function threeColor(color: StyleColor): Color {
  return new Color().setRGB(color.r / 255, color.g / 255, color.b / 255, SRGBColorSpace)
}

/** A 0–1 intensity, or the fallback when it is not a number. */
export function intensityOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback
}

export { styleProblem } from '../../core/style-problem'
