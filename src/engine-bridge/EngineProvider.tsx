import { createContext, type ReactNode, useContext, useEffect } from 'react'
import type { Engine } from '../../engine/api'
import { connectEngine } from './connect-engine'
import { installEngineTestApi } from './engine-test-api'
import { type SceneState, sceneStore } from './scene-store'

/** What components may do with the engine: run commands and listen to events, never dispose it. */
export type EngineHandle = Pick<Engine, 'run' | 'on'>

const EngineContext = createContext<EngineHandle | null>(null)

/** Props of {@link EngineProvider}. */
export interface EngineProviderProps {
  /** Created and disposed by the caller, so React's double effects never dispose it. */
  engine: Engine
  /** Where the snapshot is mirrored; tests pass their own store. */
  store?: SceneState
  children: ReactNode
}

/** Makes the engine available to `useEngine()` and mirrors its snapshot into the scene store. */
export function EngineProvider({ engine, store = sceneStore, children }: EngineProviderProps) {
  useEffect(() => connectEngine(engine, store), [engine, store])
  useEffect(() => installEngineTestApi(engine), [engine])
  return <EngineContext value={engine}>{children}</EngineContext>
}

/** The engine of the nearest EngineProvider. */
export function useEngine(): EngineHandle {
  const engine = useContext(EngineContext)
  if (!engine) throw new Error('useEngine() needs an <EngineProvider> above it')
  return engine
}
