import { useCallback, useEffect } from 'react'
import { useSnapshot } from 'valtio'
import type { BuildingPlacement } from '../../../engine/api'
import type { Project, ProjectCenter } from '../../../contract/project'
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

/** The placement a project's location stores (null until its anchors placed the building). */
export function placementOf(center: ProjectCenter | null | undefined): BuildingPlacement | null {
  if (!center || center.heading === undefined) return null
  return { headingDegrees: center.heading, scale: center.scale ?? 1 }
}

/**
 * Opens the current project (src/state/project.ts) in the engine: its record and model list
 * from the server, then `building.open` with the description made from them, then its GML
 * path if it has one. Runs again when the project changes or `requestSceneReload()` was called
 * (after an upload or a delete). A superseded run stops touching the store and the engine.
 */
export function useBuildingProject(engine: EngineHandle | null): void {
  const { projectId } = useSnapshot(currentProject)
  const { modelsRevision, project } = useSnapshot(buildingSession)
  const placement = placementOf(project?.project_center)

  useEffect(() => {
    if (buildingSession.projectId !== projectId) resetBuildingSession(projectId)
  }, [projectId])

  // The building is drawn as its anchors placed it; "Place the building here" updates the
  // session's project, and so the scene.
  const placementKey = placement ? `${placement.headingDegrees}|${placement.scale}` : ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the placement
  useEffect(() => {
    if (!engine) return
    void engine.run('building.setPlacement', { placement }).catch(() => {})
  }, [engine, placementKey])

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
