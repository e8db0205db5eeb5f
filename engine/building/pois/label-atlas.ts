import {
  Box2,
  DataTexture,
  LinearFilter,
  RGBAFormat,
  UnsignedByteType,
  Vector2,
  type WebGLRenderer,
} from 'three'
import { CanvasAtlas } from './canvas-atlas'

/** Drawn at twice the CSS size, so labels stay sharp on high-density screens. */
const SCALE = 2
const FONT_PX = 13
const ROW_CSS = 20
const PADDING_CSS = 6
const MAX_WIDTH_CSS = 180
const WIDTH = 2048
const HEIGHT = 1024

/** Where a label is in the atlas and how big it is on screen (CSS pixels). */
export interface LabelSlot {
  rect: [number, number, number, number]
  width: number
  height: number
}

/**
 * The texts of the labels drawn this session, rendered once each (white on a dark pill,
 * readable over any model) and packed in rows of one texture. A new label is drawn on a 2D
 * canvas and only its own rectangle goes to the GPU, in one upload (`upload`, before the frame
 * that shows it): re-uploading the whole 8 MB atlas for every new label made an orbit crawl, and
 * an update range per pixel row (40 uploads a label) still cost SwiftShader, the software GPU of
 * CI and of machines without a GPU, several milliseconds a frame (issue 16, P9). When the atlas
 * is full it starts over with the labels asked for from then on (those on screen, few after
 * decluttering); the old labels' pixels stay on the GPU, unused, until new ones cover them, so
 * starting over uploads nothing. The pixels are kept here too, so a full upload (the first, or
 * after a lost context) holds every label in use.
 */
export class LabelAtlas {
  private readonly canvas = new CanvasAtlas(WIDTH, HEIGHT, true)
  private readonly pixels = new Uint8Array(WIDTH * HEIGHT * 4)
  readonly texture = new DataTexture(this.pixels, WIDTH, HEIGHT, RGBAFormat, UnsignedByteType)
  private readonly slots = new Map<string, LabelSlot>()
  private cursorX = 0
  private cursorY = 0
  /** Drawn but not yet on the GPU: x, y, width, height in atlas pixels. */
  private pending: number[] = []
  /** The atlas's pixels as the source of a rect upload (never bound: three copies from memory). */
  private readonly source = new DataTexture(
    this.pixels,
    WIDTH,
    HEIGHT,
    RGBAFormat,
    UnsignedByteType,
  )
  private readonly region = new Box2()
  private readonly at = new Vector2()
  /** No room is left: the atlas starts over at the next frame, not under this frame's labels. */
  private full = false

  constructor() {
    this.texture.minFilter = LinearFilter
    this.texture.magFilter = LinearFilter
    this.texture.generateMipmaps = false
    this.texture.needsUpdate = true
    // A full upload (the first, or after a lost context) carries every label drawn so far.
    this.texture.onUpdate = () => {
      this.pending.length = 0
    }
  }

  /** The slot of a text if it is drawn already. */
  known(text: string): LabelSlot | undefined {
    return this.slots.get(text)
  }

  /** Whether new labels wait for the next frame (the atlas starts over then). */
  get isFull(): boolean {
    return this.full
  }

  /** Starts a frame's labels: a full atlas starts over now, before any of them points into it. */
  startFrame(): void {
    if (this.full) this.clear()
  }

  /** The slot of a text, drawing it when new; null while the atlas is full (see `startFrame`). */
  slotOf(text: string): LabelSlot | null {
    const known = this.slots.get(text)
    if (known) return known
    if (this.full) return null
    const context = this.canvas.context
    context.font = `${FONT_PX * SCALE}px sans-serif`
    const textWidth = Math.min(context.measureText(text).width, MAX_WIDTH_CSS * SCALE)
    const width = Math.ceil(textWidth + PADDING_CSS * 2 * SCALE)
    const height = ROW_CSS * SCALE
    if (this.cursorX + width > WIDTH) {
      this.cursorX = 0
      this.cursorY += height + 2
    }
    if (this.cursorY + height > HEIGHT) {
      this.full = true
      return null
    }
    const x = this.cursorX
    const y = this.cursorY
    this.cursorX += width + 2
    context.clearRect(x, y, width, height)
    context.fillStyle = 'rgba(24, 28, 36, 0.82)'
    context.beginPath()
    context.roundRect(x, y, width, height, height / 2)
    context.fill()
    context.fillStyle = '#ffffff'
    context.textBaseline = 'middle'
    context.fillText(text, x + PADDING_CSS * SCALE, y + height / 2, MAX_WIDTH_CSS * SCALE)
    this.keep(x, y, width, height)
    const slot: LabelSlot = {
      rect: this.canvas.rect(x, y, width, height),
      width: width / SCALE,
      height: height / SCALE,
    }
    this.slots.set(text, slot)
    return slot
  }

  /** Puts the labels drawn since the last call on the GPU, one upload each; before a render. */
  upload(renderer: WebGLRenderer): void {
    const pending = this.pending
    for (let at = 0; at < pending.length; at += 4) {
      const x = pending[at]!
      const y = pending[at + 1]!
      this.region.min.set(x, y)
      this.region.max.set(x + pending[at + 2]!, y + pending[at + 3]!)
      // copies the rect from `pixels` (the source was never uploaded): texSubImage2D of the rect
      renderer.copyTextureToTexture(this.source, this.texture, this.region, this.at.set(x, y))
    }
    pending.length = 0
  }

  /** Frees the texture. */
  dispose(): void {
    this.texture.dispose()
  }

  /** Copies a drawn rect into the atlas's pixels and queues it for upload. */
  private keep(x: number, y: number, width: number, height: number): void {
    const image = this.canvas.context.getImageData(x, y, width, height).data
    for (let row = 0; row < height; row++) {
      const start = ((y + row) * WIDTH + x) * 4
      this.pixels.set(image.subarray(row * width * 4, (row + 1) * width * 4), start)
    }
    this.pending.push(x, y, width, height)
  }

  private clear(): void {
    this.canvas.context.clearRect(0, 0, WIDTH, HEIGHT)
    this.pixels.fill(0)
    this.pending.length = 0
    this.full = false
    this.slots.clear()
    this.cursorX = 0
    this.cursorY = 0
  }
}
