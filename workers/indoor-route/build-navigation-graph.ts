import { GmlError } from './gml-errors'
import type { ParsedCell, ParsedIndoorGml, ParsedState, ParseWarning } from './gml-parser'
import {
  assembleGraph,
  type DraftEdge,
  EdgeKind,
  type NavigationGraph,
  polylineLength,
  type StoreyInfo,
  type StoreySource,
} from './navigation-graph'

/** A broken reference the file's own links resolved without ambiguity. */
export interface GmlRepair {
  kind:
    | 'stateConnectsBySuffix'
    | 'transitionEndpointViaDuality'
    | 'transitionEndpointBySuffix'
    | 'transitionEndpointsFromStates'
    | 'interLayerEndpointViaDuality'
    | 'interLayerEndpointBySuffix'
    | 'interLayerConnectionFanOut'
  /** The element whose reference was repaired. */
  elementId: string
  /** The reference as written (without `#`). */
  reference: string
  /** What it now points at. */
  resolvedTo: string
  message: string
}

/** Something that could not be used or repaired; the rest of the file still loads. */
export interface GmlWarning {
  code:
    | ParseWarning['code']
    | 'danglingReference'
    | 'transitionUnresolved'
    | 'transitionWithoutGeometry'
    | 'selfLoop'
    | 'extraEndpoints'
    | 'interLayerConnectionUnresolved'
  elementId: string | undefined
  message: string
}

/** The graph plus what it took to build it. Lists are capped; the totals are exact. */
export interface BuiltNavigationGraph {
  graph: NavigationGraph
  repairs: GmlRepair[]
  repairCount: number
  warnings: GmlWarning[]
  warningCount: number
}

/** At most this many repairs and warnings are kept for reporting; totals are still counted. */
export const MAX_REPORTED_ISSUES = 1000

/** z gap that separates two storeys when the file labels none: well under a storey height. */
export const STOREY_GAP = 1.2

const SEPARATORS = new Set(['_', '-', ':', '.', '/'])

/** `storey="1"`, `storey=1`, `storey: B1` in a gml:description; undefined if absent. */
export function storeyFromDescription(description: string | undefined): string | undefined {
  if (!description) return undefined
  const match = /storey\s*[=:]\s*(?:"([^"]*)"|'([^']*)'|([^\s:;,"']+))/i.exec(description)
  const label = (match?.[1] ?? match?.[2] ?? match?.[3])?.trim()
  return label ? label : undefined
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Looks ids up by their tail after a separator, so `#TCell1-Cell2` finds `SL0_TCell1-Cell2`
 * (an exporter that dropped the layer prefix). Built only when some reference needs it.
 */
class SuffixIndex {
  private readonly bySuffix = new Map<string, string[]>()

  constructor(ids: Iterable<string>) {
    for (const id of ids) {
      for (let index = 1; index < id.length - 1; index++) {
        if (!SEPARATORS.has(id[index]!)) continue
        const suffix = id.slice(index + 1)
        const list = this.bySuffix.get(suffix)
        if (list) {
          if (!list.includes(id)) list.push(id)
        } else this.bySuffix.set(suffix, [id])
      }
    }
  }

  /** The only id ending in `-reference` (or `_reference`, …), or undefined if none or several. */
  unique(reference: string): string | undefined {
    const list = this.bySuffix.get(reference)
    return list?.length === 1 ? list[0] : undefined
  }
}

class IssueLog {
  readonly repairs: GmlRepair[] = []
  readonly warnings: GmlWarning[] = []
  repairCount = 0
  warningCount = 0

  repair(repair: GmlRepair): void {
    this.repairCount++
    if (this.repairs.length < MAX_REPORTED_ISSUES) this.repairs.push(repair)
  }

  warn(warning: GmlWarning): void {
    this.warningCount++
    if (this.warnings.length < MAX_REPORTED_ISSUES) this.warnings.push(warning)
  }
}

