import * as Comlink from 'comlink'
import type { Box3, Group, Vector2 } from 'three'
import type { GmlParseProgress } from '../../workers/indoor-route/gml-parser'
import type { NetworkSnapshot } from '../../workers/indoor-route/indoor-route-api'
import type { RouteResult } from '../../workers/indoor-route/route'
import type { IndoorRouteWorkerApi } from '../../workers/indoor-route/indoor-route.worker'
import type { RouteEndpoint } from '../../workers/indoor-route/route'
import type { GmlLoadResult, GmlRouteAnswer, GmlRouteEndpoint } from '../api/building-commands'
import type {
  GmlDisplayMode,
  GmlPlacement,
  GmlRoute,
  GmlSnappedState,
  GmlState,
  GmlStateEntry,
  Vector3Tuple,
} from '../api/building-snapshot'
import { createInitialGmlState, defaultGmlRouteColor } from '../api/building-snapshot'
import type { StyleColor } from '../api/style-commands'
import { EngineError } from '../api/errors'
import type { EngineContext } from '../core/engine-context'
import {
  createWorkerClient,
  type WorkerClient,
  type WorkerEndpoint,
} from '../workers/create-worker-client'
import { DownloadError, fetchWithProgress } from './fetch-with-progress'
import { GmlLayer } from './gml-layer'
import { fitPlacement, networkToScene, sceneToNetwork } from './gml-placement'

/** The message every GML load failure shows (SPEC §5). */
export const GML_LOAD_FAILED_MESSAGE = 'Failed to load GML file.'

/** Source of `GmlState.networkRevision`: shared by every scene, so a value is never reused. */
let lastNetworkRevision = 0

/** What the GML part of a building scene needs from the scene around it. */
export interface GmlControllerDependencies {
  context: EngineContext
  createIndoorRouteWorker: () => WorkerEndpoint
  /** The scene's group the network is drawn in. */
  parent: Group
  /** Fires when the scene is disposed: a running load stops. */
  signal: AbortSignal
  /** The box of the building's models now (empty when none is loaded), for the first placement. */
  modelBounds(): Box3
  /** Something changed: render and publish. */
  onChange(): void
  /** A network was drawn for the first time: the view may frame it. */
  onNetworkShown(): void
}

interface LoadedGml {
  client: WorkerClient<IndoorRouteWorkerApi>
  layer: GmlLayer
  network: NetworkSnapshot
  stateIndex: Map<string, number>
}

/**
 * The IndoorGML network of one building scene: its routing worker (which holds the graph), its
 * drawing and its part of the snapshot. The building scene delegates every `gml.*` command here.
 */
export class GmlController {
  private readonly dependencies: GmlControllerDependencies
  private gml: LoadedGml | null = null
  private state: GmlState = createInitialGmlState()
  private loadSequence = 0
  private isDisposed = false

  constructor(dependencies: GmlControllerDependencies) {
    this.dependencies = dependencies
  }

  /** The GML part of the snapshot. */
  snapshot(): GmlState {
    return this.state
  }

  /** The drawn network's group, for framing the camera (null without a network). */
  get group(): Group | null {
    return this.gml?.layer.group ?? null
  }

  /** Thick lines are sized in pixels: they need the drawing buffer size before each render. */
  beforeRender(viewportPixels: Vector2): void {
    this.gml?.layer.setViewport(viewportPixels)
  }

