import type { Engine, EngineSnapshot } from '../../engine/api'
import { type SceneState, sceneStore } from './scene-store'

/**
 * Copies every snapshot the engine publishes into a valtio store, now and on each
 * `snapshot.changed`; returns the function that stops it. Only the top-level parts whose
 * identity changed are assigned (the engine shares unchanged parts between snapshots), so a
 * component reading `view` does not re-render when only `loading` moved.
 */
export function connectEngine(
  engine: Pick<Engine, 'getSnapshot' | 'on'>,
  store: SceneState = sceneStore,
): () => void {
  let previous: EngineSnapshot | undefined
  const copy = (snapshot: EngineSnapshot) => {
    for (const key of Object.keys(snapshot) as (keyof EngineSnapshot)[]) {
      if (previous?.[key] !== snapshot[key]) {
        ;(store as Record<keyof EngineSnapshot, unknown>)[key] = snapshot[key]
      }
    }
    previous = snapshot
  }
  copy(engine.getSnapshot())
  return engine.on('snapshot.changed', copy)
}
