import type { CommandHandlers } from '../../api/commands'
import type { DrawCommands, DrawShape } from '../../api/draw-commands'
import { EngineError } from '../../api/errors'
import type { CityScene } from '../city-scene'

function invalid(message: string, detail?: string): EngineError {
  return new EngineError('engine.invalidArgument', message, detail)
}

const drawTypes = new Set([1, 2, 3, 4, 5])
const editTools = new Set(['edit', 'move', 'rotate'])

/** Refuses shapes the scene could not draw (no id, unknown type, positions that are not numbers). */
function checkShapes(shapes: readonly DrawShape[]): void {
  for (const shape of shapes) {
    if (typeof shape.id !== 'string' || shape.id === '') throw invalid('A shape has no id.')
    if (!drawTypes.has(shape.type)) throw invalid(`Shape ${shape.id} has no draw type.`, shape.id)
    for (const [lng, lat] of shape.points) {
      if (
        !Number.isFinite(lng) ||
        !Number.isFinite(lat) ||
        Math.abs(lat) > 90 ||
        Math.abs(lng) > 180
      )
        throw invalid(`Shape ${shape.id} has a point off the map.`, shape.id)
    }
  }
}

/** Handlers of the drawing commands (draw-commands.ts), on the open scene's drawing part. */
export function createDrawHandlers(
  openScene: () => CityScene,
): Pick<CommandHandlers, keyof DrawCommands> {
  return {
    'draw.start': async ({ type }) => {
      if (!drawTypes.has(type)) throw invalid(`Not a draw type: ${type}.`, String(type))
      openScene().draw.start(type)
      return undefined
    },
    'draw.cancel': async () => {
      openScene().draw.cancel()
      return undefined
    },
    'draw.setShapes': async ({ shapes }) => {
      checkShapes(shapes)
      openScene().draw.setShapes(shapes)
      return undefined
    },
    'draw.edit': async ({ id }) => {
      if (!openScene().draw.edit(id)) throw invalid(`No shape ${id}.`, id)
      return undefined
    },
    'draw.editTool': async ({ tool }) => {
      if (tool !== null && !editTools.has(tool)) throw invalid(`Not a tool: ${tool}.`, String(tool))
      if (!openScene().draw.editTool(tool)) throw invalid('No shape is being edited.')
      return undefined
    },
    'draw.editRotate': async ({ degrees }) => {
      if (!Number.isFinite(degrees) || Math.abs(degrees) > 180)
        throw invalid(`Not an angle of -180..180: ${degrees}.`, String(degrees))
      if (!openScene().draw.editRotate(degrees)) throw invalid('No shape is being edited.')
      return undefined
    },
    'draw.editUndo': async () => openScene().draw.editUndo(),
    'draw.editRedo': async () => openScene().draw.editRedo(),
    'draw.editStop': async () => {
      openScene().draw.editStop()
      return undefined
    },
    'draw.flyToShape': async ({ id }) => {
      if (!(await openScene().draw.flyTo(id))) throw invalid(`No shape ${id}.`, id)
      return undefined
    },
  }
}
