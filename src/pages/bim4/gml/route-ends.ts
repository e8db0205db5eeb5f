import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Vector3Tuple } from '../../../../engine/api'
import type { EngineHandle } from '../../../engine-bridge'
import { toast } from '../../../ui'
import { buildingSession } from '../building-session'
import { gmlMessages } from './gml-messages'
import { stateLabel } from './gml-states'

/** Which end of the route a choice is for. */
export type RouteEnd = 'routeStart' | 'routeEnd'

/**
 * Makes a point picked in the scene an end of the route, named by the State it snaps to. The
 * point is recorded at once (so "Find route" works even before the answer, the engine snapping
 * it the same way), then replaced by its snapped State (`gml.snapPoint`), so the user reads
 * which room the route will start or end in. An answer arriving after the end was chosen
 * again (a newer pick, a choice from the list) is dropped. A point with no State near it, or
 * a network gone meanwhile, clears the end and says so.
 */
export async function chooseRouteEndAtPoint(
  engine: EngineHandle,
  end: RouteEnd,
  point: Vector3Tuple,
): Promise<void> {
  const [x, y, z] = [point[0].toFixed(2), point[1].toFixed(2), point[2].toFixed(2)]
  buildingSession[end] = {
    kind: 'point',
    point: [point[0], point[1], point[2]],
    label: i18n._(msg`Point ${x}, ${y}, ${z}`),
  }
  // valtio hands out the same proxy until the end is assigned again: that identity tells
  // whether this pick is still the user's latest choice for this end.
  const pending = buildingSession[end]
  let snapped: Awaited<ReturnType<typeof snap>>
  try {
    snapped = await snap(engine, point)
  } catch {
    if (buildingSession[end] !== pending) return
    buildingSession[end] = null
    toast.error(i18n._(gmlMessages.notLoaded))
    return
  }
  if (buildingSession[end] !== pending) return
  if (!snapped) {
    buildingSession[end] = null
    toast.warning(i18n._(gmlMessages.reselectEnds))
    return
  }
  buildingSession[end] = { kind: 'state', stateId: snapped.stateId, label: stateLabel(snapped) }
}

function snap(engine: EngineHandle, point: Vector3Tuple) {
  return engine.run('gml.snapPoint', { point: [point[0], point[1], point[2]] })
}