  /**
   * Fetches an IndoorGML file with progress and parses it in a fresh routing worker. The old
   * network stays until the new one is ready; a failure keeps it and reports
   * 'Failed to load GML file.'. Without a placement the network is fitted onto the building's
   * models (their middle in plan, their base as its floor), so it is seen at once even when the
   * file is in projected coordinates kilometres from the scene's origin.
   */
  async load(url: string, placement?: GmlPlacement): Promise<GmlLoadResult> {
    const sequence = ++this.loadSequence
    const { context } = this.dependencies
    const job = context.startJob('gml.load', this.dependencies.signal)
    this.state = { ...this.state, isLoading: true }
    this.dependencies.onChange()
    let client: WorkerClient<IndoorRouteWorkerApi> | null = null
    try {
      const bytes = await fetchWithProgress(url, {
        signal: job.signal,
        onProgress: (doneBytes, totalBytes) => job.reportProgress(doneBytes, totalBytes * 2),
      })
      const sizeBytes = bytes.byteLength
      client = createWorkerClient<IndoorRouteWorkerApi>(this.dependencies.createIndoorRouteWorker)
      const api = client.api
      const report = await Promise.race([
        api.load(
          Comlink.transfer(bytes, [bytes]),
          Comlink.proxy((progress: GmlParseProgress) =>
            job.reportProgress(sizeBytes + progress.read, sizeBytes * 2),
          ),
        ),
        client.failure,
      ])
      const network = await Promise.race([api.network(), client.failure])
      if (this.isDisposed || sequence !== this.loadSequence) {
        client.dispose()
        throw new EngineError('gml.loadFailed', GML_LOAD_FAILED_MESSAGE, 'superseded')
      }
      this.unloadObjects()
      const inForce = placement ?? fitPlacement(network.positions, this.dependencies.modelBounds())
      const layer = new GmlLayer(network, inForce, this.state.displayMode, this.state.routeColor)
      this.dependencies.parent.add(layer.group)
      const stateIndex = new Map(network.stateIds.map((id, index) => [id, index] as const))
      this.gml = { client, layer, network, stateIndex }
      client = null
      this.state = {
        ...this.state,
        isLoaded: true,
        isLoading: false,
        networkRevision: ++lastNetworkRevision,
        stateCount: report.info.states,
        transitionCount: report.info.transitions,
        storeys: network.storeys.map((storey) => ({
          label: storey.label,
          elevation: Number.isFinite(storey.elevation) ? storey.elevation : null,
          stateCount: storey.stateCount,
        })),
        placement: inForce,
        route: null,
      }
      this.dependencies.onChange()
      this.dependencies.onNetworkShown()
      return {
        stateCount: report.info.states,
        transitionCount: report.info.transitions,
        storeyLabels: report.info.storeyLabels,
        placement: inForce,
      }
    } catch (error) {
      client?.dispose()
      if (sequence === this.loadSequence && !this.isDisposed) {
        this.state = { ...this.state, isLoading: false }
        this.dependencies.onChange()
      }
      if (error instanceof EngineError && error.code === 'gml.loadFailed') throw error
      const detail =
        error instanceof DownloadError || error instanceof Error ? error.message : String(error)
      throw new EngineError('gml.loadFailed', GML_LOAD_FAILED_MESSAGE, detail)
    } finally {
      job.finish()
    }
  }

  /** Drops the network, its drawing and its worker. */
  unload(): void {
    this.loadSequence++
    this.unloadObjects()
    const wasLoaded = this.state.isLoaded
    this.state = {
      ...createInitialGmlState(),
      networkRevision: wasLoaded ? ++lastNetworkRevision : this.state.networkRevision,
      displayMode: this.state.displayMode,
      placement: this.state.placement,
      routeColor: this.state.routeColor,
    }
    this.dependencies.onChange()
  }

  /**
   * The colour the route is drawn in (the style's path colour), null for the default red.
   * A route drawn now changes at once; later routes and networks keep it.
   */
  setRouteColor(color: StyleColor | null): void {
    const routeColor = color ? { ...color } : { ...defaultGmlRouteColor }
    const old = this.state.routeColor
    if (
      old.r === routeColor.r &&
      old.g === routeColor.g &&
      old.b === routeColor.b &&
      old.a === routeColor.a
    ) {
      return
    }
    this.gml?.layer.setRouteColor(routeColor)
    this.state = { ...this.state, routeColor }
    this.dependencies.onChange()
  }

  /** Which GML parts are drawn. */
  setDisplayMode(mode: GmlDisplayMode): void {
    if (![0, 1, 2, 3].includes(mode)) {
      throw new EngineError('engine.invalidArgument', 'The GML display mode must be 0, 1, 2 or 3.')
    }
    this.gml?.layer.setDisplayMode(mode)
    this.state = { ...this.state, displayMode: mode }
    this.dependencies.onChange()
  }

  /** Where the network sits in the scene; a drawn route moves with it. */
  setPlacement(placement: GmlPlacement): void {
    const copy: GmlPlacement = {
      offset: [placement.offset[0], placement.offset[1], placement.offset[2]],
      rotationDeg: placement.rotationDeg,
      scale: placement.scale,
    }
    this.gml?.layer.setPlacement(copy)
    const route = this.state.route
    const oldScale = this.state.placement.scale
    this.state = {
      ...this.state,
      placement: copy,
      route: route && { ...route, lengthMeters: (route.lengthMeters / oldScale) * copy.scale },
    }
    this.dependencies.onChange()
  }

