/**
 * The navigation network of one IndoorGML file in flat typed arrays: CSR adjacency for the
 * search, one geometry buffer for the polylines. Everything is structured-clone data, so a
 * graph can cross a worker boundary, and nothing here allocates per query.
 */

/** Where a storey label came from. */
export type StoreySource = 'description' | 'cell' | 'elevation'

/** One storey (floor) of the network, ordered bottom-up in `NavigationGraph.storeys`. */
export interface StoreyInfo {
  /** The file's own label (`storey="2"`), or "1", "2", … bottom-up when derived from z. */
  label: string
  /** Median z of its States, in file units (NaN when none of them has a position). */
  elevation: number
  stateCount: number
  source: StoreySource
}

/** How an edge came to be. */
export const EdgeKind = { transition: 0, interLayer: 1 } as const
/** The numeric edge kind stored in `NavigationGraph.edgeKinds`. */
export type EdgeKind = (typeof EdgeKind)[keyof typeof EdgeKind]

/** The whole network. Node index = position in `stateIds`; arcs are the CSR half-edges. */
export interface NavigationGraph {
  stateIds: string[]
  stateNames: (string | undefined)[]
  /** The CellSpace each State is the dual of, as resolved. */
  stateCells: (string | undefined)[]
  /** Index into `layerIds`, or -1 for a State outside any SpaceLayer. */
  stateLayers: Int32Array
  layerIds: string[]
  /** Index into `storeys`. */
  stateStoreys: Int32Array
  storeys: StoreyInfo[]
  /** x, y, z per State, file units. */
  positions: Float64Array
  /** 1 when the position is known (from a Point or a Transition end), 0 otherwise. */
  positionKnown: Uint8Array
  /** CSR: arcs of node n are `offsets[n] .. offsets[n + 1] - 1`. */
  offsets: Int32Array
  arcTargets: Int32Array
  arcWeights: Float64Array
  /** The undirected edge each arc belongs to. */
  arcEdges: Int32Array
  /** Edge geometry runs from `edgeFrom` to `edgeTo`. */
  edgeFrom: Int32Array
  edgeTo: Int32Array
  /** Geometric length of each edge, file units. */
  edgeLengths: Float64Array
  edgeKinds: Uint8Array
  /** The Transition (or InterLayerConnection) id each edge was built from. */
  edgeSourceIds: string[]
  /** Points of edge e are `edgeGeometryStarts[e] .. edgeGeometryStarts[e + 1] - 1`. */
  edgeGeometryStarts: Int32Array
  /** x, y, z per geometry point. */
  edgeGeometry: Float64Array
  /** Connected component of each State; unreachable queries stop here in O(1). */
  componentOf: Int32Array
  componentSizes: Int32Array
  /**
   * Largest k with edge length ≥ k · straight-line distance on every edge, capped at 1. The
   * A* heuristic k · distance is then consistent even when a file's geometry is shorter than
   * the gap between its States.
   */
  heuristicScale: number
  /** Transition elements read, before merging duplicates (directed pairs). */
  transitionCount: number
  interLayerConnectionCount: number
}

/** An edge before CSR assembly. */
export interface DraftEdge {
  from: number
  to: number
  length: number
  kind: EdgeKind
  sourceId: string
  /** Flat xyz, oriented from `from` to `to`; at least two points. */
  geometry: ArrayLike<number>
}

/** The per-State arrays a graph is assembled from. */
export interface DraftStates {
  ids: string[]
  names: (string | undefined)[]
  cells: (string | undefined)[]
  layers: Int32Array
  layerIds: string[]
  storeys: Int32Array
  storeyInfos: StoreyInfo[]
  positions: Float64Array
  positionKnown: Uint8Array
}

/** Straight-line distance between two States. */
export function stateDistance(positions: Float64Array, a: number, b: number): number {
  const dx = positions[a * 3]! - positions[b * 3]!
  const dy = positions[a * 3 + 1]! - positions[b * 3 + 1]!
  const dz = positions[a * 3 + 2]! - positions[b * 3 + 2]!
  return Math.sqrt(dx * dx + dy * dy + dz * dz)
}

/** Length of a flat xyz polyline. */
export function polylineLength(coordinates: ArrayLike<number>): number {
  let length = 0
  for (let index = 3; index + 2 < coordinates.length; index += 3) {
    const dx = coordinates[index]! - coordinates[index - 3]!
    const dy = coordinates[index + 1]! - coordinates[index - 2]!
    const dz = coordinates[index + 2]! - coordinates[index - 1]!
    length += Math.sqrt(dx * dx + dy * dy + dz * dz)
  }
  return length
}

function labelComponents(
  nodeCount: number,
  offsets: Int32Array,
  arcTargets: Int32Array,
): { componentOf: Int32Array; componentSizes: Int32Array } {
  const componentOf = new Int32Array(nodeCount).fill(-1)
  const queue = new Int32Array(nodeCount)
  const sizes: number[] = []
  for (let seed = 0; seed < nodeCount; seed++) {
    if (componentOf[seed] !== -1) continue
    const component = sizes.length
    let head = 0
    let tail = 0
    queue[tail++] = seed
    componentOf[seed] = component
    while (head < tail) {
      const node = queue[head++]!
      for (let arc = offsets[node]!; arc < offsets[node + 1]!; arc++) {
        const next = arcTargets[arc]!
        if (componentOf[next] === -1) {
          componentOf[next] = component
          queue[tail++] = next
        }
      }
    }
    sizes.push(tail)
  }
  return { componentOf, componentSizes: Int32Array.from(sizes) }
}

