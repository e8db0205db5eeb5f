import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { createPoiScene, sceneStore, useEngine } from '../../../engine-bridge'
import { poiStore } from '../../../state/pois'
import { cityPoiUi } from './city-poi-actions'

/**
 * Loads the open city project's POIs into the POI store and draws them in the city scene while
 * it is open (every tab shows them, not only the POI tabs). The scene is attached when the city
 * has opened: commands sent before would find no city to draw in.
 */
export function useCityPois(projectId: string | null): void {
  const engine = useEngine()
  const { isOpen, projectId: openProjectId } = useSnapshot(sceneStore).city

  useEffect(() => {
    if (!projectId) return
    void poiStore.load(projectId, 'city')
    return () => {
      cityPoiUi.placingTemplate = null
      cityPoiUi.activeTool = null
      poiStore.reset()
    }
  }, [projectId])

  useEffect(() => {
    if (!isOpen || !openProjectId) return
    return poiStore.attachScene(createPoiScene(engine, 'city'))
  }, [engine, isOpen, openProjectId])
}
