import { proxy } from 'valtio'
import type { MaterialLook, MaterialOverride } from '../../../../engine/api'
import type { MaterialAssignment, MaterialDatum } from '../../../api/materials'
import { texturePath } from '../../../api/materials'

/** The open building's material library and mesh assignments (issue 21 item 4). */
export const materialStore = proxy({
  projectId: null as string | null,
  materials: [] as MaterialDatum[],
  assignments: [] as MaterialAssignment[],
  isLoaded: false,
})

/** The engine's look of a library material (maps as served addresses). */
export function lookOf(material: MaterialDatum): MaterialLook {
  const map = (name: string) => (name === '' ? undefined : texturePath(name))
  const maps: MaterialLook['maps'] = {}
  const baseColor = map(material.base_color_map)
  const normal = map(material.normal_map)
  const emissive = map(material.emissive_map)
  const metalRough = map(material.metal_rough_map)
  if (baseColor) maps.baseColor = baseColor
  if (normal) maps.normal = normal
  if (emissive) maps.emissive = emissive
  if (metalRough) maps.metalRough = metalRough
  return {
    baseColor: material.base_color.toLowerCase(),
    metalness: material.metalness,
    roughness: material.roughness,
    emissive: material.emissive.toLowerCase(),
    maps,
  }
}

/** Every assignment whose material is in the library, as engine overrides. */
export function overridesOf(
  materials: readonly MaterialDatum[],
  assignments: readonly MaterialAssignment[],
): MaterialOverride[] {
  const byId = new Map(materials.map((material) => [material.id, material]))
  return assignments.flatMap((assignment) => {
    const material = byId.get(assignment.material_id)
    return material
      ? [{ modelId: assignment.model_id, meshName: assignment.mesh_name, look: lookOf(material) }]
      : []
  })
}
