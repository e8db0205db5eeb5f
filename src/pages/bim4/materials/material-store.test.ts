import { describe, expect, it } from 'vitest'
import type { MaterialAssignment, MaterialDatum } from '../../../api/materials'
import { lookOf, overridesOf } from './material-store'

const material = (overrides: Partial<MaterialDatum>): MaterialDatum => ({
  id: 'm1',
  name: 'Brick',
  base_color: '#AA3311',
  metalness: 0.1,
  roughness: 0.7,
  emissive: '#000000',
  base_color_map: '',
  normal_map: '',
  emissive_map: '',
  metal_rough_map: '',
  created_at: '',
  updated_at: '',
  ...overrides,
})

const assignment = (materialId: string, meshName: string): MaterialAssignment => ({
  id: `a-${meshName}`,
  project_id: 'p',
  model_id: 'model',
  mesh_name: meshName,
  material_id: materialId,
})

describe('material overrides from the library', () => {
  it('gives the engine served addresses for the maps a material has, and none for the rest', () => {
    const look = lookOf(material({ base_color_map: '0e7c6a2e-1111-4222-8333-444455556666.png' }))
    expect(look).toEqual({
      baseColor: '#aa3311',
      metalness: 0.1,
      roughness: 0.7,
      emissive: '#000000',
      maps: { baseColor: '/web/files/0e7c6a2e-1111-4222-8333-444455556666.png' },
    })
  })

  it('draws each assignment with its material and skips one whose material is gone', () => {
    const overrides = overridesOf(
      [material({ id: 'm1' })],
      [assignment('m1', 'Wall'), assignment('deleted', 'Roof')],
    )
    expect(overrides).toEqual([
      { modelId: 'model', meshName: 'Wall', look: expect.objectContaining({ roughness: 0.7 }) },
    ])
  })
})
