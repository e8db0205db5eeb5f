import { useSyncExternalStore } from 'react'

/**
 * A minimal observable value for the kit's imperative APIs (toast, confirm). Those hold React
 * nodes, which must not be wrapped by a valtio proxy, so they use this plain store instead.
 */
export interface ExternalStore<State> {
  get(): State
  set(update: (state: State) => State): void
  subscribe(listener: () => void): () => void
}

/** Creates an {@link ExternalStore} holding `initial`. */
export function createExternalStore<State>(initial: State): ExternalStore<State> {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    set(update) {
      state = update(state)
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** Reads an {@link ExternalStore} in a component and re-renders when it changes. */
export function useExternalStore<State>(store: ExternalStore<State>): State {
  return useSyncExternalStore(store.subscribe, store.get, store.get)
}
