import { proxy } from 'valtio'
import { createInitialSnapshot, type EngineSnapshot } from '../../engine/api'

/** The engine snapshot as a writable valtio state; only connectEngine writes it. */
export type SceneState = { -readonly [Key in keyof EngineSnapshot]: EngineSnapshot[Key] }

/**
 * The UI's mirror of the engine snapshot. Components read it with `useSnapshot(sceneStore)` and
 * re-render only for the parts they read; they change the scene through `useEngine().run`.
 */
export const sceneStore = proxy<SceneState>(createInitialSnapshot())
