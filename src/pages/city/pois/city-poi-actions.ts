import { proxy } from 'valtio'
import type { EngineHandle } from '../../../engine-bridge'
import { type PoiStore, type PoiTemplateInfo, poiStore } from '../../../state/pois'
import type { PoiModeTool } from '../../pois/poi-control'
import { templateNameText } from '../../../i18n/library-names'

/**
 * What the city's POI tabs share with the map: the template being placed (a click on the map
 * or the oblique photography places one) and the control bar's active tool (with "move", the
 * selected POI is dragged: use-city-poi-drag.ts). Valtio, because the map and the tab read it.
 */
export const cityPoiUi = proxy<{
  placingTemplate: PoiTemplateInfo | null
  activeTool: PoiModeTool | null
}>({ placingTemplate: null, activeTool: null })

/** The name a new POI gets: its template's name and the next free number ("Camera 3"). */
export function nextPoiName(templateName: string, existingNames: Iterable<string>): string {
  const taken = new Set(existingNames)
  for (let index = 1; ; index++) {
    const name = `${templateName} ${index}`
    if (!taken.has(name)) return name
  }
}

/** Where a click on the city map lands for POIs: a new POI, or a selection. */
export type CityPoiClickOutcome = 'placed' | 'selected' | 'cleared' | 'nothing'

/**
 * A click on the map while a POI tab is open (CSS pixels of the map). Placing a template: the
 * surface under the click (the basemap at height 0 or the oblique photography's surface) gets a
 * new POI at once (optimistic) and it becomes the selection. Otherwise the POI under the click
 * is selected (or the selection cleared); moving is a drag, not a click.
 */
export async function handleCityPoiClick(
  engine: EngineHandle,
  point: { x: number; y: number },
  options: {
    store?: PoiStore
    /** A click that found no POI (monomer POI: it selects the building there instead). */
    onNoPoi?: (point: { x: number; y: number }) => void
  } = {},
): Promise<CityPoiClickOutcome> {
  const store = options.store ?? poiStore
  const template = cityPoiUi.placingTemplate
  if (template) {
    const surface = await engine.run('city.surfacePointAtScreenPoint', point).catch(() => null)
    if (!surface) return 'nothing'
    const name = nextPoiName(
      templateNameText(template),
      store.entries().map((entry) => entry.name),
    )
    const created = store.create({ name, template, position: surface.position })
    // The optimistic entry is in the store now; select it once it has its final id.
    void created.then((entry) => {
      if (entry) store.select([entry.id])
    })
    return 'placed'
  }
  const pick = await engine.run('city.pickPoiAtScreenPoint', point).catch(() => null)
  if (!pick && options.onNoPoi) {
    options.onNoPoi(point)
    return 'nothing'
  }
  store.select(pick ? [pick.poiId] : [])
  return pick ? 'selected' : 'cleared'
}

let hoverFrame = 0
let hoverPoint: { x: number; y: number } | null = null

/**
 * Hover highlight of the POI under the pointer, at most once per frame (pointer events come
 * faster than the map draws).
 */
export function hoverCityPoi(engine: EngineHandle, point: { x: number; y: number }): void {
  hoverPoint = point
  if (hoverFrame) return
  hoverFrame = requestAnimationFrame(() => {
    hoverFrame = 0
    const at = hoverPoint
    if (at) void engine.run('city.hoverPoiAtScreenPoint', at).catch(() => null)
  })
}