/** Builds the CSR arrays, components and heuristic scale from States and merged edges. */
export function assembleGraph(
  states: DraftStates,
  edges: readonly DraftEdge[],
  counts: { transitionCount: number; interLayerConnectionCount: number },
): NavigationGraph {
  const nodeCount = states.ids.length
  const edgeCount = edges.length
  const offsets = new Int32Array(nodeCount + 1)
  for (const edge of edges) {
    offsets[edge.from + 1]!++
    offsets[edge.to + 1]!++
  }
  for (let node = 0; node < nodeCount; node++) offsets[node + 1]! += offsets[node]!
  const fill = offsets.slice(0, nodeCount)
  const arcTargets = new Int32Array(edgeCount * 2)
  const arcWeights = new Float64Array(edgeCount * 2)
  const arcEdges = new Int32Array(edgeCount * 2)
  const edgeFrom = new Int32Array(edgeCount)
  const edgeTo = new Int32Array(edgeCount)
  const edgeLengths = new Float64Array(edgeCount)
  const edgeKinds = new Uint8Array(edgeCount)
  const edgeSourceIds: string[] = new Array(edgeCount)
  const edgeGeometryStarts = new Int32Array(edgeCount + 1)
  let pointCount = 0
  for (const edge of edges) pointCount += edge.geometry.length / 3
  const edgeGeometry = new Float64Array(pointCount * 3)

  let heuristicScale = 1
  let pointCursor = 0
  for (let edgeIndex = 0; edgeIndex < edgeCount; edgeIndex++) {
    const edge = edges[edgeIndex]!
    const forward = fill[edge.from]!++
    arcTargets[forward] = edge.to
    arcWeights[forward] = edge.length
    arcEdges[forward] = edgeIndex
    const backward = fill[edge.to]!++
    arcTargets[backward] = edge.from
    arcWeights[backward] = edge.length
    arcEdges[backward] = edgeIndex
    edgeFrom[edgeIndex] = edge.from
    edgeTo[edgeIndex] = edge.to
    edgeLengths[edgeIndex] = edge.length
    edgeKinds[edgeIndex] = edge.kind
    edgeSourceIds[edgeIndex] = edge.sourceId
    edgeGeometryStarts[edgeIndex] = pointCursor
    const geometry = edge.geometry
    const geometryOffset = pointCursor * 3
    for (let index = 0; index < geometry.length; index++) {
      edgeGeometry[geometryOffset + index] = geometry[index]!
    }
    pointCursor += geometry.length / 3
    if (states.positionKnown[edge.from] && states.positionKnown[edge.to]) {
      const straight = stateDistance(states.positions, edge.from, edge.to)
      if (straight > 1e-12) heuristicScale = Math.min(heuristicScale, edge.length / straight)
    }
  }
  edgeGeometryStarts[edgeCount] = pointCursor
  const { componentOf, componentSizes } = labelComponents(nodeCount, offsets, arcTargets)
  return {
    stateIds: states.ids,
    stateNames: states.names,
    stateCells: states.cells,
    stateLayers: states.layers,
    layerIds: states.layerIds,
    stateStoreys: states.storeys,
    storeys: states.storeyInfos,
    positions: states.positions,
    positionKnown: states.positionKnown,
    offsets,
    arcTargets,
    arcWeights,
    arcEdges,
    edgeFrom,
    edgeTo,
    edgeLengths,
    edgeKinds,
    edgeSourceIds,
    edgeGeometryStarts,
    edgeGeometry,
    componentOf,
    componentSizes,
    heuristicScale: Math.max(0, heuristicScale),
    transitionCount: counts.transitionCount,
    interLayerConnectionCount: counts.interLayerConnectionCount,
  }
}

/** Counts a user (and `npm run gml:info`) wants to see about a loaded network. */
export interface GraphInfo {
  states: number
  /** Transition elements in the file (a directed pair counts twice). */
  transitions: number
  /** Undirected edges after merging pairs, including inter-layer ones. */
  edges: number
  layers: number
  storeys: number
  components: number
  largestComponent: number
  /** States with no edge at all. */
  isolatedStates: number
  interLayerConnections: number
  storeyLabels: string[]
  layerIds: string[]
}

/** Summarises a graph. */
export function graphInfo(graph: NavigationGraph): GraphInfo {
  let isolatedStates = 0
  for (let node = 0; node < graph.stateIds.length; node++) {
    if (graph.offsets[node] === graph.offsets[node + 1]) isolatedStates++
  }
  let largestComponent = 0
  for (const size of graph.componentSizes) largestComponent = Math.max(largestComponent, size)
  return {
    states: graph.stateIds.length,
    transitions: graph.transitionCount,
    edges: graph.edgeFrom.length,
    layers: graph.layerIds.length,
    storeys: graph.storeys.length,
    components: graph.componentSizes.length,
    largestComponent,
    isolatedStates,
    interLayerConnections: graph.interLayerConnectionCount,
    storeyLabels: graph.storeys.map((storey) => storey.label),
    layerIds: graph.layerIds,
  }
}
