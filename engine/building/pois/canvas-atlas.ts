import { CanvasTexture, LinearFilter } from 'three'
import { type AnyCanvas, type AnyContext, createCanvas } from '../../core/canvas-2d'

/**
 * A canvas drawn into and uploaded as one texture. Rects are handed out as
 * `[u, v, width, height]` fractions with v from the top (the texture is not flipped), which is
 * what `ScreenQuadBatch` reads.
 */
export class CanvasAtlas {
  readonly canvas: AnyCanvas
  readonly context: AnyContext
  readonly texture: CanvasTexture

  constructor(
    readonly width: number,
    readonly height: number,
    /** Read back often (labels): a CPU-side canvas, so `getImageData` does not stall on the GPU. */
    willReadFrequently = false,
  ) {
    this.canvas = createCanvas(width, height)
    this.context = this.canvas.getContext('2d', { willReadFrequently }) as AnyContext
    this.texture = new CanvasTexture(this.canvas as HTMLCanvasElement)
    this.texture.flipY = false
    this.texture.generateMipmaps = false
    this.texture.minFilter = LinearFilter
    this.texture.magFilter = LinearFilter
  }

  /** The texture rect of a canvas rect in pixels. */
  rect(x: number, y: number, width: number, height: number): [number, number, number, number] {
    return [x / this.width, y / this.height, width / this.width, height / this.height]
  }

  /** Marks the canvas changed: uploaded again before the next draw. */
  changed(): void {
    this.texture.needsUpdate = true
  }

  /** Frees the texture. */
  dispose(): void {
    this.texture.dispose()
  }
}
