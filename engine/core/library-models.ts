import {
  type AnimationAction,
  AnimationMixer,
  type BufferGeometry,
  Group,
  LoopOnce,
  LoopRepeat,
  type Material,
  Mesh,
  type Object3D,
  Texture,
} from 'three'
import { type GLTF, GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js'
import { EngineError } from '../api/errors'
import {
  defaultModelAnimationSettings,
  type LibraryModelState,
  type ModelAnimationSettings,
  modelAnimationSpeedRange,
  type SceneLibraryModel,
} from '../api/library-model-commands'

/** One placed model: what it was given, its loaded copy and its animation clock. */
export interface LibraryModelEntry {
  source: SceneLibraryModel
  loadState: LibraryModelState['loadState']
  error: string | null
  /** The glTF scene once loaded, inside a group the scene places (null until then). */
  object: Group | null
  mixer: AnimationMixer | null
  actions: AnimationAction[]
  settings: ModelAnimationSettings
}

/** What a scene does with the models: it places and draws them; the set tells it when. */
export interface LibraryModelHost {
  /** A model finished loading (its `object` is set) or was removed (`object` still set). */
  added(entry: LibraryModelEntry): void
  removed(entry: LibraryModelEntry): void
  /** Something drawn or published changed: draw again and publish `states()`. */
  changed(): void
}

/**
 * The models of a scene's model library (issue 21 item 6), shared by the city and the building:
 * loading each GLB/SBM with three.js's GLTFLoader (SBM is a GLB with meshopt geometry), keeping
 * one AnimationMixer per model and answering the snapshot's part. Placing and drawing belong to
 * the scene (the city draws through a MapLibre custom layer, the building in its own scene).
 */
export class LibraryModelSet {
  private readonly entries = new Map<string, LibraryModelEntry>()
  private isDisposed = false

  /**
   * `loadModel` reads a model's glTF; by default from its address. The offline viewer reads the
   * bytes from its package's scripts instead (no fetch of local files under `file://`).
   */
  constructor(
    private readonly host: LibraryModelHost,
    private readonly loadModel: (model: SceneLibraryModel) => Promise<GLTF> = loaderFromAddress(),
  ) {}

  /** Every entry, in the order given. */
  all(): LibraryModelEntry[] {
    return [...this.entries.values()]
  }

  /** Replaces the models (see `setLibraryModels`). */
  set(models: readonly SceneLibraryModel[]): void {
    const ids = new Set<string>()
    for (const model of models) {
      if (ids.has(model.id)) {
        throw new EngineError('engine.invalidArgument', `Model '${model.id}' is listed twice.`)
      }
      ids.add(model.id)
      const isPlaceable =
        model.position.every(Number.isFinite) &&
        Number.isFinite(model.headingDegrees) &&
        model.scale > 0 &&
        Number.isFinite(model.scale)
      if (!isPlaceable) {
        throw new EngineError(
          'engine.invalidArgument',
          `Model '${model.id}' needs a finite place and heading and a scale above 0.`,
          model.id,
        )
      }
    }
    for (const [id, entry] of this.entries) {
      const next = models.find((model) => model.id === id)
      if (!next || next.url !== entry.source.url) this.remove(entry)
    }
    for (const model of models) {
      const entry = this.entries.get(model.id)
      if (entry) entry.source = model
      else this.load(model)
    }
    this.host.changed()
  }

  /** Changes how a loaded model's animation plays (see `setModelAnimation`). */
  setAnimation(
    id: string,
    patch: Partial<ModelAnimationSettings> & { timeSeconds?: number },
  ): void {
    const entry = this.entries.get(id)
    if (!entry) throw new EngineError('engine.invalidArgument', `No model '${id}'.`, id)
    if (entry.loadState !== 'success' || !entry.mixer) {
      throw new EngineError('engine.invalidArgument', `Model '${id}' is not loaded.`, id)
    }
    const { timeSeconds: time, ...settingsPatch } = patch
    const next: ModelAnimationSettings = { ...entry.settings, ...withoutUndefined(settingsPatch) }
    if (!Number.isInteger(next.clipIndex) || !entry.actions[next.clipIndex]) {
      throw new EngineError(
        'engine.invalidArgument',
        `Model '${id}' has no animation ${next.clipIndex}.`,
        String(next.clipIndex),
      )
    }
    if (
      !(next.speed >= modelAnimationSpeedRange.min && next.speed <= modelAnimationSpeedRange.max)
    ) {
      throw new EngineError(
        'engine.invalidArgument',
        `The speed must be ${modelAnimationSpeedRange.min}–${modelAnimationSpeedRange.max}.`,
        String(next.speed),
      )
    }
    if (time !== undefined && !(Number.isFinite(time) && time >= 0)) {
      throw new EngineError('engine.invalidArgument', 'The time must be 0 or more.', String(time))
    }
    const previous = entry.actions[entry.settings.clipIndex]
    const action = entry.actions[next.clipIndex]!
    if (previous && previous !== action) previous.stop()
    const duration = action.getClip().duration
    // a clip that played once to its end starts over when played again
    if (next.isPlaying && !entry.settings.isPlaying && action.time >= duration) action.time = 0
    action.setLoop(next.isLooping ? LoopRepeat : LoopOnce, Number.POSITIVE_INFINITY)
    // played once, it stays on its last frame (three.js pauses it there)
    action.clampWhenFinished = true
    action.timeScale = next.speed
    action.play()
    action.paused = !next.isPlaying
    if (time !== undefined) action.time = Math.min(time, duration)
    // applies the pose at the action's time without moving the clock
    entry.mixer.update(0)
    entry.settings = next
    this.host.changed()
  }

  /**
   * Moves every playing animation on by `deltaSeconds` of wall time (each at its speed);
   * answers whether one is still playing, so the scene keeps drawing frames.
   */
  advance(deltaSeconds: number): boolean {
    let isAnyPlaying = false
    for (const entry of this.entries.values()) {
      if (!entry.mixer || !entry.settings.isPlaying) continue
      entry.mixer.update(deltaSeconds)
      const action = entry.actions[entry.settings.clipIndex]
      const duration = action?.getClip().duration ?? 0
      if (!entry.settings.isLooping && action && action.time >= duration) {
        // played once to its end: it stays on the last frame, no longer playing
        entry.settings = { ...entry.settings, isPlaying: false }
        action.paused = true
      } else {
        isAnyPlaying = true
      }
    }
    return isAnyPlaying
  }

  /** Whether an animation is playing (the scene keeps drawing while one is). */
  isAnimating(): boolean {
    for (const entry of this.entries.values()) {
      if (entry.mixer && entry.settings.isPlaying) return true
    }
    return false
  }

  /** The snapshot's part. */
  states(): LibraryModelState[] {
    return this.all().map((entry) => {
      const action = entry.actions[entry.settings.clipIndex]
      return {
        id: entry.source.id,
        position: entry.source.position,
        loadState: entry.loadState,
        error: entry.error,
        animation: {
          ...entry.settings,
          clips: entry.actions.map((item) => ({
            name: item.getClip().name,
            durationSeconds: item.getClip().duration,
          })),
          timeSeconds: action?.time ?? 0,
        },
      }
    })
  }

  /** Frees every model's GPU-side resources. */
  dispose(): void {
    this.isDisposed = true
    for (const entry of [...this.entries.values()]) this.remove(entry)
  }

  private load(model: SceneLibraryModel): void {
    const entry: LibraryModelEntry = {
      source: model,
      loadState: 'loading',
      error: null,
      object: null,
      mixer: null,
      actions: [],
      settings: { ...defaultModelAnimationSettings },
    }
    this.entries.set(model.id, entry)
    this.loadModel(model).then(
      (gltf) => {
        const object = new Group()
        object.add(gltf.scene)
        if (this.isDisposed || this.entries.get(model.id) !== entry) {
          disposeObject(object)
          return
        }
        entry.object = object
        entry.loadState = 'success'
        if (gltf.animations.length > 0) {
          const mixer = new AnimationMixer(gltf.scene)
          entry.mixer = mixer
          entry.actions = gltf.animations.map((clip) => mixer.clipAction(clip))
          // the first frame of the first clip, not the rest pose, until it is played
          const first = entry.actions[0]!
          first.play()
          first.paused = true
          mixer.update(0)
        }
        this.host.added(entry)
        this.host.changed()
      },
      (error: unknown) => {
        if (this.isDisposed || this.entries.get(model.id) !== entry) return
        entry.loadState = 'error'
        entry.error = error instanceof Error ? error.message : String(error)
        this.host.changed()
      },
    )
  }

  private remove(entry: LibraryModelEntry): void {
    this.entries.delete(entry.source.id)
    entry.mixer?.stopAllAction()
    if (entry.object) {
      this.host.removed(entry)
      disposeObject(entry.object)
    }
  }
}

/** Reads each GLB or SBM (a GLB with meshopt geometry) from its address. */
function loaderFromAddress(): (model: SceneLibraryModel) => Promise<GLTF> {
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder)
  return (model) => loader.loadAsync(model.url)
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== undefined),
  ) as Partial<T>
}

/** Frees the geometries, materials and textures of a loaded model. */
function disposeObject(root: Object3D): void {
  root.traverse((node) => {
    if (!(node instanceof Mesh)) return
    ;(node.geometry as BufferGeometry).dispose()
    const materials = (Array.isArray(node.material) ? node.material : [node.material]) as Material[]
    for (const material of materials) {
      for (const value of Object.values(material)) {
        if (value instanceof Texture) value.dispose()
      }
      material.dispose()
    }
  })
}
