import { proxy } from 'valtio'
import type { ModelInfoDatum } from '../../../contract/building'
import type { Project } from '../../../contract/project'
import type { GmlPath } from '../../../contract/gml'
import type { LiveText } from '../../ui'

/**
 * What the building editor knows beyond the engine snapshot: the open project's record and
 * model list from the server, how far opening it got, and what the next canvas click is for.
 * One store for the editor's lifetime; `resetBuildingSession` clears it when a project opens.
 */

/** Where opening the project stands. */
export type SceneLoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/**
 * Where the project's GML path stands: not asked yet, none uploaded, being loaded into the
 * engine, drawn, or failed to load ('Failed to load GML file.').
 */
export type GmlFileStatus = 'unknown' | 'none' | 'loading' | 'loaded' | 'failed'

/**
 * What a click on the canvas does: inspect the surface, choose an end of a route, or pick the
 * model point of an anchor (the location module).
 */
export type CanvasClickPurpose = 'inspect' | 'routeStart' | 'routeEnd' | 'anchor'

/** One chosen end of a shortest-path query (readonly: the store's snapshots hand it out so). */
export type RouteEndChoice =
  | { readonly kind: 'state'; readonly stateId: string; readonly label: string }
  | {
      readonly kind: 'point'
      readonly point: readonly [number, number, number]
      readonly label: string
    }

/** The editor's session state. */
export interface BuildingSessionState {
  projectId: string | null
  project: Project | null
  modelInfo: ModelInfoDatum | null
  status: SceneLoadStatus
  /** Why opening failed (the server's message, made into words when drawn), on 'error'. */
  errorMessage: LiveText | null
  clickPurpose: CanvasClickPurpose
  routeStart: RouteEndChoice | null
  routeEnd: RouteEndChoice | null
  /** The project's GML file as the server describes it, or null when it has none. */
  gmlFile: GmlPath | null
  gmlStatus: GmlFileStatus
  /** Bumped after an upload or delete changed the models, so the scene reopens. */
  modelsRevision: number
}

/** The building editor's store; read with `useSnapshot(buildingSession)`. */
export const buildingSession = proxy<BuildingSessionState>({
  projectId: null,
  project: null,
  modelInfo: null,
  status: 'idle',
  errorMessage: null,
  clickPurpose: 'inspect',
  routeStart: null,
  routeEnd: null,
  gmlFile: null,
  gmlStatus: 'unknown',
  modelsRevision: 0,
})

/** Forgets everything of the previous project (a new one is being opened). */
export function resetBuildingSession(projectId: string | null): void {
  Object.assign(buildingSession, {
    projectId,
    project: null,
    modelInfo: null,
    status: 'idle',
    errorMessage: null,
    clickPurpose: 'inspect',
    routeStart: null,
    routeEnd: null,
    gmlFile: null,
    gmlStatus: 'unknown',
  } satisfies Omit<BuildingSessionState, 'modelsRevision'>)
}

/** Asks the editor to fetch the model list again and reopen the scene. */
export function requestSceneReload(): void {
  buildingSession.modelsRevision += 1
}
