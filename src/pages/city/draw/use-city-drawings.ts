import { useEffect } from 'react'
import { subscribe, useSnapshot } from 'valtio'
import { type EngineHandle, sceneStore, useEngine } from '../../../engine-bridge'
import { useCityServices } from '../city-services'
import { drawStore, shapeOfDrawing } from './draw-store'

/** Hands the saved drawings to the open scene (every tab shows them). */
function sendShapes(engine: EngineHandle): void {
  engine.run('draw.setShapes', { shapes: drawStore.drawings.map(shapeOfDrawing) }).catch(() => {
    // an engine failure lands in snapshot.lastError, which the status bar shows
  })
}

/**
 * Loads the open city project's areas and paths into the draw store and draws them in the
 * city scene while it is open; every change of the store is drawn again.
 */
export function useCityDrawings(projectId: string | null): void {
  const engine = useEngine()
  const { findAreaDraws } = useCityServices()
  const { isOpen, projectId: openProjectId } = useSnapshot(sceneStore).city

  useEffect(() => {
    if (!projectId) return
    drawStore.projectId = projectId
    drawStore.drawings = []
    drawStore.loadState = 'loading'
    let isCurrent = true
    findAreaDraws(projectId)
      .then((drawings) => {
        if (!isCurrent) return
        drawStore.drawings = drawings
        drawStore.loadState = 'ready'
      })
      .catch(() => {
        if (isCurrent) drawStore.loadState = 'failed'
      })
    return () => {
      isCurrent = false
      drawStore.projectId = null
      drawStore.drawings = []
      drawStore.loadState = 'idle'
    }
  }, [projectId, findAreaDraws])

  useEffect(() => {
    if (!isOpen || !openProjectId) return
    sendShapes(engine)
    return subscribe(drawStore, () => sendShapes(engine))
  }, [engine, isOpen, openProjectId])
}
