import { GmlError } from './gml-errors'
import type { NavigationGraph } from './navigation-graph'
import type { ShortestPathSearch } from './shortest-path'

/** A point in file coordinates (x, y, z). */
export type GmlPoint = readonly [number, number, number]

/**
 * One end of a route: a State id, or a point snapped to the nearest connected State (on the
 * given storey when one is named; a storey is the label from `info().storeyLabels`).
 */
export type RouteEndpoint = string | { point: GmlPoint; storey?: string }

/** Where the storey changes along a path. */
export interface FloorChange {
  /** Index in `path` of the first State on the new storey. */
  index: number
  fromStateId: string
  toStateId: string
  fromStorey: string
  toStorey: string
}

/** A State a point was snapped to. */
export interface SnappedState {
  stateId: string
  storey: string
  /** Distance from the point to the State (horizontal when a storey was given), file units. */
  distance: number
}

/** A route that exists. */
export interface RouteFound {
  /** State ids from start to end. */
  path: string[]
  /** Geometric length along the Transitions, in the file's coordinate units. */
  length: number
  /** Flat x, y, z of the concatenated Transition geometries, oriented along the path. */
  polyline: Float64Array
  /** Storey label of each State in `path`. */
  storeys: string[]
  floorChanges: FloorChange[]
  /** Set for endpoints given as points. */
  snapped: { from?: SnappedState; to?: SnappedState }
}

/** No route: the two States are in different parts of the network (reported, not an error). */
export interface RouteNotFound {
  path: null
  reason: 'unreachable'
  snapped: { from?: SnappedState; to?: SnappedState }
}

/** What a route query answers. */
export type RouteResult = RouteFound | RouteNotFound

/** Looks State ids up; built once per graph. */
export function indexStates(graph: NavigationGraph): Map<string, number> {
  const index = new Map<string, number>()
  graph.stateIds.forEach((id, node) => {
    index.set(id, node)
  })
  return index
}

function storeyIndexOf(graph: NavigationGraph, storey: string): number {
  const index = graph.storeys.findIndex((info) => info.label === storey)
  if (index < 0) {
    throw new GmlError(
      'gml.invalidQuery',
      `Unknown storey '${storey}'; the network has storeys ${graph.storeys.map((info) => `'${info.label}'`).join(', ')}.`,
    )
  }
  return index
}

/**
 * The State nearest a point, among States that have an edge (an isolated State is no place to
 * start or end a route). With a storey, only that storey is searched and distance is measured
 * in plan (x, y), since a point picked on a floor plan carries the floor's z, not the State's.
 */
export function nearestState(
  graph: NavigationGraph,
  point: GmlPoint,
  storey?: string,
): SnappedState | null {
  if (!point.every(Number.isFinite) || point.length !== 3) {
    throw new GmlError('gml.invalidQuery', 'A point needs three finite coordinates (x, y, z).')
  }
  const storeyIndex = storey === undefined ? -1 : storeyIndexOf(graph, storey)
  const { positions, positionKnown, offsets, stateStoreys } = graph
  const [x, y, z] = point
  let best = -1
  let bestSquared = Number.POSITIVE_INFINITY
  for (let node = 0; node < graph.stateIds.length; node++) {
    if (!positionKnown[node] || offsets[node] === offsets[node + 1]) continue
    if (storeyIndex >= 0 && stateStoreys[node] !== storeyIndex) continue
    const dx = positions[node * 3]! - x
    const dy = positions[node * 3 + 1]! - y
    const dz = storeyIndex >= 0 ? 0 : positions[node * 3 + 2]! - z
    const squared = dx * dx + dy * dy + dz * dz
    if (squared < bestSquared) {
      bestSquared = squared
      best = node
    }
  }
  if (best < 0) return null
  return {
    stateId: graph.stateIds[best]!,
    storey: graph.storeys[stateStoreys[best]!]!.label,
    distance: Math.sqrt(bestSquared),
  }
}

