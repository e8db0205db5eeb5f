import { useEffect } from 'react'
import { createPoiScene, type PoiEngine, type PoiScenePrefix } from '../../engine-bridge'
import { type PoiStore, poiStore } from '../../state/pois'

/**
 * Wires an editor to the POI store: loads the open project's POIs (again when the project
 * changes) and draws them in the editor's scene for as long as it is mounted. The city editor
 * calls it with 'city', the building editor with 'building'.
 */
export function usePoiScene(
  engine: PoiEngine | null,
  prefix: PoiScenePrefix,
  projectId: string | null,
  store: PoiStore = poiStore,
): void {
  useEffect(() => {
    if (projectId) void store.load(projectId, prefix)
    return () => store.reset()
  }, [store, projectId, prefix])

  useEffect(() => {
    if (!engine) return undefined
    return store.attachScene(createPoiScene(engine, prefix))
  }, [store, engine, prefix])
}
