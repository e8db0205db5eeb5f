/** A 2D canvas of either kind, and its drawing context. */
export type AnyCanvas = HTMLCanvasElement | OffscreenCanvas
export type AnyContext = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D

/** A 2D canvas on this thread: an OffscreenCanvas where there is one (the engine may run in a worker). */
export function createCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height)
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  return canvas
}
