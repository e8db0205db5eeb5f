/**
 * The POI control's rules (SPEC §4 "Geometry control … The POI control behaves the same, with
 * altitude and rotate sliders"): one active tool at a time; rotate and altitude open their
 * slider and leaving them closes it; closing the control clears the active tool. Undo and
 * delete are one-shot actions: they end whatever tool was active.
 */

/** The tools of the POI control bar, in the order it shows them. */
export const poiTools = ['move', 'altitude', 'rotate', 'undo', 'delete'] as const

/** One of {@link poiTools}. */
export type PoiTool = (typeof poiTools)[number]

/** The tools that stay active until another is chosen (the others act once). */
export type PoiModeTool = 'move' | 'altitude' | 'rotate'

/** Whether a tool stays active (move, altitude, rotate) rather than acting once. */
export function isModeTool(tool: PoiTool): tool is PoiModeTool {
  return tool === 'move' || tool === 'altitude' || tool === 'rotate'
}

/**
 * The active tool after the user presses `tool`: pressing the active mode tool again leaves it,
 * another mode tool replaces it, and a one-shot action (undo, delete) leaves any mode.
 */
export function nextActiveTool(active: PoiModeTool | null, tool: PoiTool): PoiModeTool | null {
  if (!isModeTool(tool)) return null
  return active === tool ? null : tool
}

/** The slider a tool opens, if any. */
export function sliderOfTool(active: PoiModeTool | null): 'rotate' | 'altitude' | null {
  return active === 'rotate' || active === 'altitude' ? active : null
}

/** Millimetres on the altitude slider → metres added to the POI's height. */
export function metersFromAltitudeMillimeters(millimeters: number): number {
  return millimeters / 1000
}
