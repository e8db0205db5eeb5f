import type { CommandArgsTuple, CommandName, CommandResult } from '../../engine/api/commands'
import type { EngineSnapshot } from '../../engine/api/snapshot'
import type { Engine } from '../../engine/core/engine'
import { isTestApiEnabled } from '../app/test-api'

declare global {
  interface TwinTestApi {
    /** The engine's last published snapshot (plain JSON-safe data). */
    getEngineSnapshot(): EngineSnapshot
    /** Runs an engine command, as a component would. */
    runEngineCommand<Name extends CommandName>(
      name: Name,
      ...args: CommandArgsTuple<Name>
    ): Promise<CommandResult<Name>>
  }
}

/**
 * Adds the engine to `window.__twinTest` when the test API is enabled (see src/app/test-api.ts),
 * so e2e specs assert on engine state instead of pixels. Returns the function that removes it.
 */
export function installEngineTestApi(engine: Pick<Engine, 'getSnapshot' | 'run'>): () => void {
  if (!isTestApiEnabled()) return () => undefined
  const members: Pick<TwinTestApi, 'getEngineSnapshot' | 'runEngineCommand'> = {
    getEngineSnapshot: () => engine.getSnapshot(),
    runEngineCommand: (name, ...args) => engine.run(name, ...args),
  }
  window.__twinTest = Object.assign(window.__twinTest ?? ({} as TwinTestApi), members)
  return () => {
    const testApi = window.__twinTest as Partial<TwinTestApi> | undefined
    if (testApi?.getEngineSnapshot === members.getEngineSnapshot) {
      delete testApi.getEngineSnapshot
      delete testApi.runEngineCommand
    }
  }
}
