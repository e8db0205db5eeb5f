import { Engine } from '../../core/engine'
import { engineContextAttributes } from '../../view/webgl-probe'

/**
 * What the building POI browser tests share: a 320 × 240 canvas whose engine keeps its drawing
 * buffer (so a test reads the pixels where `building.poiToScreen` says a marker is), blob URLs
 * for models and icons, and the cleanups that free them after each test (`afterEach(runCleanups)`).
 */
const cleanups: (() => void)[] = []

/** Frees what the last test made, newest first. */
export function runCleanups(): void {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
}

/** A URL of bytes or a blob, revoked after the test. */
export function blobUrl(bytes: Uint8Array<ArrayBuffer> | Blob): string {
  const url = URL.createObjectURL(bytes instanceof Blob ? bytes : new Blob([bytes]))
  cleanups.push(() => URL.revokeObjectURL(url))
  return url
}

/** A square PNG icon of one colour. */
export async function iconUrl(colour: string): Promise<string> {
  const canvas = new OffscreenCanvas(32, 32)
  const context = canvas.getContext('2d')!
  context.fillStyle = colour
  context.fillRect(0, 0, 32, 32)
  return blobUrl(await canvas.convertToBlob({ type: 'image/png' }))
}

/** An engine on a fresh 320 × 240 canvas, disposed after the test. */
export function startEngine(): { engine: Engine; canvas: HTMLCanvasElement } {
  const canvas = document.createElement('canvas')
  canvas.style.width = '320px'
  canvas.style.height = '240px'
  canvas.style.display = 'block'
  document.body.append(canvas)
  canvas.getContext('webgl2', { ...engineContextAttributes, preserveDrawingBuffer: true })
  const engine = new Engine({ canvas })
  cleanups.push(() => {
    engine.dispose()
    canvas.remove()
  })
  return { engine, canvas }
}

/** The colour (0–255) of the canvas at CSS pixel (x, y) as last drawn. */
export function pixelAt(canvas: HTMLCanvasElement, x: number, y: number): [number, number, number] {
  const scale = canvas.width / canvas.clientWidth
  const copy = new OffscreenCanvas(canvas.width, canvas.height)
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  const data = context.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data
  return [data[0]!, data[1]!, data[2]!]
}
