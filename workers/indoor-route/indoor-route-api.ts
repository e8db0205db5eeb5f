import * as Comlink from 'comlink'
import { buildNavigationGraph, type GmlRepair, type GmlWarning } from './build-navigation-graph'
import { GmlError } from './gml-errors'
import { type GmlParseProgress, parseIndoorGmlStream } from './gml-parser'
import { createLatestWinsGate, type Stale, yieldToQueuedMessages } from '../protocol/latest-wins'
import { type GraphInfo, graphInfo, type NavigationGraph } from './navigation-graph'
import {
  findRoute,
  type GmlPoint,
  indexStates,
  nearestState,
  type RouteEndpoint,
  type RouteResult,
  type SnappedState,
} from './route'
import { ShortestPathSearch } from './shortest-path'

/** What loading a file reports: the network's counts and every repair and problem. */
export interface GmlLoadReport {
  info: GraphInfo
  /** Repairs of broken references, at most MAX_REPORTED_ISSUES of them. */
  repairs: GmlRepair[]
  repairCount: number
  /** Parts left out (dangling references, unusable Transitions), capped like repairs. */
  warnings: GmlWarning[]
  warningCount: number
  sizeRead: number
  parseDurationMs: number
  buildDurationMs: number
}

/** An interactive route answer: found, unreachable, or replaced by a newer interactive query. */
export type RouteAnswer = RouteResult | Stale

/**
 * What the engine needs to draw the loaded network and label its States: per-State arrays and
 * the edge geometry, copies of the worker's own (structured clone keeps the worker's intact).
 */
export type NetworkSnapshot = Pick<
  NavigationGraph,
  | 'stateIds'
  | 'stateNames'
  | 'stateCells'
  | 'stateStoreys'
  | 'storeys'
  | 'layerIds'
  | 'stateLayers'
  | 'positions'
  | 'edgeFrom'
  | 'edgeTo'
  | 'edgeKinds'
  | 'edgeLengths'
  | 'edgeSourceIds'
  | 'edgeGeometryStarts'
  | 'edgeGeometry'
>

/**
 * One State as a searchable State list shows it. Positions are in file coordinates; the engine
 * maps them into the scene with the placement the user chose.
 */
export interface StateListEntry {
  stateId: string
  /** The State's name in the file, or null when it has none. */
  name: string | null
  /** Label of the State's storey, as in `info().storeyLabels`. */
  storey: string
  /** x, y, z in file units, or null when neither a Point nor a Transition end placed it. */
  position: [number, number, number] | null
}

/** Progress is posted at most this often, so a fast parse does not flood the main thread. */
const PROGRESS_INTERVAL_MS = 10
/** Slices the input so the worker reads messages (dispose) and reports progress while parsing. */
const LOAD_SLICE_SIZE = 1024 * 1024

interface LoadedNetwork {
  graph: NavigationGraph
  stateIndex: Map<string, number>
  search: ShortestPathSearch
}

async function* slicesOf(
  source: string | Uint8Array,
  signal: AbortSignal,
): AsyncGenerator<string | Uint8Array> {
  const size = typeof source === 'string' ? source.length : source.byteLength
  for (let start = 0; start < size; start += LOAD_SLICE_SIZE) {
    if (start > 0) await yieldToQueuedMessages()
    if (signal.aborted) throw new GmlError('gml.aborted', 'Loading the GML file was cancelled.')
    yield typeof source === 'string'
      ? source.slice(start, start + LOAD_SLICE_SIZE)
      : source.subarray(start, start + LOAD_SLICE_SIZE)
  }
}

function throttled(
  onProgress: ((progress: GmlParseProgress) => void) | undefined,
): ((progress: GmlParseProgress) => void) | undefined {
  if (!onProgress) return undefined
  let lastPostedAt = Number.NEGATIVE_INFINITY
  return (progress) => {
    const now = performance.now()
    const isLast = progress.total !== undefined && progress.read >= progress.total
    if (!isLast && now - lastPostedAt < PROGRESS_INTERVAL_MS) return
    lastPostedAt = now
    // Through comlink this is a remote call returning a promise; a closed page must not throw.
    const posted = onProgress(progress) as unknown
    if (posted instanceof Promise) posted.catch(() => {})
  }
}

/**
 * The stateful IndoorGML routing service: one loaded network, a reusable search, and the
 * "latest request wins" gate for interactive queries. The worker exposes exactly this object;
 * tests and the Node benchmarks use it directly.
 */
