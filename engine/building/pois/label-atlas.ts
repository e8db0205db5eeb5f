import { CanvasAtlas } from './canvas-atlas'

/** Drawn at twice the CSS size, so labels stay sharp on high-density screens. */
const SCALE = 2
const FONT_PX = 13
const ROW_CSS = 20
const PADDING_CSS = 6
const MAX_WIDTH_CSS = 180

/** Where a label is in the atlas and how big it is on screen (CSS pixels). */
export interface LabelSlot {
  rect: [number, number, number, number]
  width: number
  height: number
}

/**
 * The texts of the labels drawn this session, rendered once each into one canvas texture
 * (white on a dark pill, readable over any model) and packed in rows. When the canvas is full
 * it is cleared and refilled with the labels asked for from then on: only the labels on screen
 * matter, and those are few after decluttering.
 */
export class LabelAtlas {
  readonly atlas = new CanvasAtlas(2048, 1024)
  private readonly slots = new Map<string, LabelSlot>()
  private cursorX = 0
  private cursorY = 0

  /** The slot of a text, drawing it when new; null if it does not fit even an empty atlas. */
  slotOf(text: string): LabelSlot | null {
    const known = this.slots.get(text)
    if (known) return known
    const context = this.atlas.context
    context.font = `${FONT_PX * SCALE}px sans-serif`
    const textWidth = Math.min(context.measureText(text).width, MAX_WIDTH_CSS * SCALE)
    const width = Math.ceil(textWidth + PADDING_CSS * 2 * SCALE)
    const height = ROW_CSS * SCALE
    if (this.cursorX + width > this.atlas.width) {
      this.cursorX = 0
      this.cursorY += height + 2
    }
    if (this.cursorY + height > this.atlas.height) this.clear()
    const x = this.cursorX
    const y = this.cursorY
    this.cursorX += width + 2
    context.fillStyle = 'rgba(24, 28, 36, 0.82)'
    context.beginPath()
    context.roundRect(x, y, width, height, height / 2)
    context.fill()
    context.fillStyle = '#ffffff'
    context.textBaseline = 'middle'
    context.fillText(text, x + PADDING_CSS * SCALE, y + height / 2, MAX_WIDTH_CSS * SCALE)
    this.atlas.changed()
    const slot: LabelSlot = {
      rect: this.atlas.rect(x, y, width, height),
      width: width / SCALE,
      height: height / SCALE,
    }
    this.slots.set(text, slot)
    return slot
  }

  /** Frees the texture. */
  dispose(): void {
    this.atlas.dispose()
  }

  private clear(): void {
    this.atlas.context.clearRect(0, 0, this.atlas.width, this.atlas.height)
    this.slots.clear()
    this.cursorX = 0
    this.cursorY = 0
  }
}
