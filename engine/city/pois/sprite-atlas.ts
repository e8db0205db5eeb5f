import type { Device, Texture } from '@luma.gl/core'
import { type AnyContext, createCanvas } from '../../core/canvas-2d'
import { createClampedTexture } from '../clamped-texture'

/** Where a sprite's picture is in its atlas, and how big it is on screen. */
export interface AtlasSlot {
  /** Texture coordinates [u0, v0, u1, v1], v from the top (the texture is not flipped). */
  uv: readonly [number, number, number, number]
  /** CSS pixels. */
  width: number
  height: number
}

/** Pixels left free between pictures, so linear filtering never reads a neighbour. */
const gapPixels = 2

/**
 * Pictures painted once each on a 2D canvas (a marker's icon, a label's text) and packed in
 * rows of one texture, so all the sprites of a layer are one draw. Only the rectangle painted
 * since the last frame goes to the GPU. When a picture no longer fits, the owner starts the atlas
 * over (`clear`) with what it needs now: the slots handed out before are void then, which
 * `generation` tells.
 */
export class SpriteAtlas {
  readonly context: AnyContext
  private readonly slots = new Map<string, AtlasSlot>()
  private cursorX = 0
  private cursorY = 0
  private rowHeight = 0
  /** A picture found no room since the last `clear`. */
  private isFull = false
  /** Painted but not on the GPU yet: [x0, y0, x1, y1] in atlas pixels. */
  private pending: [number, number, number, number] | null = null
  private texture: Texture | null = null
  private device: Device | null = null
  /** Bumped by `clear`: every slot of an older generation is void. */
  generation = 0

  constructor(
    readonly width: number,
    readonly height: number,
    /** Atlas pixels per CSS pixel: pictures stay sharp on high-density screens. */
    readonly scale: number,
  ) {
    // Read back for each upload: a CPU-side canvas, so `getImageData` does not wait on a GPU.
    this.context = createCanvas(width, height).getContext('2d', {
      willReadFrequently: true,
    }) as AnyContext
  }

  /** The slot of `key` if its picture is painted already (nothing needs measuring for it). */
  knownSlot(key: string): AtlasSlot | undefined {
    return this.slots.get(key)
  }

  /**
   * The slot of `key`, painting it when new: `paint` draws in CSS pixels in a box of
   * `cssWidth` × `cssHeight` from (0, 0). Null when the atlas has no room left for it.
   */
  slotOf(
    key: string,
    cssWidth: number,
    cssHeight: number,
    paint: (context: AnyContext) => void,
  ): AtlasSlot | null {
    const known = this.slots.get(key)
    if (known) return known
    const width = Math.ceil(cssWidth * this.scale)
    const height = Math.ceil(cssHeight * this.scale)
    if (this.cursorX + width > this.width) {
      this.cursorX = 0
      this.cursorY += this.rowHeight + gapPixels
      this.rowHeight = 0
    }
    if (width > this.width) return null
    if (this.cursorY + height > this.height) {
      this.isFull = true
      return null
    }
    const x = this.cursorX
    const y = this.cursorY
    this.cursorX += width + gapPixels
    this.rowHeight = Math.max(this.rowHeight, height)
    const context = this.context
    context.save()
    context.translate(x, y)
    context.scale(this.scale, this.scale)
    context.beginPath()
    context.rect(0, 0, width / this.scale, height / this.scale)
    context.clip()
    paint(context)
    context.restore()
    this.markPending(x, y, x + width, y + height)
    const slot: AtlasSlot = {
      uv: [x / this.width, y / this.height, (x + width) / this.width, (y + height) / this.height],
      width: width / this.scale,
      height: height / this.scale,
    }
    this.slots.set(key, slot)
    return slot
  }

  /**
   * The slots of all `items`, or null for one that cannot be drawn (`slotOf` answers null for
   * it even in an empty atlas). A full atlas starts over once, with these items only.
   */
  slotsOf<Item>(
    items: readonly Item[],
    slotOfItem: (item: Item) => AtlasSlot | null,
  ): (AtlasSlot | null)[] {
    const slots = items.map(slotOfItem)
    if (!this.isFull) return slots
    this.clear()
    return items.map(slotOfItem)
  }

  /** Forgets every picture: the next slots are painted again from the top. */
  clear(): void {
    this.context.clearRect(0, 0, this.width, this.height)
    this.slots.clear()
    this.cursorX = 0
    this.cursorY = 0
    this.rowHeight = 0
    this.isFull = false
    this.generation++
    // Nothing is uploaded for the clearing: the old pictures stay on the GPU, unused, until new
    // ones (uploaded with the cleared pixels between them) cover them.
    this.pending = null
  }

  /** The atlas as a texture of `device`, with what was painted since the last call uploaded. */
  textureOn(device: Device): Texture {
    if (this.texture === null || this.device !== device) {
      this.texture?.destroy()
      this.texture = createClampedTexture(device, this.width, this.height)
      this.device = device
      // A new texture starts transparent: only the rows in use go up.
      const usedHeight = Math.min(this.height, this.cursorY + this.rowHeight)
      this.pending = usedHeight > 0 ? [0, 0, this.width, usedHeight] : null
    }
    if (this.pending) {
      const [x0, y0, x1, y1] = this.pending
      const width = x1 - x0
      const height = y1 - y0
      const { data } = this.context.getImageData(x0, y0, width, height)
      const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      this.texture.writeData(pixels, { x: x0, y: y0, width, height, bytesPerRow: width * 4 })
      this.pending = null
    }
    return this.texture
  }

  /** Frees the texture. */
  dispose(): void {
    this.texture?.destroy()
    this.texture = null
    this.device = null
  }

  private markPending(x0: number, y0: number, x1: number, y1: number): void {
    const pending = this.pending
    this.pending = pending
      ? [
          Math.min(pending[0], x0),
          Math.min(pending[1], y0),
          Math.max(pending[2], x1),
          Math.max(pending[3], y1),
        ]
      : [x0, y0, x1, y1]
  }
}