function squaredDistanceTo(
  coordinates: ArrayLike<number>,
  offset: number,
  positions: Float64Array,
  node: number,
): number {
  const dx = coordinates[offset]! - positions[node * 3]!
  const dy = coordinates[offset + 1]! - positions[node * 3 + 1]!
  const dz = coordinates[offset + 2]! - positions[node * 3 + 2]!
  return dx * dx + dy * dy + dz * dz
}

/** The LineString as written, or reversed when its start lies at the `to` State. */
function orientedGeometry(
  coordinates: number[],
  positions: Float64Array,
  positionKnown: Uint8Array,
  from: number,
  to: number,
): number[] {
  if (!positionKnown[from] || !positionKnown[to]) return coordinates
  const last = coordinates.length - 3
  const asWritten =
    Math.sqrt(squaredDistanceTo(coordinates, 0, positions, from)) +
    Math.sqrt(squaredDistanceTo(coordinates, last, positions, to))
  const reversed =
    Math.sqrt(squaredDistanceTo(coordinates, 0, positions, to)) +
    Math.sqrt(squaredDistanceTo(coordinates, last, positions, from))
  if (reversed >= asWritten) return coordinates
  const flipped: number[] = new Array(coordinates.length)
  for (let offset = 0; offset <= last; offset += 3) {
    flipped[last - offset] = coordinates[offset]!
    flipped[last - offset + 1] = coordinates[offset + 1]!
    flipped[last - offset + 2] = coordinates[offset + 2]!
  }
  return flipped
}

/**
 * Resolves the references of a parsed IndoorGML document and builds its navigation graph.
 *
 * - Nodes are the States of every SpaceLayer; edges are the Transitions (length = geometric
 *   length of the LineString, never the unreliable `weight`) and the InterLayerConnections
 *   (straight line between the two States).
 * - Edges are undirected, one per State pair; of a directed pair the shorter geometry wins.
 * - A reference that does not resolve is repaired only when the file's own links leave one
 *   reading (duality Cell → State, a unique id suffix, the two States that list a Transition);
 *   each repair is reported. Anything else is reported as a warning and left out.
 *
 * Throws `gml.noNavigationNetwork` when there is nothing to route on.
 */
