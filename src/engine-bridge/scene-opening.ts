import { useMemo } from 'react'
import type { EngineHandle } from './EngineProvider'

/** An engine handle, and whether it can say which commands it handles (`Engine.hasCommand`). */
type OpeningEngine = EngineHandle & { hasCommand?: (name: string) => boolean }

/**
 * The engine for one opening of a scene, null while it is closed. `openRevision` is the
 * snapshot's `building.openRevision` or `city.openRevision` (0 while closed). Each opening gets
 * a handle of its own, so the hooks that hand the scene what it draws (POIs, device statuses,
 * material overrides), which run again when their engine changes, hand it over again: closing a
 * scene drops all of that in the engine, and an open that replaces the open scene (an upload
 * reopens a building) may never show it closed in a snapshot.
 */
export function useSceneOpening(engine: OpeningEngine, openRevision: number): OpeningEngine | null {
  return useMemo(() => {
    if (openRevision === 0) return null
    const { hasCommand } = engine
    return {
      run: engine.run.bind(engine) as EngineHandle['run'],
      on: engine.on.bind(engine) as EngineHandle['on'],
      ...(hasCommand ? { hasCommand: hasCommand.bind(engine) } : {}),
    }
  }, [engine, openRevision])
}