  /** Finds, draws and records the shortest route between two ends. */
  async route(from: GmlRouteEndpoint, to: GmlRouteEndpoint): Promise<GmlRouteAnswer> {
    const gml = this.requireGml()
    const fromEndpoint = this.toNetworkEndpoint(from)
    const toEndpoint = this.toNetworkEndpoint(to)
    const answer = await this.askRouteWorker<RouteResult>(gml, () =>
      gml.client.api.route(fromEndpoint, toEndpoint),
    )
    if (answer.path === null) {
      gml.layer.setRoute(null)
      this.state = { ...this.state, route: null }
      this.dependencies.onChange()
      return { stateIds: null, reason: 'unreachable' }
    }
    const { network, stateIndex } = gml
    const route: GmlRoute = {
      stateIds: answer.path,
      lengthMeters: answer.length * this.state.placement.scale,
      floorChanges: answer.floorChanges.map((change) => ({
        fromStorey: change.fromStorey,
        toStorey: change.toStorey,
        atStateId: change.toStateId,
      })),
      steps: answer.path.map((stateId, index) => ({
        stateId,
        name: network.stateNames[stateIndex.get(stateId) ?? -1] ?? stateId,
        storey: answer.storeys[index] ?? '',
      })),
    }
    gml.layer.setRoute(answer.polyline)
    this.state = { ...this.state, route }
    this.dependencies.onChange()
    return route
  }

  /** The network's States from the routing worker, placed with the current placement. */
  async listStates(): Promise<GmlStateEntry[]> {
    const gml = this.requireGml()
    const entries = await this.askRouteWorker(gml, () => gml.client.api.listStates())
    const placement = this.state.placement
    return entries.map((entry) => ({
      stateId: entry.stateId,
      name: entry.name ?? entry.stateId,
      storey: entry.storey,
      position: entry.position && networkToScene(entry.position, placement),
    }))
  }

  /** The connected State nearest a scene point, as `route` would snap it. */
  async snapPoint(point: Vector3Tuple, storey?: string): Promise<GmlSnappedState | null> {
    if (!Array.isArray(point) || point.length !== 3 || !point.every(Number.isFinite)) {
      throw new EngineError('engine.invalidArgument', 'A point needs three finite numbers.')
    }
    if (storey !== undefined && typeof storey !== 'string') {
      throw new EngineError('engine.invalidArgument', 'A storey is a label of the network.')
    }
    const gml = this.requireGml()
    const placement = this.state.placement
    const filePoint = sceneToNetwork(point, placement)
    const snapped = await this.askRouteWorker(gml, () =>
      gml.client.api.nearestState(filePoint, storey),
    )
    if (!snapped) return null
    return {
      stateId: snapped.stateId,
      name: gml.network.stateNames[gml.stateIndex.get(snapped.stateId) ?? -1] ?? snapped.stateId,
      storey: snapped.storey,
      distanceMeters: snapped.distance * placement.scale,
    }
  }

  /** Removes the drawn route. */
  clearRoute(): void {
    this.gml?.layer.setRoute(null)
    this.state = { ...this.state, route: null }
    this.dependencies.onChange()
  }

  /** Frees the drawing and the worker; the controller is not used again. */
  dispose(): void {
    this.isDisposed = true
    this.unloadObjects()
  }

  private requireGml(): LoadedGml {
    if (!this.gml) throw new EngineError('gml.notLoaded', 'No GML file is loaded.')
    return this.gml
  }

  /**
   * One query to the routing worker holding `gml`: worker errors become engine errors, and an
   * answer about a network unloaded or replaced meanwhile is refused rather than mixed in.
   */
  private async askRouteWorker<Answer>(
    gml: LoadedGml,
    query: () => Promise<Answer>,
  ): Promise<Answer> {
    const answer = await Promise.race([query(), gml.client.failure]).catch((error: unknown) => {
      throw toGmlEngineError(error)
    })
    if (this.gml !== gml) throw new EngineError('gml.notLoaded', 'The GML file was unloaded.')
    return answer
  }

  private toNetworkEndpoint(endpoint: GmlRouteEndpoint): RouteEndpoint {
    if ('stateId' in endpoint) return endpoint.stateId
    if (!Array.isArray(endpoint.point) || !endpoint.point.every(Number.isFinite)) {
      throw new EngineError('engine.invalidArgument', 'A route point needs three finite numbers.')
    }
    return { point: sceneToNetwork(endpoint.point, this.state.placement) }
  }

  private unloadObjects(): void {
    if (!this.gml) return
    this.gml.layer.dispose()
    this.gml.client.dispose()
    this.gml = null
  }
}

function toGmlEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'gml.unknownState') return new EngineError('gml.unknownState', message)
  if (code === 'gml.notLoaded') return new EngineError('gml.notLoaded', message)
  if (code === 'gml.invalidQuery') return new EngineError('engine.invalidArgument', message)
  return new EngineError('engine.internal', message)
}
