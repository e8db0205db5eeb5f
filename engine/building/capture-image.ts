import type { CapturedPng } from '../api/visit-commands'

/** A canvas the engine renders into (the page's, or an OffscreenCanvas in tests). */
type FrameCanvas = HTMLCanvasElement | OffscreenCanvas

/**
 * Copies a just-rendered WebGL frame into a 2D canvas, scaled to at most `maxWidth`, and
 * encodes it as PNG. The copy must happen in the task of the render: the drawing buffer is not
 * kept after the browser composites it; the encoding may then take its time.
 */
export async function captureFramePng(canvas: FrameCanvas, maxWidth: number): Promise<CapturedPng> {
  const scale = Math.min(1, Math.max(1, maxWidth) / Math.max(1, canvas.width))
  const width = Math.max(1, Math.round(canvas.width * scale))
  const height = Math.max(1, Math.round(canvas.height * scale))
  const copy = new OffscreenCanvas(width, height)
  const context = copy.getContext('2d')
  if (!context) throw new Error('No 2D canvas to copy the frame into.')
  context.drawImage(canvas, 0, 0, width, height)
  const png = await copy.convertToBlob({ type: 'image/png' })
  return { png, width, height }
}
