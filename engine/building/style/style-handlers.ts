import type { CommandHandlers } from '../../api/commands'
import { EngineError } from '../../api/errors'
import type { SceneStyle, StyleColor, StyleCommands } from '../../api/style-commands'
import type { StyleController } from './style-controller'
import { styleProblem } from './style-values'

type StyleHandlers = Pick<CommandHandlers, keyof StyleCommands<'building'>>

/** What the style handlers need from the building handlers around them. */
export interface StyleHandlerDependencies {
  controller: StyleController
  /** Applies the camera part of a style (distances, factors, wheel) and publishes it. */
  applyCamera(style: SceneStyle | null): void
  /** Draws paths (the GML route) in the style's path colour (null: the default). */
  applyPathColor(color: StyleColor | null): void
  requireCanvas(): void
}

/** Handlers of `building.setStyle`, `building.resetStyle` and `building.sampleStylePixels`. */
export function createBuildingStyleHandlers({
  controller,
  applyCamera,
  applyPathColor,
  requireCanvas,
}: StyleHandlerDependencies): StyleHandlers {
  return {
    'building.setStyle': async ({ style }) => {
      const problem = styleProblem(style)
      if (problem) throw new EngineError('engine.invalidArgument', `Style: ${problem}.`)
      // a copy: the caller's object (a UI store's) may change after the command
      const copy = structuredClone(style)
      applyCamera(copy)
      applyPathColor(copy.pathColor ?? null)
      controller.apply(copy)
    },
    'building.resetStyle': async () => {
      applyCamera(null)
      applyPathColor(null)
      controller.reset()
    },
    'building.sampleStylePixels': async () => {
      requireCanvas()
      return controller.samplePixels()
    },
  }
}