export function buildNavigationGraph(parsed: ParsedIndoorGml): BuiltNavigationGraph {
  const log = new IssueLog()
  for (const warning of parsed.warnings) log.warn(warning)
  const states = parsed.states
  const nodeCount = states.length
  if (nodeCount === 0) {
    throw new GmlError(
      'gml.noNavigationNetwork',
      `GML has no navigation network: the document (<${parsed.rootElement || '?'}>) has no States, only ${parsed.cells.length} CellSpaces of the primal space. Export it with its dual graph (States and Transitions).`,
    )
  }

  const stateIndex = new Map<string, number>()
  states.forEach((state, index) => {
    stateIndex.set(state.id, index)
  })
  const transitionIndex = new Map<string, number>()
  parsed.transitions.forEach((transition, index) => {
    transitionIndex.set(transition.id, index)
  })
  // Cell → State through duality, from both sides; a cell claimed by two States is ambiguous.
  // Built on the first reference that is not a State id: well-formed files never pay for it.
  let stateOfCell: Map<string, number> | undefined
  const dualStateOfCell = (): Map<string, number> => {
    if (stateOfCell) return stateOfCell
    const found = new Map<string, number>()
    const ambiguousCells = new Set<string>()
    const claim = (cellId: string, node: number) => {
      const known = found.get(cellId)
      if (known === undefined) found.set(cellId, node)
      else if (known !== node) ambiguousCells.add(cellId)
    }
    states.forEach((state, node) => {
      if (state.dualityRef !== undefined) claim(state.dualityRef, node)
    })
    for (const cell of parsed.cells) {
      const node = cell.dualityRef === undefined ? undefined : stateIndex.get(cell.dualityRef)
      if (node !== undefined) claim(cell.id, node)
    }
    for (const cellId of ambiguousCells) found.delete(cellId)
    stateOfCell = found
    return found
  }

  let stateSuffixes: SuffixIndex | undefined
  let transitionSuffixes: SuffixIndex | undefined

  /** A reference that should name a State: by id, through a Cell's duality, or a unique suffix. */
  const resolveState = (
    reference: string,
    owner: string,
    role: 'transition' | 'interLayer',
  ): number | undefined => {
    const direct = stateIndex.get(reference)
    if (direct !== undefined) return direct
    const viaCell = dualStateOfCell().get(reference)
    if (viaCell !== undefined) {
      log.repair({
        kind:
          role === 'transition' ? 'transitionEndpointViaDuality' : 'interLayerEndpointViaDuality',
        elementId: owner,
        reference,
        resolvedTo: states[viaCell]!.id,
        message: `'${owner}' connects CellSpace '${reference}'; its dual State '${states[viaCell]!.id}' is used.`,
      })
      return viaCell
    }
    stateSuffixes ??= new SuffixIndex(stateIndex.keys())
    const bySuffix = stateSuffixes.unique(reference)
    if (bySuffix !== undefined) {
      log.repair({
        kind: role === 'transition' ? 'transitionEndpointBySuffix' : 'interLayerEndpointBySuffix',
        elementId: owner,
        reference,
        resolvedTo: bySuffix,
        message: `'${owner}' connects '${reference}', which does not exist; the only State ending in it, '${bySuffix}', is used.`,
      })
      return stateIndex.get(bySuffix)
    }
    return undefined
  }

  // 1. Transition endpoints from their own `connects`.
  const transitionCount = parsed.transitions.length
  const endpointA = new Int32Array(transitionCount).fill(-1)
  const endpointB = new Int32Array(transitionCount).fill(-1)
  parsed.transitions.forEach((transition, index) => {
    const resolved: number[] = []
    for (const reference of transition.connectsRefs) {
      const node = resolveState(reference, transition.id, 'transition')
      if (node === undefined) {
        log.warn({
          code: 'danglingReference',
          elementId: transition.id,
          message: `Transition '${transition.id}' connects '${reference}', which is neither a State nor a CellSpace with a State.`,
        })
      } else if (!resolved.includes(node)) resolved.push(node)
    }
    if (resolved.length > 2) {
      log.warn({
        code: 'extraEndpoints',
        elementId: transition.id,
        message: `Transition '${transition.id}' connects ${resolved.length} States; the first two are used.`,
      })
    }
    endpointA[index] = resolved[0] ?? -1
    endpointB[index] = resolved[1] ?? -1
  })

  // 2. State `connects` → Transitions, repaired by unique suffix when the id is off. Who lists
  // a Transition matters only for Transitions still missing an end (step 3).
  const listedBy = new Map<number, number[]>()
  states.forEach((state, node) => {
    for (const reference of state.connectsRefs) {
      let transition = transitionIndex.get(reference)
      if (transition === undefined) {
        transitionSuffixes ??= new SuffixIndex(transitionIndex.keys())
        const candidate = transitionSuffixes.unique(reference)
        const candidateIndex = candidate === undefined ? undefined : transitionIndex.get(candidate)
        if (candidateIndex !== undefined && endpointsAdmit(candidateIndex, node)) {
          transition = candidateIndex
          log.repair({
            kind: 'stateConnectsBySuffix',
            elementId: state.id,
            reference,
            resolvedTo: candidate!,
            message: `State '${state.id}' connects '${reference}', which does not exist; the only Transition ending in it, '${candidate}', links this State and is used.`,
          })
        } else {
          log.warn({
            code: 'danglingReference',
            elementId: state.id,
            message: `State '${state.id}' connects '${reference}', which is not a Transition of this file.`,
          })
          continue
        }
      }
      if (endpointA[transition] !== -1 && endpointB[transition] !== -1) continue
      const list = listedBy.get(transition)
      if (list) {
        if (!list.includes(node)) list.push(node)
      } else listedBy.set(transition, [node])
    }
  })

  function endpointsAdmit(transition: number, node: number): boolean {
    const a = endpointA[transition]!
    const b = endpointB[transition]!
    if (a === node || b === node) return true
    return a === -1 || b === -1
  }

  // 3. Transitions still short of two ends take them from the States that list them.
  parsed.transitions.forEach((transition, index) => {
    if (endpointA[index] !== -1 && endpointB[index] !== -1) return
    const ends = new Set<number>()
    if (endpointA[index] !== -1) ends.add(endpointA[index]!)
    for (const node of listedBy.get(index) ?? []) ends.add(node)
    if (ends.size === 2) {
      const [a, b] = [...ends] as [number, number]
      endpointA[index] = a
      endpointB[index] = b
      log.repair({
        kind: 'transitionEndpointsFromStates',
        elementId: transition.id,
        reference: transition.connectsRefs.join(' '),
        resolvedTo: `${states[a]!.id} ${states[b]!.id}`,
        message: `Transition '${transition.id}' lacks usable ends; the two States that list it, '${states[a]!.id}' and '${states[b]!.id}', are used.`,
      })
    } else {
      log.warn({
        code: 'transitionUnresolved',
        elementId: transition.id,
        message: `Transition '${transition.id}' does not connect two known States and is left out.`,
      })
      endpointA[index] = -1
      endpointB[index] = -1
    }
  })

  // Positions: from the State's Point, else from the end of a Transition touching it.
  const positions = new Float64Array(nodeCount * 3)
  const positionKnown = new Uint8Array(nodeCount)
  let missingPositions = 0
  states.forEach((state, node) => {
    const position = state.position
    if (position) {
      positions[node * 3] = position[0]
      positions[node * 3 + 1] = position[1]
      positions[node * 3 + 2] = position[2]
      positionKnown[node] = 1
    } else missingPositions++
  })
  if (missingPositions > 0) {
    parsed.transitions.forEach((transition, index) => {
      const a = endpointA[index]!
      const b = endpointB[index]!
      if (a < 0 || transition.coordinates.length < 6) return
      if (!positionKnown[a]) positionFromTransitionEnd(transition.coordinates, a, b, true)
      if (!positionKnown[b]) positionFromTransitionEnd(transition.coordinates, b, a, false)
    })
  }

  /**
   * Takes the Transition end farther from the other State; when that State has no position
   * either, the end in `connects` order (first end for the first State).
   */
  function positionFromTransitionEnd(
    coordinates: number[],
    node: number,
    other: number,
    isFirstEnd: boolean,
  ): void {
    const last = coordinates.length - 3
    let offset = isFirstEnd ? 0 : last
    if (positionKnown[other]) {
      const start = squaredDistanceTo(coordinates, 0, positions, other)
      const end = squaredDistanceTo(coordinates, last, positions, other)
      offset = start <= end ? last : 0
    }
    positions[node * 3] = coordinates[offset]!
    positions[node * 3 + 1] = coordinates[offset + 1]!
    positions[node * 3 + 2] = coordinates[offset + 2]!
    positionKnown[node] = 1
  }

  // Edges, one per State pair, the shortest geometry kept.
  const edges: DraftEdge[] = []
  const edgeOfPair = new Map<number, number>()
  const addEdge = (edge: DraftEdge) => {
    const low = Math.min(edge.from, edge.to)
    const high = Math.max(edge.from, edge.to)
    const key = low * nodeCount + high
    const known = edgeOfPair.get(key)
    if (known === undefined) {
      edgeOfPair.set(key, edges.length)
      edges.push(edge)
    } else if (edge.length < edges[known]!.length) {
      edges[known] = edge
    }
  }
  const straightGeometry = (a: number, b: number) => [
    positions[a * 3]!,
    positions[a * 3 + 1]!,
    positions[a * 3 + 2]!,
    positions[b * 3]!,
    positions[b * 3 + 1]!,
    positions[b * 3 + 2]!,
  ]

  parsed.transitions.forEach((transition, index) => {
    const from = endpointA[index]!
    const to = endpointB[index]!
    if (from < 0 || to < 0) return
    if (from === to) {
      log.warn({
        code: 'selfLoop',
        elementId: transition.id,
        message: `Transition '${transition.id}' connects State '${states[from]!.id}' to itself and is left out.`,
      })
      return
    }
    let geometry: number[]
    if (transition.coordinates.length >= 6) {
      geometry = orientedGeometry(transition.coordinates, positions, positionKnown, from, to)
    } else {
      geometry = straightGeometry(from, to)
      log.warn({
        code: 'transitionWithoutGeometry',
        elementId: transition.id,
        message: `Transition '${transition.id}' has no LineString; the straight line between its States is used.`,
      })
    }
    addEdge({
      from,
      to,
      length: polylineLength(geometry),
      kind: EdgeKind.transition,
      sourceId: transition.id,
      geometry,
    })
  })

  const layerIds = parsed.layers.map((layer) => layer.id)
  const layerIndex = new Map(layerIds.map((id, index) => [id, index]))
  const stateLayers = new Int32Array(nodeCount)
  states.forEach((state, node) => {
    stateLayers[node] = state.layerId === undefined ? -1 : (layerIndex.get(state.layerId) ?? -1)
  })

  for (const connection of parsed.interLayerConnections) {
    const nodes: number[] = []
    for (const reference of connection.interConnectsRefs) {
      const node = resolveState(reference, connection.id, 'interLayer')
      if (node === undefined) {
        log.warn({
          code: 'interLayerConnectionUnresolved',
          elementId: connection.id,
          message: `InterLayerConnection '${connection.id}' names '${reference}', which is not a State.`,
        })
      } else if (!nodes.includes(node)) nodes.push(node)
    }
    const pairs: [number, number][] = []
    if (nodes.length === 2) pairs.push([nodes[0]!, nodes[1]!])
    else if (nodes.length > 2) {
      // The schema allows two; with more, only pairs across layers keep the inter-layer meaning.
      for (let i = 0; i < nodes.length; i++) {
        for (let j = i + 1; j < nodes.length; j++) {
          if (stateLayers[nodes[i]!] !== stateLayers[nodes[j]!]) pairs.push([nodes[i]!, nodes[j]!])
        }
      }
      log.repair({
        kind: 'interLayerConnectionFanOut',
        elementId: connection.id,
        reference: connection.interConnectsRefs.join(' '),
        resolvedTo: pairs.map(([a, b]) => `${states[a]!.id}-${states[b]!.id}`).join(' '),
        message: `InterLayerConnection '${connection.id}' names ${nodes.length} States; each pair across layers is connected.`,
      })
    }
    for (const [from, to] of pairs) {
      if (!positionKnown[from] || !positionKnown[to]) continue
      const geometry = straightGeometry(from, to)
      addEdge({
        from,
        to,
        length: polylineLength(geometry),
        kind: EdgeKind.interLayer,
        sourceId: connection.id,
        geometry,
      })
    }
  }

  if (edges.length === 0) {
    throw new GmlError(
      'gml.noNavigationNetwork',
      `GML has no navigation network: its ${nodeCount} States are not connected by any usable Transition (${transitionCount} Transitions read).`,
    )
  }

  const { storeyOf, storeyInfos } = assignStoreys(states, parsed.cells, positions, positionKnown)
  const graph = assembleGraph(
    {
      ids: states.map((state) => state.id),
      names: states.map((state) => state.name),
      cells: states.map((state) => state.dualityRef),
      layers: stateLayers,
      layerIds,
      storeys: storeyOf,
      storeyInfos,
      positions,
      positionKnown,
    },
    edges,
    { transitionCount, interLayerConnectionCount: parsed.interLayerConnections.length },
  )
  return {
    graph,
    repairs: log.repairs,
    repairCount: log.repairCount,
    warnings: log.warnings,
    warningCount: log.warningCount,
  }
}

