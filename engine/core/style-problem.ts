import type { SceneStyle, StyleColor } from '../api/style-commands'

/**
 * What makes a scene style drawable, shared by the building and the city scene: both check a
 * style the same way before drawing any of it (a bad one changes nothing).
 */

function colorProblem(name: string, color: StyleColor | undefined): string | null {
  if (!color || typeof color !== 'object') return `${name} is missing`
  const isChannel = (value: number) => Number.isInteger(value) && value >= 0 && value <= 255
  if (!isChannel(color.r) || !isChannel(color.g) || !isChannel(color.b)) {
    return `${name}: r, g and b must be whole numbers 0–255`
  }
  if (!(color.a >= 0 && color.a <= 1)) return `${name}: alpha must be 0–1`
  return null
}

/** Why a style cannot be drawn, or null when it can. */
export function styleProblem(style: SceneStyle): string | null {
  if (!style || typeof style !== 'object') return 'the style is missing'
  if (![1, 2, 3, 4].includes(style.sky)) return 'sky must be 1, 2, 3 or 4'
  if (!['sunny', 'rain', 'snow'].includes(style.weather))
    return 'weather must be sunny, rain or snow'
  if (!['none', 'grassland', 'stoneGravel', 'ashBlackGravel'].includes(style.ground)) {
    return 'unknown ground style'
  }
  const colors: Array<[string, StyleColor | undefined]> = [
    ...(style.pathColor === undefined
      ? []
      : [['pathColor', style.pathColor] as [string, StyleColor]]),
    ['fog.color', style.fog?.color],
    ['ambientLight.color', style.ambientLight?.color],
    ['directionalLight.color', style.directionalLight?.color],
    ['hemisphereLight.skyColor', style.hemisphereLight?.skyColor],
    ['hemisphereLight.groundColor', style.hemisphereLight?.groundColor],
  ]
  for (const [name, color] of colors) {
    const problem = colorProblem(name, color)
    if (problem) return problem
  }
  if (!(style.fog.density >= 0 && style.fog.density <= 1)) return 'fog.density must be 0–1'
  const { min, max } = style.visualDistance ?? { min: Number.NaN, max: Number.NaN }
  if (!(min > 0) || !(max > 0) || !Number.isFinite(min + max) || min > max) {
    return 'visualDistance needs 0 < min ≤ max'
  }
  const factors = style.zoomFactors ?? { min: Number.NaN, max: Number.NaN }
  if (!(factors.min > 0) || !(factors.max > 0) || !Number.isFinite(factors.min + factors.max)) {
    return 'zoomFactors must be positive'
  }
  if (!(style.wheelScale > 0) || !Number.isFinite(style.wheelScale)) {
    return 'wheelScale must be positive'
  }
  if (!(style.mouseSpeed > 0) || !Number.isFinite(style.mouseSpeed)) {
    return 'mouseSpeed must be positive'
  }
  return null
}
