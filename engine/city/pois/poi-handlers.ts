import type { CityCommands } from '../../api/city-commands'
import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { PoiCommands, PoiTemplateLook, ScenePoi } from '../../api/poi-commands'
import type { CityPoiDragCommands } from '../../api/poi-drag-commands'
import type { PoiStatusCommands } from '../../api/poi-status-commands'
import { checkPoiStatusEntries } from '../../building/pois/poi-statuses'
import type { CityScene } from '../city-scene'

function invalid(message: string, detail?: string): EngineError {
  return new EngineError('engine.invalidArgument', message, detail)
}

function checkPosition(position: readonly number[], what: string): void {
  const [lng, lat, height] = position
  if (
    position.length !== 3 ||
    !Number.isFinite(lng) ||
    !Number.isFinite(lat) ||
    !Number.isFinite(height) ||
    Math.abs(lat!) > 85 ||
    Math.abs(lng!) > 180
  ) {
    throw invalid(`${what} is not a place on the map: ${position.join(', ')}.`, what)
  }
}

/** Refuses POIs the scene could not draw (no id, NaN or off-map positions, NaN angles). */
function checkPois(pois: readonly ScenePoi[]): void {
  for (const poi of pois) {
    if (typeof poi.id !== 'string' || poi.id === '') throw invalid('A POI has no id.')
    checkPosition(poi.position, `POI ${poi.id}`)
    if (![poi.heading, poi.pitch, poi.roll].every(Number.isFinite)) {
      throw invalid(`POI ${poi.id} has an angle that is not a number.`, poi.id)
    }
  }
}

function checkLooks(looks: readonly PoiTemplateLook[]): void {
  for (const look of looks) {
    if (look.kind !== '2D' && look.kind !== '3D') {
      throw invalid(`Template ${look.templateId} is neither 2D nor 3D.`, look.templateId)
    }
  }
}

function checkScreenPoint(x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw invalid('The screen point must be numbers.')
}

/**
 * Handlers of the city's POI commands (`PoiCommands<'city'>`, drag and device statuses), on the
 * open scene's POI part.
 * They check what they are given, so a NaN from a form never reaches the GPU.
 */
export function createCityPoiHandlers(
  openScene: () => CityScene,
): Pick<
  CommandHandlers,
  (keyof PoiCommands<'city'> | keyof CityPoiDragCommands | keyof PoiStatusCommands<'city'>) &
    keyof CityCommands
> {
  return {
    'city.setPoiLooks': async ({ looks }) => {
      checkLooks(looks)
      openScene().pois.setLooks(looks)
      return undefined
    },
    'city.setPois': async ({ pois }) => {
      checkPois(pois)
      openScene().pois.setPois(pois)
      return undefined
    },
    'city.upsertPois': async ({ pois }) => {
      checkPois(pois)
      openScene().pois.upsertPois(pois)
      return undefined
    },
    'city.removePois': async ({ ids }) => {
      openScene().pois.removePois(ids)
      return undefined
    },
    'city.setHiddenPoiGroups': async ({ groupIds }) => {
      openScene().pois.setHiddenGroups(groupIds)
      return undefined
    },
    'city.selectPois': async ({ ids }) => {
      openScene().pois.select(ids)
      return undefined
    },
    'city.pickPoiAtScreenPoint': async ({ x, y, select }) => {
      checkScreenPoint(x, y)
      return openScene().pois.pickAt(x, y, select ?? false)
    },
    'city.hoverPoiAtScreenPoint': async ({ x, y }) => {
      checkScreenPoint(x, y)
      return openScene().pois.hoverAt(x, y)
    },
    'city.surfacePointAtScreenPoint': async ({ x, y }) => {
      checkScreenPoint(x, y)
      return openScene().pois.surfacePointAt(x, y)
    },
    'city.setPoiGhosts': async ({ pois }) => {
      checkPois(pois)
      openScene().pois.setGhosts(pois)
      return undefined
    },
    'city.flyToPoi': async ({ id }) => {
      const scene = openScene()
      const position = scene.pois.positionOf(id)
      if (!position) throw invalid(`No POI ${id} in the city.`, id)
      const zoom = Math.max(18, scene.currentZoom())
      await scene.flyTo({ lng: position[0], lat: position[1], zoom })
      return undefined
    },
    'city.beginPoiDrag': async ({ x, y }) => {
      checkScreenPoint(x, y)
      return openScene().poiDrag.begin(x, y)
    },
    'city.endPoiDrag': async () => {
      openScene().poiDrag.end()
      return undefined
    },
    'city.setPoiStatuses': async ({ statuses, replace }) => {
      checkPoiStatusEntries(statuses)
      openScene().pois.setStatuses(statuses, replace === true)
      return undefined
    },
    'city.poiToScreen': async ({ position }) => {
      checkPosition(position, 'The position')
      return openScene().pois.toScreen(position)
    },
  }
}
