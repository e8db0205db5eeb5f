import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import type { EngineHandle } from '../../../engine-bridge'
import { findMaterials } from '../../../api/materials'
import { showErrorToast } from '../../../components/feedback/error-text'
import { materialStore, overridesOf } from './material-store'

/**
 * Loads the project's material assignments once the building is open and keeps the engine's
 * overrides equal to them, in every module: a material assigned in the materials tab shows at
 * once and after a reload.
 */
export function useMaterialOverrides(
  engine: EngineHandle | null,
  isBuildingOpen: boolean,
  projectId: string | null,
): void {
  const store = useSnapshot(materialStore)
  useEffect(() => {
    if (!projectId) return undefined
    let isCurrent = true
    materialStore.projectId = projectId
    materialStore.isLoaded = false
    findMaterials(projectId)
      .then((found) => {
        if (!isCurrent) return
        materialStore.materials = found.materials
        materialStore.assignments = found.assignments
        materialStore.isLoaded = true
      })
      .catch(showErrorToast)
    return () => {
      isCurrent = false
    }
  }, [projectId])

  useEffect(() => {
    if (!engine || !isBuildingOpen || !store.isLoaded) return
    engine
      .run('building.setMaterialOverrides', {
        overrides: overridesOf(store.materials, store.assignments),
      })
      .catch(showErrorToast)
  }, [engine, isBuildingOpen, store.isLoaded, store.materials, store.assignments])
}
