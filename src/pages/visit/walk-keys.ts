/**
 * The keys of the WASD walk, by `KeyboardEvent.code` (the key's place, not its letter), so W A S D
 * work the same on a Korean or Chinese input layout, where the W key types ㅈ or a pinyin letter.
 * The arrow keys do the same.
 */
const axesOfKey: Readonly<Record<string, { forward: number; right: number }>> = {
  KeyW: { forward: 1, right: 0 },
  ArrowUp: { forward: 1, right: 0 },
  KeyS: { forward: -1, right: 0 },
  ArrowDown: { forward: -1, right: 0 },
  KeyD: { forward: 0, right: 1 },
  ArrowRight: { forward: 0, right: 1 },
  KeyA: { forward: 0, right: -1 },
  ArrowLeft: { forward: 0, right: -1 },
}

/** Whether a key moves the walker. */
export function isWalkKey(code: string): boolean {
  return code in axesOfKey
}

/** The movement of the held keys: forward and right, each −1, 0 or 1 (opposite keys cancel). */
export function walkMovementOf(held: Iterable<string>): { forward: number; right: number } {
  let forward = 0
  let right = 0
  const seen = new Set<string>()
  for (const code of held) {
    const axes = axesOfKey[code]
    // W and the up arrow held together still walk at one pace
    const direction = axes ? `${axes.forward},${axes.right}` : ''
    if (!axes || seen.has(direction)) continue
    seen.add(direction)
    forward += axes.forward
    right += axes.right
  }
  return { forward, right }
}

/** Degrees the view turns per pixel of mouse drag while walking. */
export const lookDegreesPerPixel = 0.25
