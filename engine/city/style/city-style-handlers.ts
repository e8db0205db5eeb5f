import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { SceneStyle, StyleCommands } from '../../api/style-commands'
import { styleProblem } from '../../core/style-problem'
import type { CityScene } from '../city-scene'

type CityStyleHandlers = Pick<CommandHandlers, keyof StyleCommands<'city'>>

/**
 * Handlers of `city.setStyle`, `city.resetStyle` and `city.sampleStylePixels`. The style is
 * kept across opens (`styleInForce`): a city opened later is drawn with it at once.
 */
export function createCityStyleHandlers(
  openScene: () => CityScene,
  currentScene: () => CityScene | null,
): CityStyleHandlers & {
  styleInForce(): SceneStyle | null
} {
  let style: SceneStyle | null = null
  return {
    styleInForce: () => style,
    'city.setStyle': async ({ style: next }) => {
      const problem = styleProblem(next)
      if (problem) throw new EngineError('engine.invalidArgument', `Style: ${problem}.`)
      // a copy: the caller's object (a UI store's) may change after the command
      style = structuredClone(next)
      currentScene()?.style.apply(style)
      return undefined
    },
    'city.resetStyle': async () => {
      style = null
      currentScene()?.style.apply(null)
      return undefined
    },
    'city.sampleStylePixels': async () => openScene().style.samplePixels(),
  }
}