export function createIndoorRouteApi() {
  let network: LoadedNetwork | undefined
  let loading: AbortController | undefined
  const interactive = createLatestWinsGate()

  const loaded = (): LoadedNetwork => {
    if (!network) throw new GmlError('gml.notLoaded', 'No GML file is loaded; load one first.')
    return network
  }

  const routeNow = (from: RouteEndpoint, to: RouteEndpoint): RouteResult => {
    const { graph, stateIndex, search } = loaded()
    const result = findRoute(graph, stateIndex, search, from, to)
    // Over a worker the polyline is transferred, not copied (in-process this is a no-op).
    return 'polyline' in result ? Comlink.transfer(result, [result.polyline.buffer]) : result
  }

  return {
    /**
     * Parses an IndoorGML document (text, or bytes as an ArrayBuffer) and makes it the current
     * network. A failed load keeps the previous network. Progress is throttled to ~10 ms.
     */
    async load(
      source: string | ArrayBuffer | Uint8Array,
      onProgress?: (progress: GmlParseProgress) => void,
    ): Promise<GmlLoadReport> {
      loading?.abort()
      const controller = new AbortController()
      loading = controller
      try {
        const input = source instanceof ArrayBuffer ? new Uint8Array(source) : source
        const parseStartedAt = performance.now()
        const parsed = await parseIndoorGmlStream(slicesOf(input, controller.signal), {
          totalSize: typeof input === 'string' ? input.length : input.byteLength,
          signal: controller.signal,
          onProgress: throttled(onProgress),
        })
        const buildStartedAt = performance.now()
        const built = buildNavigationGraph(parsed)
        const builtAt = performance.now()
        network = {
          graph: built.graph,
          stateIndex: indexStates(built.graph),
          search: new ShortestPathSearch(built.graph),
        }
        return {
          info: graphInfo(built.graph),
          repairs: built.repairs,
          repairCount: built.repairCount,
          warnings: built.warnings,
          warningCount: built.warningCount,
          sizeRead: parsed.sizeRead,
          parseDurationMs: buildStartedAt - parseStartedAt,
          buildDurationMs: builtAt - buildStartedAt,
        }
      } finally {
        if (loading === controller) loading = undefined
      }
    },

    /**
     * Shortest route between two State ids or snapped points. Unreachable answers
     * `{ path: null, reason: 'unreachable' }`; an unknown id throws `gml.unknownState`.
     */
    async route(from: RouteEndpoint, to: RouteEndpoint): Promise<RouteResult> {
      return routeNow(from, to)
    },

    /**
     * Like `route`, for interactive queries (dragging a route end): answered only if no newer
     * interactive query is already waiting, else `'stale'` (protocol/latest-wins.ts) unsearched.
     */
    routeInteractive(from: RouteEndpoint, to: RouteEndpoint): Promise<RouteAnswer> {
      return interactive(() => routeNow(from, to))
    },

    /** The connected State nearest a point, optionally only on one storey. */
    nearestState(point: GmlPoint, storey?: string): SnappedState | null {
      return nearestState(loaded().graph, point, storey)
    },

    /**
     * Every State of the loaded network in file order, as plain objects: the main thread gets a
     * list it can show and search without holding or re-parsing the file.
     */
    listStates(): StateListEntry[] {
      const { stateIds, stateNames, stateStoreys, storeys, positions, positionKnown } =
        loaded().graph
      return stateIds.map((stateId, node) => ({
        stateId,
        name: stateNames[node] ?? null,
        storey: storeys[stateStoreys[node]!]?.label ?? '',
        position: positionKnown[node]
          ? [positions[node * 3]!, positions[node * 3 + 1]!, positions[node * 3 + 2]!]
          : null,
      }))
    },

    /** The loaded network's States and edge geometry, for drawing it. */
    network(): NetworkSnapshot {
      const graph = loaded().graph
      return {
        stateIds: graph.stateIds,
        stateNames: graph.stateNames,
        stateCells: graph.stateCells,
        stateStoreys: graph.stateStoreys,
        storeys: graph.storeys,
        layerIds: graph.layerIds,
        stateLayers: graph.stateLayers,
        positions: graph.positions,
        edgeFrom: graph.edgeFrom,
        edgeTo: graph.edgeTo,
        edgeKinds: graph.edgeKinds,
        edgeLengths: graph.edgeLengths,
        edgeSourceIds: graph.edgeSourceIds,
        edgeGeometryStarts: graph.edgeGeometryStarts,
        edgeGeometry: graph.edgeGeometry,
      }
    },

    /** Counts of the loaded network. */
    info(): GraphInfo {
      return graphInfo(loaded().graph)
    },

    /** Cancels a load in progress and frees the network. */
    dispose(): void {
      loading?.abort()
      loading = undefined
      network = undefined
    },
  }
}

/** The routing service's interface, as the worker exposes it. */
export type IndoorRouteApi = ReturnType<typeof createIndoorRouteApi>
