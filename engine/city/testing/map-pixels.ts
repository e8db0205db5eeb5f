/**
 * Reading what the city map drew, for browser tests: the map canvas is WebGL, so its pixels
 * are copied through a 2D canvas (the map is opened with `keepDrawingBuffer`).
 */

/** The map canvas's pixels (RGBA rows, top first), or null before the map made its canvas. */
export function mapPixels(container: HTMLElement): ImageData | null {
  const canvas = container.querySelector('canvas')
  if (!canvas) return null
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  return context.getImageData(0, 0, copy.width, copy.height)
}

/** How many of the map's pixels are within `tolerance` (sum of channel differences) of `rgb`. */
export function countPixelsNear(
  container: HTMLElement,
  rgb: readonly [number, number, number],
  tolerance: number,
): number {
  const pixels = mapPixels(container)
  if (!pixels) return 0
  const { data } = pixels
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const distance =
      Math.abs(data[index]! - rgb[0]) +
      Math.abs(data[index + 1]! - rgb[1]) +
      Math.abs(data[index + 2]! - rgb[2])
    if (distance < tolerance) count++
  }
  return count
}

/** Share (0–1) of the map's pixels close to a `#rrggbb` colour. */
export function shareOfColor(container: HTMLElement, hex: string): number {
  const pixels = mapPixels(container)
  if (!pixels) return 0
  const value = Number.parseInt(hex.slice(1), 16)
  const rgb = [(value >> 16) & 255, (value >> 8) & 255, value & 255] as const
  return countPixelsNear(container, rgb, 12) / (pixels.data.length / 4)
}
