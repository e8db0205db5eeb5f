import type { MessageDescriptor } from '@lingui/core'
import type { GmlRouteEndpoint } from '../../../../engine/api'
import type { RouteEndChoice } from '../building-session'
import { gmlMessages } from './gml-messages'

/** What "Find route" may do: ask the engine with these ends, or tell the user why not. */
export type RouteRequestCheck =
  | { canRoute: true; from: GmlRouteEndpoint; to: GmlRouteEndpoint }
  | { canRoute: false; message: MessageDescriptor }

/** The engine's form of a chosen end. */
export function endpointOf(choice: RouteEndChoice): GmlRouteEndpoint {
  return choice.kind === 'state'
    ? { stateId: choice.stateId }
    : { point: [choice.point[0], choice.point[1], choice.point[2]] }
}

/**
 * SPEC §5 "The shortest path needs the GML loaded, start and end points", with the §8 messages:
 * no network → 'Load the GML path first.'; no end at all → 'Not selected paths'; one end
 * missing or both the same State → 'Re-select the start point or the end point.'.
 */
export function checkRouteRequest(
  isNetworkLoaded: boolean,
  start: RouteEndChoice | null,
  end: RouteEndChoice | null,
): RouteRequestCheck {
  if (!isNetworkLoaded) return { canRoute: false, message: gmlMessages.loadFirst }
  if (!start && !end) return { canRoute: false, message: gmlMessages.notSelected }
  if (!start || !end) return { canRoute: false, message: gmlMessages.reselectEnds }
  if (start.kind === 'state' && end.kind === 'state' && start.stateId === end.stateId)
    return { canRoute: false, message: gmlMessages.reselectEnds }
  return { canRoute: true, from: endpointOf(start), to: endpointOf(end) }
}

/** A length in metres as the route list shows it: two decimals, like the test data's 13.37. */
export function formatLengthMeters(lengthMeters: number): string {
  return lengthMeters.toFixed(2)
}
