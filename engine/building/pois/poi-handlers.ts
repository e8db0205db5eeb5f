import { Vector3 } from 'three'
import { STALE } from '../../../workers/protocol/latest-wins'
import type { BuildingPick, Vector3Tuple } from '../../api/building-snapshot'
import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { PoiCommands, PoiSurfacePoint, ScenePoi } from '../../api/poi-commands'
import type { BuildingView } from '../building-view'
import type { BuildingPoiLayer } from './poi-layer'
import { poiProblem } from './poi-records'
import { projectPoint } from './poi-screen'

type PoiHandlers = Pick<CommandHandlers, keyof PoiCommands<'building'>>

/** What the POI handlers reach through: the open scene's layer and picking, and the view. */
export interface PoiHandlerScope {
  view: BuildingView
  /** The open scene's POI layer; throws `building.notOpen` when none is open. */
  layer(): BuildingPoiLayer
  /** Picks the shown model surface along the ray under a canvas point (not recorded). */
  pickSurface(x: number, y: number): Promise<BuildingPick | null | typeof STALE>
  /** Where the ray under a canvas point meets the ground under the building, or null (sky). */
  groundPoint(x: number, y: number): Vector3Tuple | null
  requireCanvas(): void
}

/** How close `flyToPoi` brings the camera, metres (never further than it already is). */
const FLY_DISTANCE = 12

/** The `building.*` POI commands (see `PoiCommands`), over the open scene's POI layer. */
export function createBuildingPoiHandlers(scope: PoiHandlerScope): PoiHandlers {
  const { view } = scope
  return {
    'building.setPoiLooks': async ({ looks }) => {
      if (!Array.isArray(looks)) throw invalid('POI looks must be a list.')
      for (const look of looks) {
        if (
          !look ||
          typeof look.templateId !== 'string' ||
          (look.kind !== '2D' && look.kind !== '3D')
        ) {
          throw invalid('Each POI look needs a template id and a kind of 2D or 3D.')
        }
      }
      scope.layer().setLooks(looks)
    },
    'building.setPois': async ({ pois }) => {
      scope.layer().setPois(checked(pois))
    },
    'building.upsertPois': async ({ pois }) => {
      scope.layer().upsertPois(checked(pois))
    },
    'building.removePois': async ({ ids }) => {
      if (!Array.isArray(ids)) throw invalid('POI ids must be a list.')
      scope.layer().removePois(ids)
    },
    'building.setHiddenPoiGroups': async ({ groupIds }) => {
      if (!Array.isArray(groupIds)) throw invalid('Group ids must be a list.')
      scope.layer().setHiddenGroups(groupIds)
    },
    'building.selectPois': async ({ ids }) => {
      if (!Array.isArray(ids)) throw invalid('POI ids must be a list.')
      scope.layer().select(ids)
    },
    'building.pickPoiAtScreenPoint': async ({ x, y, select }) => {
      const layer = scope.layer()
      scope.requireCanvas()
      const poiId = layer.pickAt(view.camera, x, y)
      if (select) layer.select(poiId ? [poiId] : [])
      return poiId ? { poiId } : null
    },
    'building.hoverPoiAtScreenPoint': async ({ x, y }) => {
      const layer = scope.layer()
      scope.requireCanvas()
      const poiId = layer.pickAt(view.camera, x, y)
      layer.setHovered(poiId)
      return poiId ? { poiId } : null
    },
    'building.surfacePointAtScreenPoint': async ({ x, y, orGround }) => {
      scope.layer()
      scope.requireCanvas()
      const ray = view.rayAt(x, y)
      const pick = await scope.pickSurface(x, y)
      if (pick === STALE) return null
      if (!pick) {
        const ground = orGround ? scope.groundPoint(x, y) : null
        return ground && { position: ground, normal: [0, 1, 0], surface: 'ground', floorId: null }
      }
      // The worker's normal is the triangle's; a POI goes on the side the user looks at.
      const normal = new Vector3().fromArray(pick.normal).normalize()
      if (normal.dot(new Vector3().fromArray(ray.direction)) > 0) normal.negate()
      const answer: PoiSurfacePoint = {
        position: pick.point,
        normal: [normal.x, normal.y, normal.z],
        surface: 'model',
        floorId: pick.floorId,
      }
      return answer
    },
    'building.setPoiGhosts': async ({ pois }) => {
      scope.layer().setGhosts(checked(pois))
    },
    'building.flyToPoi': async ({ id }) => {
      const layer = scope.layer()
      const poi = layer.get(id)
      if (!poi) throw invalid(`No POI '${id}' is in the scene.`)
      const target = layer.toScene(poi.position)
      const direction = view.camera.position.clone().sub(view.target)
      if (direction.lengthSq() < 1e-12) direction.set(1, 0.8, 1)
      const distance = Math.min(view.distance(), FLY_DISTANCE)
      const position = target.clone().addScaledVector(direction.normalize(), distance)
      view.setCamera(position.toArray() as Vector3Tuple, target.toArray() as Vector3Tuple)
    },
    'building.poiToScreen': async ({ position }) => {
      if (!Array.isArray(position) || position.length !== 3 || !position.every(Number.isFinite)) {
        throw invalid('A position needs three finite numbers.')
      }
      const { width, height } = view.cssSize()
      const camera = view.camera
      view.rayAt(0, 0) // refreshes the camera's matrices and clip planes, as a render would
      const viewProjection = camera.projectionMatrix.clone().multiply(camera.matrixWorldInverse)
      // a POI position is on the building: its placement turns and scales it into the scene
      const inScene = scope.layer().toScene(position)
      const point = projectPoint(viewProjection, inScene.x, inScene.y, inScene.z, width, height)
      const isVisible =
        point.w > 0 && point.x >= 0 && point.y >= 0 && point.x <= width && point.y <= height
      return { x: point.x, y: point.y, isVisible }
    },
  }
}

function checked(pois: ScenePoi[]): ScenePoi[] {
  if (!Array.isArray(pois)) throw invalid('POIs must be a list.')
  for (const poi of pois) {
    const problem = poiProblem(poi)
    if (problem) throw invalid(`${problem}.`)
  }
  return pois
}

function invalid(message: string): EngineError {
  return new EngineError('engine.invalidArgument', message)
}