/**
 * Storey of every State: the file's label (State description, then its CellSpace), else the
 * z level. States without a label join the labelled storey nearest in elevation; with no
 * labels at all, z values are clustered bottom-up, a new storey at each gap over STOREY_GAP.
 */
function assignStoreys(
  states: ParsedState[],
  cells: ParsedCell[],
  positions: Float64Array,
  positionKnown: Uint8Array,
): { storeyOf: Int32Array; storeyInfos: StoreyInfo[] } {
  const nodeCount = states.length
  const labels: (string | undefined)[] = new Array(nodeCount)
  const sources: (StoreySource | undefined)[] = new Array(nodeCount)
  let cellsById: Map<string, ParsedCell> | undefined
  states.forEach((state, node) => {
    const fromState = storeyFromDescription(state.description)
    if (fromState !== undefined) {
      labels[node] = fromState
      sources[node] = 'description'
      return
    }
    if (state.dualityRef === undefined) return
    cellsById ??= new Map(cells.map((cell) => [cell.id, cell]))
    const cell = cellsById.get(state.dualityRef)
    const fromCell = cell?.storey?.trim() || storeyFromDescription(cell?.description)
    if (fromCell) {
      labels[node] = fromCell
      sources[node] = 'cell'
    }
  })

  const storeyOf = new Int32Array(nodeCount)
  const hasLabels = labels.some((label) => label !== undefined)
  const zOf = (node: number) => positions[node * 3 + 2]!

  if (hasLabels) {
    const byLabel = new Map<string, { zs: number[]; source: StoreySource }>()
    labels.forEach((label, node) => {
      if (label === undefined) return
      let entry = byLabel.get(label)
      if (!entry) {
        entry = { zs: [], source: sources[node]! }
        byLabel.set(label, entry)
      }
      if (positionKnown[node]) entry.zs.push(zOf(node))
    })
    const infos: StoreyInfo[] = [...byLabel].map(([label, entry]) => ({
      label,
      elevation: median(entry.zs),
      stateCount: 0,
      source: entry.source,
    }))
    infos.sort((a, b) => {
      const byElevation = (a.elevation || 0) - (b.elevation || 0)
      if (Number.isNaN(a.elevation) !== Number.isNaN(b.elevation)) {
        return Number.isNaN(a.elevation) ? 1 : -1
      }
      return byElevation !== 0 ? byElevation : a.label.localeCompare(b.label, 'en')
    })
    const indexOfLabel = new Map(infos.map((info, index) => [info.label, index]))
    for (let node = 0; node < nodeCount; node++) {
      const label = labels[node]
      let storey = label === undefined ? -1 : indexOfLabel.get(label)!
      if (storey < 0) {
        storey = 0
        if (positionKnown[node]) {
          let best = Number.POSITIVE_INFINITY
          infos.forEach((info, index) => {
            const gap = Math.abs(info.elevation - zOf(node))
            if (gap < best) {
              best = gap
              storey = index
            }
          })
        }
      }
      storeyOf[node] = storey
      infos[storey]!.stateCount++
    }
    return { storeyOf, storeyInfos: infos }
  }

  const positioned: number[] = []
  for (let node = 0; node < nodeCount; node++) if (positionKnown[node]) positioned.push(node)
  positioned.sort((a, b) => zOf(a) - zOf(b))
  const infos: StoreyInfo[] = []
  let clusterZs: number[] = []
  const closeCluster = () => {
    if (clusterZs.length === 0) return
    infos.push({
      label: String(infos.length + 1),
      elevation: median(clusterZs),
      stateCount: clusterZs.length,
      source: 'elevation',
    })
    clusterZs = []
  }
  let previousZ = Number.NaN
  for (const node of positioned) {
    const z = zOf(node)
    if (clusterZs.length > 0 && z - previousZ > STOREY_GAP) closeCluster()
    clusterZs.push(z)
    storeyOf[node] = infos.length
    previousZ = z
  }
  closeCluster()
  if (infos.length === 0) {
    infos.push({ label: '1', elevation: Number.NaN, stateCount: 0, source: 'elevation' })
  }
  for (let node = 0; node < nodeCount; node++) {
    if (!positionKnown[node]) {
      storeyOf[node] = 0
      infos[0]!.stateCount++
    }
  }
  return { storeyOf, storeyInfos: infos }
}
