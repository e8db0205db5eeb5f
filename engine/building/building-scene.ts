import * as Comlink from 'comlink'
import {
  Box3,
  Group,
  type Material,
  Mesh,
  MeshBasicMaterial,
  type PerspectiveCamera,
  SphereGeometry,
  type Vector2,
} from 'three'
import type { BvhWorkerApi } from '../../workers/bvh/bvh.worker'
import { STALE } from '../../workers/protocol/latest-wins'
import type { PickHit, PickRay } from '../../workers/bvh/picking-scene'
import type { GmlParseProgress } from '../../workers/indoor-route/gml-parser'
import type { NetworkSnapshot } from '../../workers/indoor-route/indoor-route-api'
import type { IndoorRouteWorkerApi } from '../../workers/indoor-route/indoor-route.worker'
import type { RouteEndpoint, RouteResult } from '../../workers/indoor-route/route'
import { transferablesOf } from '../../workers/sbm/decoded-sbm'
import { NOT_VALID_SBM_MESSAGE } from '../../workers/sbm/sbm-error'
import type { DecodeSbmOutcome, SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import { createSbmObject, type SbmThreeModel } from '../../workers/sbm/sbm-three'
import type {
  BuildingOpenResult,
  GmlLoadResult,
  GmlRouteAnswer,
  GmlRouteEndpoint,
} from '../api/building-commands'
import type {
  BuildingModelDescription,
  BuildingPick,
  BuildingSceneDescription,
  BuildingSnapshot,
  GmlDisplayMode,
  GmlPlacement,
  GmlRoute,
  GmlSnappedState,
  GmlState,
  GmlStateEntry,
  ModelLoadErrorCode,
  ModelLoadState,
  Vector3Tuple,
} from '../api/building-snapshot'
import { createInitialGmlState } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { EngineContext } from '../core/engine-context'
import {
  createWorkerClient,
  type WorkerClient,
  type WorkerEndpoint,
  type WorkerPool,
} from '../workers/create-worker-client'
import type { BuildingView } from './building-view'
import { DownloadError, fetchWithProgress } from './fetch-with-progress'
import { computeVisibility, sortFloorsBottomUp } from './floor-visibility'
import { GmlLayer } from './gml-layer'
import { networkToScene, sceneToNetwork } from './gml-placement'

/** What a scene needs from the engine around it. */
export interface BuildingSceneDependencies {
  context: EngineContext
  view: BuildingView
  decodePool: WorkerPool<SbmDecodeWorkerApi>
  createBvhWorker: () => WorkerEndpoint
  createIndoorRouteWorker: () => WorkerEndpoint
  /** Something in the scene changed: publish a snapshot. */
  onChange(): void
}

/** The message every GML load failure shows (SPEC §5). */
export const GML_LOAD_FAILED_MESSAGE = 'Failed to load GML file.'

/** Source of `GmlState.networkRevision`: shared by every scene, so a value is never reused. */
let lastNetworkRevision = 0

/** How many hidden or see-through surfaces a pick may pass before it gives up. */
const MAX_PICK_PASSES = 64

interface ModelEntry {
  description: BuildingModelDescription
  floorId: string | null
  loadState: ModelLoadState
  errorMessage: string | null
  errorCode: ModelLoadErrorCode | null
  triangleCount: number
  hasStoredBvh: boolean
  isVisible: boolean
  three: SbmThreeModel | null
  /** The materials' own transparency, restored when the shell becomes opaque again. */
  materialDefaults: {
    material: Material
    transparent: boolean
    opacity: number
    depthWrite: boolean
  }[]
}

interface LoadedGml {
  client: WorkerClient<IndoorRouteWorkerApi>
  layer: GmlLayer
  network: NetworkSnapshot
  stateIndex: Map<string, number>
}

/**
 * One open building: its models (three.js objects on this thread, BVHs in the picking worker),
 * the floor and shell switches, the last pick and the GML network. Disposing it frees all of
 * that; the renderer and the canvas belong to the view, which outlives scenes.
 */
export class BuildingScene {
  readonly description: BuildingSceneDescription
  private readonly dependencies: BuildingSceneDependencies
  private readonly root = new Group()
  private readonly marker: Mesh<SphereGeometry, MeshBasicMaterial>
  private readonly models = new Map<string, ModelEntry>()
  private readonly meshes = new Map<string, { name: string; modelId: string }>()
  private readonly floors: {
    id: string
    name: string
    elevationMeters: number
    isVisible: boolean
  }[]
  private readonly abort = new AbortController()
  private readonly picking: WorkerClient<BvhWorkerApi>
  private selectedFloorId: string | null = null
  private shell = { isVisible: true, opacity: 1 }
  private lastPick: BuildingPick | null = null
  private gml: LoadedGml | null = null
  private gmlState: GmlState = createInitialGmlState()
  private gmlLoadSequence = 0
  private isDisposed = false

  constructor(description: BuildingSceneDescription, dependencies: BuildingSceneDependencies) {
    this.description = description
    this.dependencies = dependencies
    this.root.name = `building:${description.projectId}`
    this.floors = sortFloorsBottomUp(description.floors).map((floor) => ({
      id: floor.id,
      name: floor.name,
      elevationMeters: floor.elevationMeters,
      isVisible: true,
    }))
    const floorOfModel = new Map<string, string>()
    for (const floor of description.floors) {
      for (const modelId of floor.modelIds) floorOfModel.set(modelId, floor.id)
    }
    for (const model of description.models) {
      if (this.models.has(model.id)) {
        throw new EngineError('engine.invalidArgument', `Model '${model.id}' is listed twice.`)
      }
      this.models.set(model.id, {
        description: model,
        floorId: model.floorId ?? floorOfModel.get(model.id) ?? null,
        loadState: 'loading',
        errorMessage: null,
        errorCode: null,
        triangleCount: 0,
        hasStoredBvh: false,
        isVisible: true,
        three: null,
        materialDefaults: [],
      })
    }
    this.marker = new Mesh(
      new SphereGeometry(1, 16, 12),
      new MeshBasicMaterial({ color: 0xff9800, depthTest: false, transparent: true }),
    )
    this.marker.name = 'pick-marker'
    this.marker.renderOrder = 999
    this.marker.visible = false
    this.root.add(this.marker)
    dependencies.view.scene.add(this.root)
    this.picking = createWorkerClient<BvhWorkerApi>(dependencies.createBvhWorker)
  }

  /** Loads every model at once (the decode pool bounds the CPU use); one failure stops none. */
  async load(): Promise<BuildingOpenResult> {
    await Promise.all([...this.models.values()].map((entry) => this.loadModel(entry)))
    const result: BuildingOpenResult = { loadedModelIds: [], failedModelIds: [] }
    for (const [id, entry] of this.models) {
      if (entry.loadState === 'success') result.loadedModelIds.push(id)
      else result.failedModelIds.push(id)
    }
    return result
  }

  /** The building part of the snapshot (camera and render filled in by the handlers). */
  snapshot(): Omit<BuildingSnapshot, 'camera' | 'render'> {
    const visibility = this.visibility()
    return {
      isOpen: true,
      projectId: this.description.projectId,
      name: this.description.name,
      floors: this.floors.map((floor) => ({
        ...floor,
        isShown: visibility.floorShown.get(floor.id) ?? false,
      })),
      selectedFloorId: this.selectedFloorId,
      shell: {
        modelId: this.description.shellModelId,
        isVisible: this.shell.isVisible,
        opacity: this.shell.opacity,
        isShown: visibility.isShellShown,
      },
      models: [...this.models.values()].map((entry) => ({
        id: entry.description.id,
        name: entry.description.name,
        role: entry.description.role,
        floorId: entry.floorId,
        loadState: entry.loadState,
        errorMessage: entry.errorMessage,
        errorCode: entry.errorCode,
        triangleCount: entry.triangleCount,
        hasStoredBvh: entry.hasStoredBvh,
        isVisible: entry.isVisible,
        isShown: visibility.modelShown.get(entry.description.id) ?? false,
      })),
      lastPick: this.lastPick,
      gml: this.gmlState,
    }
  }

  /** Chooses the floor to look into (null: all floors). */
  selectFloor(floorId: string | null): void {
    if (floorId !== null) this.requireFloor(floorId)
    this.selectedFloorId = floorId
    this.changed()
  }

  /** The user's switch of one floor. */
  setFloorVisible(floorId: string, isVisible: boolean): void {
    this.requireFloor(floorId).isVisible = isVisible
    this.changed()
  }

  /** The user's switch of the shell. */
  setShellVisible(isVisible: boolean): void {
    this.shell = { ...this.shell, isVisible }
    this.changed()
  }

  /** Translucency of the shell: blended without depth writes below 1, so the inside shows. */
  setShellOpacity(opacity: number): void {
    if (!(opacity >= 0 && opacity <= 1)) {
      throw new EngineError('engine.invalidArgument', 'The shell opacity must be between 0 and 1.')
    }
    this.shell = { ...this.shell, opacity }
    for (const entry of this.models.values()) {
      if (this.isShellModel(entry)) this.applyOpacity(entry)
    }
    this.changed()
  }

  /** The user's switch of one model. */
  setModelVisible(modelId: string, isVisible: boolean): void {
    const entry = this.models.get(modelId)
    if (!entry) throw new EngineError('engine.invalidArgument', `No model '${modelId}' is open.`)
    entry.isVisible = isVisible
    this.changed()
  }

  /** The box around the shown models (or one model), for fitting the camera. */
  boundsOf(modelId?: string): Box3 {
    const box = new Box3()
    const shown = this.visibility().modelShown
    for (const [id, entry] of this.models) {
      if (!entry.three) continue
      if (modelId !== undefined ? id !== modelId : !shown.get(id)) continue
      box.expandByObject(entry.three.root)
    }
    if (box.isEmpty() && modelId === undefined && this.gml) box.expandByObject(this.gml.layer.group)
    return box
  }

  /**
   * The shown surface along a ray, from the picking worker. Hidden models and a translucent
   * shell are still in the worker (re-adding them on every switch would cost a decode), so a
   * hit on one is skipped by casting again from just beyond it.
   */
  async pick(ray: PickRay, isHover: boolean): Promise<BuildingPick | null | typeof STALE> {
    let near = ray.near ?? 0
    for (let pass = 0; pass < MAX_PICK_PASSES; pass++) {
      const request = { ...ray, near }
      const hit: PickHit | null | typeof STALE = await Promise.race([
        isHover && pass === 0 ? this.picking.api.hover(request) : this.picking.api.raycast(request),
        this.picking.failure,
      ])
      if (this.isDisposed) return null
      if (hit === STALE) return STALE
      if (!hit) return null
      const mesh = this.meshes.get(hit.meshId)
      const entry = mesh ? this.models.get(mesh.modelId) : undefined
      if (mesh && entry && this.isPickable(entry)) {
        return {
          point: hit.point,
          normal: hit.normal,
          distance: hit.distance,
          meshName: mesh.name,
          modelId: mesh.modelId,
          floorId: entry.floorId,
        }
      }
      near = hit.distance + Math.max(1e-4, hit.distance * 1e-6)
    }
    return null
  }

  /** Records a pick and marks it in the scene. */
  setLastPick(pick: BuildingPick | null): void {
    this.lastPick = pick
    if (pick) this.marker.position.fromArray(pick.point)
    this.marker.visible = pick !== null
    this.changed()
  }

  /** Keeps the pick marker a few pixels wide and thick route lines sized right. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    if (this.marker.visible) {
      const distance = camera.position.distanceTo(this.marker.position)
      const worldPerPixel =
        (2 * distance * Math.tan((camera.fov * Math.PI) / 360)) / Math.max(1, viewportPixels.y)
      this.marker.scale.setScalar(
        worldPerPixel * 6 * (typeof devicePixelRatio === 'number' ? devicePixelRatio : 1),
      )
    }
    this.gml?.layer.setViewport(viewportPixels)
  }

  /**
   * Fetches an IndoorGML file with progress and parses it in a fresh routing worker. The old
   * network stays until the new one is ready; a failure keeps it and reports
   * 'Failed to load GML file.'.
   */
  async loadGml(url: string): Promise<GmlLoadResult> {
    const sequence = ++this.gmlLoadSequence
    const { context } = this.dependencies
    const job = context.startJob('gml.load', this.abort.signal)
    this.gmlState = { ...this.gmlState, isLoading: true }
    this.changed()
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
      if (this.isDisposed || sequence !== this.gmlLoadSequence) {
        client.dispose()
        throw new EngineError('gml.loadFailed', GML_LOAD_FAILED_MESSAGE, 'superseded')
      }
      this.unloadGmlObjects()
      const layer = new GmlLayer(network, this.gmlState.placement, this.gmlState.displayMode)
      this.root.add(layer.group)
      const stateIndex = new Map(network.stateIds.map((id, index) => [id, index] as const))
      this.gml = { client, layer, network, stateIndex }
      client = null
      this.gmlState = {
        ...this.gmlState,
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
        route: null,
      }
      this.changed()
      return {
        stateCount: report.info.states,
        transitionCount: report.info.transitions,
        storeyLabels: report.info.storeyLabels,
      }
    } catch (error) {
      client?.dispose()
      if (sequence === this.gmlLoadSequence && !this.isDisposed) {
        this.gmlState = { ...this.gmlState, isLoading: false }
        this.changed()
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
  unloadGml(): void {
    this.gmlLoadSequence++
    this.unloadGmlObjects()
    const wasLoaded = this.gmlState.isLoaded
    this.gmlState = {
      ...createInitialGmlState(),
      networkRevision: wasLoaded ? ++lastNetworkRevision : this.gmlState.networkRevision,
      displayMode: this.gmlState.displayMode,
      placement: this.gmlState.placement,
    }
    this.changed()
  }

  /** Which GML parts are drawn. */
  setGmlDisplayMode(mode: GmlDisplayMode): void {
    if (![0, 1, 2, 3].includes(mode)) {
      throw new EngineError('engine.invalidArgument', 'The GML display mode must be 0, 1, 2 or 3.')
    }
    this.gml?.layer.setDisplayMode(mode)
    this.gmlState = { ...this.gmlState, displayMode: mode }
    this.changed()
  }

  /** Where the network sits in the scene; a drawn route moves with it. */
  setGmlPlacement(placement: GmlPlacement): void {
    const copy: GmlPlacement = {
      offset: [placement.offset[0], placement.offset[1], placement.offset[2]],
      rotationDeg: placement.rotationDeg,
      scale: placement.scale,
    }
    this.gml?.layer.setPlacement(copy)
    const route = this.gmlState.route
    const oldScale = this.gmlState.placement.scale
    this.gmlState = {
      ...this.gmlState,
      placement: copy,
      route: route && { ...route, lengthMeters: (route.lengthMeters / oldScale) * copy.scale },
    }
    this.changed()
  }

  /** Finds, draws and records the shortest route between two ends. */
  async routeGml(from: GmlRouteEndpoint, to: GmlRouteEndpoint): Promise<GmlRouteAnswer> {
    const gml = this.requireGml()
    const fromEndpoint = this.toNetworkEndpoint(from)
    const toEndpoint = this.toNetworkEndpoint(to)
    const answer = await this.askRouteWorker<RouteResult>(gml, () =>
      gml.client.api.route(fromEndpoint, toEndpoint),
    )
    if (answer.path === null) {
      gml.layer.setRoute(null)
      this.gmlState = { ...this.gmlState, route: null }
      this.changed()
      return { stateIds: null, reason: 'unreachable' }
    }
    const { network, stateIndex } = gml
    const route: GmlRoute = {
      stateIds: answer.path,
      lengthMeters: answer.length * this.gmlState.placement.scale,
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
    this.gmlState = { ...this.gmlState, route }
    this.changed()
    return route
  }

  /**
   * The loaded network's States from the routing worker, placed in the scene with the current
   * placement.
   */
  async listGmlStates(): Promise<GmlStateEntry[]> {
    const gml = this.requireGml()
    const entries = await this.askRouteWorker(gml, () => gml.client.api.listStates())
    const placement = this.gmlState.placement
    return entries.map((entry) => ({
      stateId: entry.stateId,
      name: entry.name ?? entry.stateId,
      storey: entry.storey,
      position: entry.position && networkToScene(entry.position, placement),
    }))
  }

  /** The connected State nearest a scene point, as `routeGml` would snap it. */
  async snapGmlPoint(point: Vector3Tuple, storey?: string): Promise<GmlSnappedState | null> {
    if (!Array.isArray(point) || point.length !== 3 || !point.every(Number.isFinite)) {
      throw new EngineError('engine.invalidArgument', 'A point needs three finite numbers.')
    }
    if (storey !== undefined && typeof storey !== 'string') {
      throw new EngineError('engine.invalidArgument', 'A storey is a label of the network.')
    }
    const gml = this.requireGml()
    const placement = this.gmlState.placement
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
  clearGmlRoute(): void {
    this.gml?.layer.setRoute(null)
    this.gmlState = { ...this.gmlState, route: null }
    this.changed()
  }

  /** Frees the models' GPU resources, the workers and the scene graph. */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.abort.abort()
    this.unloadGmlObjects()
    for (const entry of this.models.values()) {
      entry.three?.dispose()
      entry.three = null
    }
    this.marker.geometry.dispose()
    this.marker.material.dispose()
    this.root.removeFromParent()
    this.picking.dispose()
    this.meshes.clear()
  }

  private async loadModel(entry: ModelEntry): Promise<void> {
    const { context, decodePool } = this.dependencies
    const modelId = entry.description.id
    const job = context.startJob('model.load', this.abort.signal)
    try {
      const bytes = await fetchWithProgress(entry.description.url, {
        expectedSizeBytes: entry.description.sizeBytes,
        signal: job.signal,
        onProgress: (doneBytes, totalBytes) => job.reportProgress(doneBytes, totalBytes),
      })
      const outcome = await decodePool.run<DecodeSbmOutcome>(
        (api) => api.decode(Comlink.transfer(bytes, [bytes]), { forPicking: true }),
        { signal: job.signal },
      )
      if (this.isDisposed) {
        if (outcome.ok) for (const bitmap of outcome.value.imageBitmaps) bitmap?.close()
        return
      }
      if (!outcome.ok) {
        this.failModel(entry, outcome.error.code, outcome.error.message)
        return
      }
      const copy = outcome.value.pickingCopy
      if (copy) {
        const added = await Promise.race([
          this.picking.api.addDecoded(modelId, Comlink.transfer(copy, transferablesOf(copy))),
          this.picking.failure,
        ])
        for (const mesh of added.meshes) {
          const name =
            mesh.name ||
            outcome.value.model.meshes[mesh.meshIndex]?.name ||
            `mesh ${mesh.meshIndex}`
          this.meshes.set(mesh.meshId, { name, modelId })
        }
      }
      if (this.isDisposed) {
        for (const bitmap of outcome.value.imageBitmaps) bitmap?.close()
        return
      }
      const three = createSbmObject(outcome.value.model, {
        imageBitmaps: outcome.value.imageBitmaps,
      })
      three.root.name = modelId
      entry.three = three
      entry.materialDefaults = three.materials.map((material) => ({
        material,
        transparent: material.transparent,
        opacity: material.opacity,
        depthWrite: material.depthWrite,
      }))
      entry.loadState = 'success'
      entry.triangleCount = outcome.value.model.stats.triangleCount
      entry.hasStoredBvh = outcome.value.model.stats.builtBvhCount === 0
      if (this.isShellModel(entry)) this.applyOpacity(entry)
      this.root.add(three.root)
      this.changed()
      if (!this.dependencies.view.hasUserMovedCamera) this.dependencies.view.fitTo(this.boundsOf())
      three.texturesReady.then(() => {
        if (!this.isDisposed) this.dependencies.view.requestRender()
      })
    } catch (error) {
      if (this.isDisposed) return
      if (error instanceof DownloadError) this.failModel(entry, 'sbm.downloadFailed', error.message)
      else if (error instanceof EngineError && error.code === 'engine.workerFailed') {
        this.failModel(entry, 'engine.workerFailed', error.message)
      } else {
        this.failModel(entry, 'sbm.invalid', NOT_VALID_SBM_MESSAGE)
      }
    } finally {
      job.finish()
    }
  }

  private failModel(entry: ModelEntry, code: ModelLoadErrorCode, message: string): void {
    entry.loadState = 'error'
    entry.errorCode = code
    entry.errorMessage = code === 'sbm.invalid' ? NOT_VALID_SBM_MESSAGE : message
    this.changed()
  }

  private isShellModel(entry: ModelEntry): boolean {
    return (
      entry.description.id === this.description.shellModelId || entry.description.role === 'shell'
    )
  }

  private isPickable(entry: ModelEntry): boolean {
    if (!this.visibility().modelShown.get(entry.description.id)) return false
    // A see-through shell is there to look (and click) through.
    return !(this.isShellModel(entry) && this.shell.opacity < 1)
  }

  private applyOpacity(entry: ModelEntry): void {
    const opacity = this.shell.opacity
    for (const defaults of entry.materialDefaults) {
      const { material } = defaults
      const isTranslucent = opacity < 1
      const transparent = defaults.transparent || isTranslucent
      if (material.transparent !== transparent) material.needsUpdate = true
      material.transparent = transparent
      material.opacity = defaults.opacity * opacity
      material.depthWrite = isTranslucent ? false : defaults.depthWrite
    }
  }

  private visibility() {
    return computeVisibility({
      floors: this.floors,
      selectedFloorId: this.selectedFloorId,
      shell: {
        modelId: this.description.shellModelId,
        isVisible: this.shell.isVisible,
        opacity: this.shell.opacity,
      },
      models: [...this.models.values()].map((entry) => ({
        id: entry.description.id,
        role: entry.description.role,
        floorId: entry.floorId,
        isVisible: entry.isVisible,
      })),
    })
  }

  private requireFloor(floorId: string) {
    const floor = this.floors.find((candidate) => candidate.id === floorId)
    if (!floor) throw new EngineError('engine.invalidArgument', `No floor '${floorId}' is open.`)
    return floor
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
    return { point: sceneToNetwork(endpoint.point, this.gmlState.placement) }
  }

  private unloadGmlObjects(): void {
    if (!this.gml) return
    this.gml.layer.dispose()
    this.gml.client.dispose()
    this.gml = null
  }

  /** Applies the switches to the three.js objects, then asks for a snapshot and a render. */
  private changed(): void {
    if (this.isDisposed) return
    const shown = this.visibility().modelShown
    for (const [id, entry] of this.models) {
      if (entry.three) entry.three.root.visible = shown.get(id) ?? false
    }
    this.dependencies.view.requestRender()
    this.dependencies.onChange()
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
