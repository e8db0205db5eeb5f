import type {
  CommandArgsTuple,
  CommandName,
  CommandResult,
  Engine,
  EngineSnapshot,
} from '../../engine/api'
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
    /**
     * Renders the engine's canvas and reports whether anything but the background was drawn
     * (read back in the same task; a screenshot of a WebGL canvas may come back empty).
     */
    canvasHasContent(): Promise<boolean>
    /** Picks the building surface under a canvas point (CSS pixels), as a click does. */
    pickAtScreenPoint(x: number, y: number): Promise<CommandResult<'building.pickAtScreenPoint'>>
    /** Resolves once no model of the open building is still loading; returns the snapshot. */
    waitForBuildingLoaded(): Promise<EngineSnapshot>
  }
}

/**
 * Adds the engine to `window.__twinTest` when the test API is enabled (see src/app/test-api.ts),
 * so e2e specs assert on engine state instead of pixels. Returns the function that removes it.
 */
export function installEngineTestApi(engine: Pick<Engine, 'getSnapshot' | 'run'>): () => void {
  if (!isTestApiEnabled()) return () => undefined
  type EngineMembers =
    | 'getEngineSnapshot'
    | 'runEngineCommand'
    | 'canvasHasContent'
    | 'pickAtScreenPoint'
    | 'waitForBuildingLoaded'
  const members: Pick<TwinTestApi, EngineMembers> = {
    getEngineSnapshot: () => engine.getSnapshot(),
    runEngineCommand: (name, ...args) => engine.run(name, ...args),
    canvasHasContent: async () =>
      (await engine.run('building.countDrawnPixels')).drawnPixelCount > 0,
    pickAtScreenPoint: (x, y) => engine.run('building.pickAtScreenPoint', { x, y }),
    waitForBuildingLoaded: () =>
      new Promise((resolve) => {
        const check = () => {
          const snapshot = engine.getSnapshot()
          const isLoading = snapshot.building.models.some((model) => model.loadState === 'loading')
          if (snapshot.building.isOpen && !isLoading) resolve(snapshot)
          else requestAnimationFrame(check)
        }
        check()
      }),
  }
  window.__twinTest = Object.assign(window.__twinTest ?? ({} as TwinTestApi), members)
  return () => {
    const testApi = window.__twinTest as Partial<TwinTestApi> | undefined
    if (testApi?.getEngineSnapshot === members.getEngineSnapshot) {
      delete testApi.getEngineSnapshot
      delete testApi.runEngineCommand
      delete testApi.canvasHasContent
      delete testApi.pickAtScreenPoint
      delete testApi.waitForBuildingLoaded
    }
  }
}
