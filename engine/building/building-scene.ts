import { Box3, Group, Matrix4, type PerspectiveCamera, type Vector2, Vector3 } from 'three'
import { STALE } from '../../workers/protocol/latest-wins'
import type { PickRay } from '../../workers/bvh/picking-scene'
import { NOT_VALID_SBM_MESSAGE } from '../../workers/sbm/sbm-error'
import type { SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import { createSbmObject } from '../../workers/sbm/sbm-three'
import type { BuildingOpenResult } from '../api/building-commands'
import type {
  BuildingPick,
  BuildingSceneDescription,
  BuildingSnapshot,
  ModelLoadErrorCode,
  Vector3Tuple,
} from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { EngineContext } from '../core/engine-context'
import type { WorkerEndpoint, WorkerPool } from '../workers/create-worker-client'
import type { BuildingView } from './building-view'
import { computeVisibility, sortFloorsBottomUp } from './floor-visibility'
import { GmlController } from './gml-controller'
import { applyOpacity, captureMaterialDefaults } from './material-opacity'
import { meshNamesKey } from './material-overrides'
import { createModelEntries, type ModelEntry, modelState } from './building-models'
import { downloadAndDecodeSbm, modelLoadFailure } from './model-download'
import { PickController } from './pick-controller'

export { GML_LOAD_FAILED_MESSAGE } from './gml-controller'

/** What a scene needs from the engine around it. */
export interface BuildingSceneDependencies {
  context: EngineContext
  view: BuildingView
  decodePool: WorkerPool<SbmDecodeWorkerApi>
  createBvhWorker: () => WorkerEndpoint
  /** Whether the picking worker may decode a model's picking share itself (BuildingEngineOptions). */
  pickingWorkerDecodes: boolean
  /** Whether a model's decode may be split across two free decode workers (BuildingEngineOptions). */
  splitDecode: boolean
  /** Whether a free decode worker downloads a model itself (BuildingEngineOptions). */
  workerDownload: boolean
  createIndoorRouteWorker: () => WorkerEndpoint
  /** Something in the scene changed: publish a snapshot. */
  onChange(): void
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
  private readonly models: Map<string, ModelEntry>
  private readonly floors: {
    id: string
    name: string
    elevationMeters: number
    isVisible: boolean
  }[]
  private readonly abort = new AbortController()
  private readonly picks: PickController
  private selectedFloorId: string | null = null
  private shell = { isVisible: true, opacity: 1 }
  private isDisposed = false
  /** The IndoorGML network drawn over the building (every `gml.*` command goes there). */
  readonly gml: GmlController

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
    this.models = createModelEntries(description)
    dependencies.view.placed.add(this.root)
    this.picks = new PickController(dependencies.createBvhWorker, this.root, {
      isPickable: (modelId) => this.isPickable(modelId),
      floorOf: (modelId) => this.models.get(modelId)?.floorId ?? null,
    })
    this.gml = new GmlController({
      context: dependencies.context,
      createIndoorRouteWorker: dependencies.createIndoorRouteWorker,
      parent: this.root,
      signal: this.abort.signal,
      modelBounds: () => this.modelBounds(),
      onChange: () => this.changed(),
      onNetworkShown: () => {
        if (!dependencies.view.hasUserMovedCamera) dependencies.view.fitTo(this.boundsOf())
      },
    })
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
  snapshot(): Omit<
    BuildingSnapshot,
    | 'openRevision'
    | 'camera'
    | 'render'
    | 'pois'
    | 'poiStatuses'
    | 'style'
    | 'materials'
    | 'walk'
    | 'libraryModels'
    | 'placement'
    | 'track'
  > {
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
      models: [...this.models.values()].map((entry) =>
        modelState(entry, visibility.modelShown.get(entry.description.id) ?? false),
      ),
      lastPick: this.picks.current,
      gml: this.gml.snapshot(),
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
    const network = this.gml.group
    if (modelId === undefined && network && this.gml.snapshot().displayMode !== 0) {
      box.expandByObject(network)
    }
    return box
  }

  /** The box around every loaded model, shown or not, in the building's own frame. */
  modelBounds(): Box3 {
    return this.dependencies.view.inBuildingFrame(() => {
      const box = new Box3()
      for (const entry of this.models.values()) {
        if (entry.three) box.expandByObject(entry.three.root)
      }
      return box
    })
  }

  /**
   * The shown surface along a scene ray, from the picking worker (see {@link PickController}),
   * which holds the models in the building's own frame: the ray goes into that frame, and the
   * answer stays in it (its distance in scene metres).
   */
  async pick(ray: PickRay, isHover: boolean): Promise<BuildingPick | null | typeof STALE> {
    const { origin, direction, scale } = this.rayInBuildingFrame(ray)
    const inBuilding: PickRay = {
      origin: [origin.x, origin.y, origin.z],
      direction: [direction.x, direction.y, direction.z],
      ...(ray.near === undefined ? {} : { near: ray.near / scale }),
      ...(ray.far === undefined ? {} : { far: ray.far / scale }),
    }
    const pick = await this.picks.pick(inBuilding, isHover, () => this.isDisposed)
    if (!pick || pick === STALE) return pick
    return { ...pick, distance: pick.distance * scale }
  }

  /**
   * Where a scene ray meets the ground under the building, in the building's own frame: the
   * plane of the lowest loaded model's base (y 0 before one has loaded), where the style draws
   * its ground. Null when the ray looks up to the sky or meets the plane beyond its `far`. A
   * library model clicked beside the building stands there.
   */
  groundPoint(ray: PickRay): Vector3Tuple | null {
    const { origin, direction, scale } = this.rayInBuildingFrame(ray)
    // a ray (nearly) level with the ground meets it beyond any view
    if (direction.y > -1e-6) return null
    const level = this.groundLevel()
    const along = (level - origin.y) / direction.y
    if (along < (ray.near ?? 0) / scale || (ray.far !== undefined && along * scale > ray.far)) {
      return null
    }
    const point = origin.addScaledVector(direction, along)
    return [point.x, level, point.z]
  }

  /** The ground under the building in its own frame: its lowest loaded model's base (0 before). */
  groundLevel(): number {
    const bounds = this.modelBounds()
    return bounds.isEmpty() ? 0 : bounds.min.y
  }

  /** A scene ray in the building's frame (its placement turns and scales it); `scale` converts back. */
  private rayInBuildingFrame(ray: PickRay): { origin: Vector3; direction: Vector3; scale: number } {
    const frame = this.dependencies.view.placed.matrixWorld
    const toBuilding = new Matrix4().copy(frame).invert()
    return {
      origin: new Vector3().fromArray(ray.origin).applyMatrix4(toBuilding),
      direction: new Vector3().fromArray(ray.direction).transformDirection(toBuilding),
      scale: frame.getMaxScaleOnAxis(),
    }
  }

  /** As {@link pick}, with the point and normal in scene coordinates (the walk moves the eye). */
  async pickInScene(ray: PickRay): Promise<BuildingPick | null> {
    const pick = await this.pick(ray, false)
    if (!pick || pick === STALE) return null
    const frame = this.dependencies.view.placed.matrixWorld
    const point = new Vector3().fromArray(pick.point).applyMatrix4(frame)
    const normal = new Vector3().fromArray(pick.normal).transformDirection(frame)
    return { ...pick, point: [point.x, point.y, point.z], normal: [normal.x, normal.y, normal.z] }
  }

  /** Records a pick and marks it in the scene; null clears both (the info box's close). */
  setLastPick(pick: BuildingPick | null): void {
    this.picks.record(pick)
    this.changed()
  }

  /** Keeps the pick marker a few pixels wide and thick route lines sized right. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    this.picks.beforeRender(camera, viewportPixels)
    this.gml.beforeRender(viewportPixels)
  }

  /** Frees the models' GPU resources, the workers and the scene graph. */
  dispose(): void {
    if (this.isDisposed) return
    this.isDisposed = true
    this.abort.abort()
    this.gml.dispose()
    for (const entry of this.models.values()) {
      entry.three?.dispose()
      entry.three = null
    }
    this.picks.dispose()
    this.root.removeFromParent()
  }

  private async loadModel(entry: ModelEntry): Promise<void> {
    const { context, decodePool } = this.dependencies
    const modelId = entry.description.id
    const job = context.startJob('model.load', this.abort.signal)
    // The picking worker bakes each placement's matrix; the floor's lift goes in with it.
    const liftMeters = this.elevationOf(entry)
    // Set when the picking worker decodes its share of the bytes itself (in a callback, hence
    // a holder rather than a variable the compiler would consider still unset).
    const picking: { added?: Promise<void> } = {}
    const releaseOwnDecode = this.dependencies.pickingWorkerDecodes
      ? this.picks.claimOwnDecode()
      : null
    try {
      const outcome = await downloadAndDecodeSbm(
        entry.description,
        job,
        decodePool,
        releaseOwnDecode
          ? (source) => {
              picking.added = this.picks.addModelFromBytes(modelId, source, liftMeters)
              // Awaited below; left unobserved when the drawing decode fails first.
              picking.added.catch(() => undefined)
            }
          : undefined,
        {
          splitDecode: this.dependencies.splitDecode,
          workerDownload: this.dependencies.workerDownload,
        },
      )
      if (this.isDisposed) {
        if (outcome.ok) for (const bitmap of outcome.value.imageBitmaps) bitmap?.close()
        return
      }
      if (!outcome.ok) {
        // The picking worker may still be adding it: remove it once that is done.
        void picking.added?.then(
          () => this.picks.removeModel(modelId),
          () => undefined,
        )
        this.failModel(entry, outcome.error.code, outcome.error.message)
        return
      }
      const copy = outcome.value.pickingCopy
      const pickable =
        picking.added ?? (copy ? this.picks.addModel(modelId, copy, liftMeters) : Promise.resolve())
      // The picking worker decodes or attaches while this thread makes the three.js objects.
      const three = createSbmObject(outcome.value.model, {
        imageBitmaps: outcome.value.imageBitmaps,
      })
      await pickable.catch((error) => {
        three.dispose()
        throw error
      })
      if (this.isDisposed) {
        three.dispose()
        for (const bitmap of outcome.value.imageBitmaps) bitmap?.close()
        return
      }
      three.root.name = modelId
      // material overrides name meshes as picks do (material-overrides.ts)
      three.root.userData[meshNamesKey] = outcome.value.model.meshes.map((mesh) => mesh.name)
      entry.three = three
      this.placeModel(entry)
      entry.materialDefaults = captureMaterialDefaults(three.materials)
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
      const failure = modelLoadFailure(error)
      this.failModel(entry, failure.code, failure.message)
    } finally {
      releaseOwnDecode?.()
      job.finish()
    }
  }

  /**
   * A floor's models stand on the floor's elevation, so floors stack instead of overlapping at
   * the origin. Set once at load: a new elevation reopens the scene (the picking worker holds
   * the placements too).
   */
  private elevationOf(entry: ModelEntry): number {
    const floor = this.floors.find((candidate) => candidate.id === entry.floorId)
    return floor?.elevationMeters ?? 0
  }

  private placeModel(entry: ModelEntry): void {
    if (!entry.three) return
    entry.three.root.position.y = this.elevationOf(entry)
    entry.three.root.updateMatrixWorld(true)
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

  private isPickable(modelId: string): boolean {
    const entry = this.models.get(modelId)
    if (!entry || !this.visibility().modelShown.get(modelId)) return false
    // A see-through shell is there to look (and click) through.
    return !(this.isShellModel(entry) && this.shell.opacity < 1)
  }

  private applyOpacity(entry: ModelEntry): void {
    applyOpacity(entry.materialDefaults, this.shell.opacity)
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
