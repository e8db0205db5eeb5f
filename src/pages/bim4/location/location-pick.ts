import { proxy } from 'valtio'

/**
 * The last point picked in the model for an anchor (scene metres, y up), handed from the
 * editor's canvas click to the location panel's form. `sequence` changes with every pick, so
 * picking the same point twice still fills the form again.
 */
export const anchorPick = proxy<{
  point: readonly [number, number, number] | null
  sequence: number
}>({ point: null, sequence: 0 })

/** Records a pick (the editor calls this when a click was meant for an anchor). */
export function recordAnchorPick(point: readonly [number, number, number]): void {
  anchorPick.point = [point[0], point[1], point[2]]
  anchorPick.sequence += 1
}

/**
 * A scene point as an anchor's relative coordinates: x and y across the ground, right-handed
 * seen from above (three.js x and −z), z up (three.js y); centimetres are enough for a pick.
 */
export function relativeOfScenePoint(point: readonly [number, number, number]): {
  x: number
  y: number
  z: number
} {
  const centimetres = (value: number) => Math.round(value * 100) / 100
  return { x: centimetres(point[0]), y: centimetres(-point[2]) + 0, z: centimetres(point[1]) }
}
