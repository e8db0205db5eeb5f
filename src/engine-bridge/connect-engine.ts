import type { Engine, EngineSnapshot } from '../../engine/api'
import { type SceneState, sceneStore } from './scene-store'

/**
 * Copies every snapshot the engine publishes into a valtio store, now and on each
 * `snapshot.changed`; returns the function that stops it.
 *
 * Only the leaves that changed are assigned, into the objects the store already holds. The
 * engine publishes a new snapshot on every frame in which anything moved (a camera in flight, a
 * kiosk's tour: every frame), and rebuilds most of the building part each time. Assigning those
 * new objects made valtio wrap each of them, and everything below, in a new proxy on every frame
 * (issue 19 R8: the kiosk's heap grew with valtio's proxy tables). Now a flying camera changes a
 * few numbers in the store, and a component reading `floors` keeps the very same snapshot of
 * them, so nothing of it renders again.
 */
export function connectEngine(
  engine: Pick<Engine, 'getSnapshot' | 'on'>,
  store: SceneState = sceneStore,
): () => void {
  let previous: EngineSnapshot | undefined
  const copy = (snapshot: EngineSnapshot) => {
    const last = previous as unknown as Branch | undefined
    mirrorInto(store as unknown as Branch, snapshot as unknown as Branch, last)
    previous = snapshot
  }
  copy(engine.getSnapshot())
  return engine.on('snapshot.changed', copy)
}

/** A plain object or an array of the snapshot, read by key. */
type Branch = Record<string, unknown>

/**
 * The store's objects that the mirror made itself: only these are changed in place. Anything
 * else in a store (the objects it was created with, which may be shared constants such as
 * `defaultBuildingCamera`) is first replaced by a copy, so the mirror never writes into an object
 * that someone else holds, and the engine's snapshots never become valtio's proxy targets.
 */
const ownedByMirror = new WeakSet<object>()

function isBranch(value: unknown): value is Branch {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return true
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** Makes `target` equal to `next`, assigning only what differs; `previous` is what it mirrored last. */
function mirrorInto(target: Branch, next: Branch, previous: Branch | undefined): void {
  if (Array.isArray(target)) {
    // through splice, so valtio lets go of the removed elements (a plain `length =` would not)
    const length = (next as unknown as unknown[]).length
    if (target.length > length) target.splice(length)
  } else {
    for (const key of Object.keys(target)) {
      if (!Object.hasOwn(next, key)) Reflect.deleteProperty(target, key)
    }
  }
  for (const key of Object.keys(next)) {
    const value = next[key]
    // the engine keeps the identity of parts that did not change: the store already has them
    if (previous !== undefined && previous[key] === value) continue
    const current = target[key]
    if (
      isBranch(value) &&
      isBranch(current) &&
      Array.isArray(value) === Array.isArray(current) &&
      ownedByMirror.has(current)
    ) {
      const before = previous?.[key]
      mirrorInto(current, value, isBranch(before) ? before : undefined)
    } else if (isBranch(value)) {
      target[key] = copyOf(value)
      adopt(target[key] as Branch)
    } else if (!Object.is(current, value)) {
      target[key] = value
    }
  }
}

/** A deep copy of plain data (objects and arrays; anything else is kept as it is). */
function copyOf(value: unknown): unknown {
  if (!isBranch(value)) return value
  if (Array.isArray(value)) return value.map(copyOf)
  return Object.fromEntries(Object.entries(value).map(([key, each]) => [key, copyOf(each)]))
}

/** Marks a copy the mirror just put into the store (as the store holds it), and all below it. */
function adopt(branch: Branch): void {
  ownedByMirror.add(branch)
  for (const value of Object.values(branch)) if (isBranch(value)) adopt(value)
}
