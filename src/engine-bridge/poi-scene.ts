import type { Vector3Tuple } from '../../engine/api'
import type { PoiCommands, PoiTemplateLook, ScenePoi } from '../../engine/api'

/** Which half of the engine draws the POIs. */
export type PoiScenePrefix = 'city' | 'building'

/** The engine as the POI scene needs it (tests pass a recorder). */
export interface PoiEngine {
  run: (name: never, ...args: never[]) => Promise<unknown>
  /** Engines that can say which commands they handle (`Engine.hasCommand`). */
  hasCommand?: (name: string) => boolean
}

/**
 * What the POI store tells the scene (engine/api/poi-commands.ts). Each call is one engine
 * command of the scene's half; drawing is best-effort: a failure is already recorded by the
 * engine (`snapshot.lastError`) and never breaks an edit, so the methods resolve either way.
 */
export interface PoiScene {
  readonly prefix: PoiScenePrefix
  setLooks(looks: PoiTemplateLook[]): Promise<void>
  setPois(pois: ScenePoi[]): Promise<void>
  upsertPois(pois: ScenePoi[]): Promise<void>
  removePois(ids: string[]): Promise<void>
  selectPois(ids: string[]): Promise<void>
  setHiddenGroups(groupIds: string[]): Promise<void>
  setGhosts(pois: ScenePoi[]): Promise<void>
  flyTo(id: string): Promise<void>
  /** Where a scene position is on the canvas, or null when the scene cannot say. */
  toScreen(position: Vector3Tuple): Promise<{ x: number; y: number; isVisible: boolean } | null>
}

/** The verbs of the POI command family (`setPois`, `flyToPoi` …), the same for both halves. */
export type PoiVerb = keyof PoiCommands<'city'> extends `city.${infer Verb}` ? Verb : never
type PoiArgs<Verb extends PoiVerb> = PoiCommands<'city'>[`city.${Verb}`]['args']
type PoiResult<Verb extends PoiVerb> = PoiCommands<'city'>[`city.${Verb}`]['result']

/**
 * The POI scene of one half of an engine. Every call is typed against `PoiCommands`; a command
 * the engine does not handle yet (its half's handlers not written) is skipped rather than run,
 * so the store can be wired before the scene draws POIs.
 */
export function createPoiScene(engine: PoiEngine, prefix: PoiScenePrefix): PoiScene {
  const run = async <Verb extends PoiVerb>(
    verb: Verb,
    args: PoiArgs<Verb>,
  ): Promise<PoiResult<Verb> | undefined> => {
    const name = `${prefix}.${verb}`
    if (engine.hasCommand && !engine.hasCommand(name)) return undefined
    try {
      // Called on the engine: `run` is a method (a detached call has no `this`).
      const runCommand = engine.run as (
        this: PoiEngine,
        name: string,
        args: unknown,
      ) => Promise<unknown>
      return (await runCommand.call(engine, name, args)) as PoiResult<Verb>
    } catch {
      // The engine records the failure in its snapshot (the scene's status shows it).
      return undefined
    }
  }
  return {
    prefix,
    setLooks: async (looks) => void (await run('setPoiLooks', { looks })),
    setPois: async (pois) => void (await run('setPois', { pois })),
    upsertPois: async (pois) => void (await run('upsertPois', { pois })),
    removePois: async (ids) => void (await run('removePois', { ids })),
    selectPois: async (ids) => void (await run('selectPois', { ids })),
    setHiddenGroups: async (groupIds) => void (await run('setHiddenPoiGroups', { groupIds })),
    setGhosts: async (pois) => void (await run('setPoiGhosts', { pois })),
    flyTo: async (id) => void (await run('flyToPoi', { id })),
    toScreen: async (position) => (await run('poiToScreen', { position })) ?? null,
  }
}
