import { DataTexture, LinearFilter, RGBAFormat, UnsignedByteType } from 'three'
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
 * canvas and only its own rows of pixels go to the GPU (a `DataTexture` with update ranges):
 * re-uploading the whole 8 MB atlas for every new label made an orbit crawl. When the atlas is
 * full it starts over with the labels asked for from then on (those on screen, few after
 * decluttering).
 */
export class LabelAtlas {
  private readonly canvas = new CanvasAtlas(WIDTH, HEIGHT, true)
  private readonly pixels = new Uint8Array(WIDTH * HEIGHT * 4)
  readonly texture = new DataTexture(this.pixels, WIDTH, HEIGHT, RGBAFormat, UnsignedByteType)
  private readonly slots = new Map<string, LabelSlot>()
  private cursorX = 0
  private cursorY = 0
  /** After a clear the whole texture goes up once; ranges would upload only part of it. */
  private needsFullUpload = false

  constructor() {
    this.texture.minFilter = LinearFilter
    this.texture.magFilter = LinearFilter
    this.texture.generateMipmaps = false
    this.texture.needsUpdate = true
    this.texture.onUpdate = () => {
      this.needsFullUpload = false
    }
  }

  /** The slot of a text if it is drawn already. */
  known(text: string): LabelSlot | undefined {
    return this.slots.get(text)
  }

  /** The slot of a text, drawing it when new; null if it does not fit even an empty atlas. */
  slotOf(text: string): LabelSlot | null {
    const known = this.slots.get(text)
    if (known) return known
    const context = this.canvas.context
    context.font = `${FONT_PX * SCALE}px sans-serif`
    const textWidth = Math.min(context.measureText(text).width, MAX_WIDTH_CSS * SCALE)
    const width = Math.ceil(textWidth + PADDING_CSS * 2 * SCALE)
    const height = ROW_CSS * SCALE
    if (this.cursorX + width > WIDTH) {
      this.cursorX = 0
      this.cursorY += height + 2
    }
    if (this.cursorY + height > HEIGHT) this.clear()
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
    this.upload(x, y, width, height)
    const slot: LabelSlot = {
      rect: this.canvas.rect(x, y, width, height),
      width: width / SCALE,
      height: height / SCALE,
    }
    this.slots.set(text, slot)
    return slot
  }

  /** Frees the texture. */
  dispose(): void {
    this.texture.dispose()
  }

  /** Copies a drawn rect into the texture's pixels and marks only its rows for upload. */
  private upload(x: number, y: number, width: number, height: number): void {
    const image = this.canvas.context.getImageData(x, y, width, height).data
    for (let row = 0; row < height; row++) {
      const start = ((y + row) * WIDTH + x) * 4
      this.pixels.set(image.subarray(row * width * 4, (row + 1) * width * 4), start)
      if (!this.needsFullUpload) this.texture.addUpdateRange(start, width * 4)
    }
    this.texture.needsUpdate = true
  }

  private clear(): void {
    this.canvas.context.clearRect(0, 0, WIDTH, HEIGHT)
    this.pixels.fill(0)
    this.texture.clearUpdateRanges()
    this.texture.needsUpdate = true
    this.needsFullUpload = true
    this.slots.clear()
    this.cursorX = 0
    this.cursorY = 0
  }
}