function resolveEndpoint(
  graph: NavigationGraph,
  stateIndex: Map<string, number>,
  endpoint: RouteEndpoint,
  role: 'start' | 'end',
): { node: number; snapped?: SnappedState } {
  if (typeof endpoint === 'string') {
    const node = stateIndex.get(endpoint)
    if (node === undefined) {
      const examples = graph.stateIds.slice(0, 5).join(', ')
      throw new GmlError(
        'gml.unknownState',
        `Unknown ${role} State '${endpoint}': the network has ${graph.stateIds.length} States (e.g. ${examples}).`,
      )
    }
    return { node }
  }
  if (!endpoint || !Array.isArray(endpoint.point)) {
    throw new GmlError('gml.invalidQuery', `The ${role} must be a State id or { point, storey }.`)
  }
  const snapped = nearestState(graph, endpoint.point, endpoint.storey)
  if (!snapped) {
    throw new GmlError(
      'gml.invalidQuery',
      `No connected State to snap the ${role} point to${endpoint.storey === undefined ? '' : ` on storey '${endpoint.storey}'`}.`,
    )
  }
  return { node: stateIndex.get(snapped.stateId)!, snapped }
}

function samePoint(
  coordinates: Float64Array,
  offset: number,
  other: ArrayLike<number>,
  at: number,
) {
  return (
    Math.abs(coordinates[offset]! - other[at]!) < 1e-9 &&
    Math.abs(coordinates[offset + 1]! - other[at + 1]!) < 1e-9 &&
    Math.abs(coordinates[offset + 2]! - other[at + 2]!) < 1e-9
  )
}

/** Concatenates the geometry of each edge along the path, each oriented in travel direction. */
function pathPolyline(graph: NavigationGraph, nodes: Int32Array, arcs: Int32Array): Float64Array {
  const { arcEdges, edgeFrom, edgeGeometryStarts, edgeGeometry, positions } = graph
  if (arcs.length === 0) return positions.slice(nodes[0]! * 3, nodes[0]! * 3 + 3)
  let capacity = 0
  for (const arc of arcs) {
    const edge = arcEdges[arc]!
    capacity += (edgeGeometryStarts[edge + 1]! - edgeGeometryStarts[edge]!) * 3
  }
  const polyline = new Float64Array(capacity)
  let length = 0
  arcs.forEach((arc, step) => {
    const edge = arcEdges[arc]!
    const first = edgeGeometryStarts[edge]!
    const last = edgeGeometryStarts[edge + 1]! - 1
    const isForward = edgeFrom[edge] === nodes[step]
    for (let point = 0; point <= last - first; point++) {
      const source = (isForward ? first + point : last - point) * 3
      // The joint between two Transitions is written twice; keep it once.
      if (point === 0 && length > 0 && samePoint(polyline, length - 3, edgeGeometry, source)) {
        continue
      }
      polyline[length++] = edgeGeometry[source]!
      polyline[length++] = edgeGeometry[source + 1]!
      polyline[length++] = edgeGeometry[source + 2]!
    }
  })
  return polyline.slice(0, length)
}

/**
 * Answers one route query: resolves both ends, searches, and assembles the path, its
 * polyline and its floor changes. Unknown State ids and bad points throw a GmlError.
 */
export function findRoute(
  graph: NavigationGraph,
  stateIndex: Map<string, number>,
  search: ShortestPathSearch,
  from: RouteEndpoint,
  to: RouteEndpoint,
): RouteResult {
  const start = resolveEndpoint(graph, stateIndex, from, 'start')
  const end = resolveEndpoint(graph, stateIndex, to, 'end')
  const snapped: RouteFound['snapped'] = {}
  if (start.snapped) snapped.from = start.snapped
  if (end.snapped) snapped.to = end.snapped
  const outcome = search.search(start.node, end.node)
  if (!outcome.isFound) return { path: null, reason: 'unreachable', snapped }
  const { nodes, arcs } = search.pathTo()
  const path = Array.from(nodes, (node) => graph.stateIds[node]!)
  const storeys = Array.from(nodes, (node) => graph.storeys[graph.stateStoreys[node]!]!.label)
  const floorChanges: FloorChange[] = []
  for (let index = 1; index < nodes.length; index++) {
    if (storeys[index] !== storeys[index - 1]) {
      floorChanges.push({
        index,
        fromStateId: path[index - 1]!,
        toStateId: path[index]!,
        fromStorey: storeys[index - 1]!,
        toStorey: storeys[index]!,
      })
    }
  }
  return {
    path,
    length: outcome.length,
    polyline: pathPolyline(graph, nodes, arcs),
    storeys,
    floorChanges,
    snapped,
  }
}
