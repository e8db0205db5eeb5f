import type { Material } from 'three'

/** A material's own transparency, restored when its model becomes opaque again. */
export interface MaterialDefaults {
  material: Material
  transparent: boolean
  opacity: number
  depthWrite: boolean
}

/** Records the materials' own transparency before any opacity is applied. */
export function captureMaterialDefaults(materials: readonly Material[]): MaterialDefaults[] {
  return materials.map((material) => ({
    material,
    transparent: material.transparent,
    opacity: material.opacity,
    depthWrite: material.depthWrite,
  }))
}

/**
 * Fades a model: below 1 its materials blend without depth writes, so what is inside shows
 * through; at 1 each material is back to its own settings.
 */
export function applyOpacity(defaults: readonly MaterialDefaults[], opacity: number): void {
  const isTranslucent = opacity < 1
  for (const saved of defaults) {
    const { material } = saved
    const transparent = saved.transparent || isTranslucent
    if (material.transparent !== transparent) material.needsUpdate = true
    material.transparent = transparent
    material.opacity = saved.opacity * opacity
    material.depthWrite = isTranslucent ? false : saved.depthWrite
  }
}
