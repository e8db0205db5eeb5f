import { proxy } from 'valtio'
import type { Vector3Tuple } from '../../../../engine/api'
import type { PoiTemplateInfo } from '../../../state/pois'
import type { PoiModeTool } from '../../pois/poi-control'

/**
 * What the building editor's POI module is doing (SPEC §2 `/bim4/poi`): placing POIs of a
 * chosen template by clicking on the model, or a tool of the POI control bar acting on the
 * selection. Module-wide so the side panel, the canvas clicks and the control bar agree.
 */
export interface PoiEditingState {
  /** The template new POIs are made from while placing; null when not placing. */
  placingTemplate: PoiTemplateInfo | null
  /** The control bar's active tool (move drags along the model's surface). */
  activeTool: PoiModeTool | null
}

/** The building editor's POI editing state. */
export const poiEditing = proxy<PoiEditingState>({ placingTemplate: null, activeTool: null })

/** Stops placing and clears the tool (leaving the module, switching projects). */
export function resetPoiEditing(): void {
  poiEditing.placingTemplate = null
  poiEditing.activeTool = null
}

/**
 * The heading (degrees, −180..180 in 15° steps) that turns a POI's front (+z) to face along a
 * wall's normal, so a camera placed on a wall looks out of it; 0 on floors and ceilings. The
 * engine turns by −heading about the up axis, which maps +z to (−sin h, 0, cos h).
 */
export function headingFacing(normal: Vector3Tuple): number {
  const [x, y, z] = normal
  if (Math.abs(y) > 0.7 || Math.hypot(x, z) < 1e-6) return 0
  const degrees = (Math.atan2(-x, z) * 180) / Math.PI
  const stepped = Math.round(degrees / 15) * 15
  return stepped === -180 ? 180 : stepped
}

/** Where a POI stood when a drag began. */
export interface PoiDragStart {
  position: Vector3Tuple
  floorId: string | null
}

/**
 * Where each dragged POI goes when the grabbed one (`anchorId`) is over `surface`: the grabbed
 * POI onto the surface point, every other selected POI by the same offset, so a selection moves
 * as a block and keeps its layout (before, every selected POI landed on the one point). A POI on
 * the grabbed one's floor follows it to the surface's floor; others keep theirs.
 */
export function groupDragTargets(
  starts: ReadonlyMap<string, PoiDragStart>,
  anchorId: string,
  surface: { position: Vector3Tuple; floorId?: string | null },
): Map<string, PoiDragStart> {
  const anchor = starts.get(anchorId)
  const targets = new Map<string, PoiDragStart>()
  if (!anchor) return targets
  const [dx, dy, dz] = [0, 1, 2].map((axis) => surface.position[axis]! - anchor.position[axis]!)
  for (const [id, start] of starts) {
    const followsFloor = surface.floorId && start.floorId === anchor.floorId
    targets.set(id, {
      position: [start.position[0] + dx!, start.position[1] + dy!, start.position[2] + dz!],
      floorId: followsFloor ? (surface.floorId ?? null) : start.floorId,
    })
  }
  return targets
}

/**
 * The floor a placed POI stands on: the hit model's floor, else the floor looked into, else the
 * highest floor at or below the point (a click on the shell or a free model). Null when the
 * building has no floors (the server then asks to select one).
 */
export function floorForPoint(
  hitFloorId: string | null | undefined,
  selectedFloorId: string | null,
  floors: readonly { id: string; elevationMeters: number }[],
  height: number,
): string | null {
  if (hitFloorId) return hitFloorId
  if (selectedFloorId) return selectedFloorId
  let best: { id: string; elevationMeters: number } | null = null
  for (const floor of floors) {
    if (floor.elevationMeters > height + 0.05) continue
    if (!best || floor.elevationMeters > best.elevationMeters) best = floor
  }
  return best?.id ?? floors[0]?.id ?? null
}
