/** x, y, z; the same shape as the snapshots' `Vector3Tuple` (not imported: no cycle). */
type Vector3Tuple = readonly [number, number, number]

/**
 * Models of the model library placed in a scene (issue 21 item 6, SPEC §2 city sub-tabs "model
 * library" and "model animation"): glTF binaries (GLB, their animations kept) and SBM files,
 * each at a place, turned by a heading and scaled. Both halves take the same shapes under the
 * same command names (`city.setLibraryModels` / `building.setLibraryModels` …); only the meaning
 * of `position` differs, as for POIs: the city uses WGS84 (longitude°, latitude°, height in
 * metres), the building its own scene metres.
 *
 * The UI owns the records (loaded from the server) and hands the scene what to draw; the engine
 * owns loading, drawing and the animation clock.
 */
export interface SceneLibraryModel {
  id: string
  /** Address of the GLB or SBM (both are glTF 2.0 binaries). */
  url: string
  position: Vector3Tuple
  /** Degrees clockwise seen from above; 0 leaves the model's front (glTF +Z) facing south. */
  headingDegrees: number
  /** Uniform scale, above 0 (1: the file's own metres). */
  scale: number
}

/** How one model's animation plays. */
export interface ModelAnimationSettings {
  /** Which of the model's animations (glTF `animations[]`) plays. */
  clipIndex: number
  isPlaying: boolean
  /** Playback rate, 0.1–10 (1: the file's own time). */
  speed: number
  /** Start again at the end, or stop on the last frame. */
  isLooping: boolean
}

/** The animation part of a model's state. */
export interface ModelAnimationState extends ModelAnimationSettings {
  /** The model's animations; [] for a model without any (every SBM). */
  clips: readonly { readonly name: string; readonly durationSeconds: number }[]
  /** Where the playing (or paused) clip is, seconds from its start. */
  timeSeconds: number
}

/** One placed model in the snapshot (`snapshot.city.libraryModels`). */
export interface LibraryModelState {
  id: string
  /** Where it stands, as last handed over (`SceneLibraryModel.position`). */
  position: Vector3Tuple
  loadState: 'loading' | 'success' | 'error'
  /** Why it failed to load (the loader's words), null otherwise. */
  error: string | null
  animation: ModelAnimationState
}

/** Limits of the playback rate. */
export const modelAnimationSpeedRange = { min: 0.1, max: 10 } as const

/** The settings a model starts with: its first animation, stopped, at normal speed, looping. */
export const defaultModelAnimationSettings: ModelAnimationSettings = {
  clipIndex: 0,
  isPlaying: false,
  speed: 1,
  isLooping: true,
}

/**
 * Library model commands, the same for both halves; `Prefix` is 'city' or 'building'. Each
 * half's command map extends `LibraryModelCommands<…>` once its handlers exist.
 */
export type LibraryModelCommands<Prefix extends 'city' | 'building'> = {
  /**
   * Replaces the placed models. A model whose id and address are unchanged keeps its loaded
   * copy and its animation (only its place, heading and scale change); a new or changed address
   * loads. Follow `libraryModels` in the snapshot for load states and animations.
   */
  [K in `${Prefix}.setLibraryModels`]: {
    args: { models: readonly SceneLibraryModel[] }
    result: undefined
  }
} & {
  /**
   * Changes how a loaded model's animation plays: which clip, play or pause, speed, loop, or
   * where the clip is (`timeSeconds`, e.g. to show one moment while paused). Fails with
   * `engine.invalidArgument` for an unknown or not yet loaded model, a clip it does not have,
   * or a speed outside 0.1–10.
   */
  [K in `${Prefix}.setModelAnimation`]: {
    args: { id: string; timeSeconds?: number } & Partial<ModelAnimationSettings>
    result: undefined
  }
}
