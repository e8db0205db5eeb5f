import { useCallback, useEffect } from 'react'
import { useSnapshot } from 'valtio'
import type { Project } from '../../../contract/project'
import { api } from '../../api'
import { findModelInfo } from '../../api/building'
import { findGmlPath } from '../../api/gml'
import { errorText } from '../../components/feedback/error-text'
import { type EngineHandle, useFileAddressRenewal } from '../../engine-bridge'
import { currentProject } from '../../state/project'
import { buildingSession, resetBuildingSession } from './building-session'
import { loadProjectGml } from './gml/load-project-gml'
import { loadProjectStyle } from './style/style-store'
import { sceneDescriptionOf } from './scene-description'
import { projectRoutes } from '../../../contract/project'

/** `POST /web/project/findProject`: the open project's record (name, kind, paid state). */
async function findProject(projectId: string, signal: AbortSignal): Promise<Project> {
  const { datum } = await api.call(projectRoutes.findProject, { id: projectId }, { signal })
  return datum
}

/**
 * Opens the current project (src/state/project.ts) in the engine: its record and model list
 * from the server, then `building.open` with the description made from them, then its GML
 * path if it has one. Runs again when the project changes or `requestSceneReload()` was called
 * (after an upload or a delete). A superseded run stops touching the store and the engine.
 */
export function useBuildingProject(engine: EngineHandle | null): void {
  const { projectId } = useSnapshot(currentProject)
  const { modelsRevision } = useSnapshot(buildingSession)

  useEffect(() => {
    if (buildingSession.projectId !== projectId) resetBuildingSession(projectId)
  }, [projectId])

  // floors, models and the GML file may load hours after opening (a kiosk): their addresses
  // are asked for again when the server refuses them
  const findAddressesAgain = useCallback(
    () =>
      projectId
        ? Promise.all([findModelInfo(projectId), findGmlPath(projectId)])
        : Promise.resolve([]),
    [projectId],
  )
  useFileAddressRenewal(projectId ? findAddressesAgain : null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: modelsRevision is the reload trigger
  useEffect(() => {
    if (!engine || !projectId) return
    const controller = new AbortController()
    const isCurrent = () => !controller.signal.aborted
    buildingSession.status = 'loading'
    buildingSession.errorMessage = null
    void (async () => {
      try {
        const [project, info] = await Promise.all([
          findProject(projectId, controller.signal),
          findModelInfo(projectId),
        ])
        if (!isCurrent()) return
        buildingSession.project = project
        buildingSession.modelInfo = info
        buildingSession.status = 'ready'
        // the style is the scene's, not the building's: shown while the models load
        void loadProjectStyle(engine, projectId, { isCurrent })
        const opening = engine.run('building.open', {
          description: sceneDescriptionOf(projectId, project.name, info),
        })
        // The network is drawn over the building, so it waits for the scene to exist.
        await opening.catch(() => undefined)
        if (!isCurrent()) return
        await loadProjectGml(engine, projectId, { isCurrent })
      } catch (error) {
        if (!isCurrent()) return
        buildingSession.status = 'error'
        buildingSession.errorMessage = () => errorText(error)
      }
    })()
    return () => controller.abort()
  }, [engine, projectId, modelsRevision])
}
