import { type AnyContext, createCanvas } from '../../core/canvas-2d'
import { CanvasAtlas } from './canvas-atlas'
import type { QuadPicture } from './screen-quad-batch'

/** Pixels of one icon cell (the icon is drawn inside with a small margin). */
const CELL = 64
const COLUMNS = 16

/** Cells drawn by the engine itself, before the templates' icons. */
export const ICON_CELL = {
  cluster: 0,
  selectedRing: 1,
  hoveredRing: 2,
  fallback: 3,
  /** A white disc, tinted with a device status colour behind a marker (poi-statuses.ts). */
  statusDisc: 4,
} as const
const FIRST_TEMPLATE_CELL = 5

/**
 * One texture with every template's icon, so all 2D markers draw in one call. Each template
 * gets a cell when its look is set; the picture is fetched and drawn into it when it arrives
 * (until then, and if it fails, the cell shows a plain pin, so a POI never disappears because
 * of its picture). Cells of templates no longer used are reused.
 */
export class IconAtlas {
  // read back once per picture drawn (its trim), so kept on the CPU side
  readonly atlas = new CanvasAtlas(CELL * COLUMNS, CELL * COLUMNS)
  /** Pixels of a picture put in with `putPicture`: one cell. */
  readonly pictureSize = CELL
  private readonly cells = new Map<string, { cell: number; url: string }>()
  /** Cells of pictures the engine made (3D templates' stand-ins), by their owners' keys. */
  private readonly pictures = new Map<string, number>()
  private readonly freeCells: number[] = []
  private nextCell = FIRST_TEMPLATE_CELL
  private isDisposed = false
  /** Where a cell is painted a second time to find its trim (made when first needed). */
  private trimCanvas: AnyContext | null = null
  /** Per cell: its rect and the part of it its picture covers (made once, read every frame). */
  private readonly quadPictures: QuadPicture[] = Array.from(
    { length: COLUMNS * COLUMNS },
    (_, cell) => this.wholeCell(cell),
  )

  constructor(private readonly onLoaded: () => void) {
    this.drawBuiltIns()
  }

  /** What a quad shows of a cell: its texture rect, trimmed to the part its picture covers. */
  pictureOf(cell: number): QuadPicture {
    return this.quadPictures[cell]!
  }

  /** The cell of a template's icon, or the fallback pin when the template has no look. */
  cellOf(templateId: string): number {
    return this.cells.get(templateId)?.cell ?? ICON_CELL.fallback
  }

  /** Sets the icons in use: new ones load, unused cells are freed. */
  setIcons(icons: ReadonlyMap<string, string>): void {
    for (const [templateId, entry] of this.cells) {
      if (icons.get(templateId) === entry.url) continue
      this.cells.delete(templateId)
      this.freeCells.push(entry.cell)
    }
    for (const [templateId, url] of icons) {
      if (this.cells.has(templateId)) continue
      const cell = this.takeCell()
      if (cell === null) continue // more than 252 templates: the fallback pin
      this.cells.set(templateId, { cell, url })
      this.drawPin(cell, colourOf(templateId))
      void this.load(templateId, cell, url)
    }
    this.atlas.changed()
  }

  /**
   * Draws a picture the engine made (`pictureSize` square) into a cell kept for `key`: its cell,
   * or null when the atlas is full.
   */
  putPicture(key: string, picture: ImageData): number | null {
    const cell = this.pictures.get(key) ?? this.takeCell()
    if (cell === null) return null
    this.pictures.set(key, cell)
    const { x, y } = this.origin(cell)
    this.atlas.context.putImageData(picture, x, y)
    this.quadPictures[cell] = { ...this.wholeCell(cell), trim: trimOf(picture) }
    this.atlas.changed()
    return cell
  }

  /** Frees the cell of a picture no longer drawn. */
  dropPicture(key: string): void {
    const cell = this.pictures.get(key)
    if (cell === undefined) return
    this.pictures.delete(key)
    this.freeCells.push(cell)
  }

  /** Frees the texture; pictures still loading are dropped. */
  dispose(): void {
    this.isDisposed = true
    this.atlas.dispose()
  }

  private async load(templateId: string, cell: number, url: string): Promise<void> {
    try {
      if (!url) return
      const response = await fetch(url)
      if (!response.ok) return
      const bitmap = await createImageBitmap(await response.blob())
      const isCurrent = this.cells.get(templateId)?.cell === cell && !this.isDisposed
      if (isCurrent) {
        const scale = Math.min((CELL - 8) / bitmap.width, (CELL - 8) / bitmap.height)
        const width = bitmap.width * scale
        const height = bitmap.height * scale
        this.drawCell(cell, (context, x, y) =>
          context.drawImage(bitmap, x + (CELL - width) / 2, y + (CELL - height) / 2, width, height),
        )
        this.onLoaded()
      }
      bitmap.close()
    } catch {
      // A picture that cannot be fetched or decoded keeps the pin.
    }
  }

  /** A free cell, or null when all are taken. */
  private takeCell(): number | null {
    const cell = this.freeCells.pop() ?? this.nextCell
    if (cell >= COLUMNS * COLUMNS) return null
    if (cell === this.nextCell) this.nextCell++
    return cell
  }

  private origin(cell: number): { x: number; y: number } {
    return { x: (cell % COLUMNS) * CELL, y: Math.floor(cell / COLUMNS) * CELL }
  }

  /** A cell's texture rect, drawn whole. */
  private wholeCell(cell: number): QuadPicture {
    const { x, y } = this.origin(cell)
    // Half a pixel in, so linear filtering never samples the neighbour.
    return { rect: this.atlas.rect(x + 0.5, y + 0.5, CELL - 1, CELL - 1) }
  }

  /**
   * Draws a cell anew (`paint` draws with the cell's top left at x, y) and trims its quads to
   * what was drawn. The trim is read from a copy painted on a small canvas of its own: reading
   * the atlas back would make the browser keep the atlas off the GPU, which can change how its
   * edges are smoothed.
   */
  private drawCell(cell: number, paint: (context: AnyContext, x: number, y: number) => void): void {
    const { x, y } = this.origin(cell)
    this.atlas.context.clearRect(x, y, CELL, CELL)
    paint(this.atlas.context, x, y)
    this.trimCanvas ??= createCanvas(CELL, CELL).getContext('2d', {
      willReadFrequently: true,
    }) as AnyContext
    const copy = this.trimCanvas
    copy.clearRect(0, 0, CELL, CELL)
    paint(copy, 0, 0)
    this.quadPictures[cell] = {
      ...this.wholeCell(cell),
      trim: trimOf(copy.getImageData(0, 0, CELL, CELL)),
    }
    this.atlas.changed()
  }

  private drawBuiltIns(): void {
    const disc = (cell: number, fill: string, radius: number) =>
      this.drawCell(cell, (context, x, y) => {
        context.beginPath()
        context.arc(x + CELL / 2, y + CELL / 2, radius, 0, Math.PI * 2)
        context.fillStyle = fill
        context.fill()
        context.lineWidth = 4
        context.strokeStyle = '#ffffff'
        context.stroke()
      })
    disc(ICON_CELL.cluster, '#1565c0', CELL / 2 - 4)
    disc(ICON_CELL.statusDisc, '#ffffff', CELL / 2 - 4)
    const ring = (cell: number, colour: string) =>
      this.drawCell(cell, (context, x, y) => {
        context.beginPath()
        context.arc(x + CELL / 2, y + CELL / 2, CELL / 2 - 5, 0, Math.PI * 2)
        context.lineWidth = 7
        context.strokeStyle = colour
        context.stroke()
      })
    ring(ICON_CELL.selectedRing, '#ff9800')
    ring(ICON_CELL.hoveredRing, '#ffffff')
    this.drawPin(ICON_CELL.fallback, '#e53935')
  }

  /** A round pin in a colour: drawn until (or instead of) the template's picture. */
  private drawPin(cell: number, colour: string): void {
    this.drawCell(cell, (context, x, y) => {
      context.beginPath()
      context.arc(x + CELL / 2, y + CELL / 2, CELL / 2 - 8, 0, Math.PI * 2)
      context.fillStyle = colour
      context.fill()
      context.lineWidth = 5
      context.strokeStyle = '#ffffff'
      context.stroke()
    })
  }
}

/**
 * The part of a cell's picture (`CELL` pixels square) that a quad must cover, as fractions of
 * the cell's rect (which starts half a pixel in): every pixel with any alpha, plus the reach of
 * linear filtering, so the trimmed quad draws exactly what the whole one showed.
 */
export function trimOf(picture: ImageData): [number, number, number, number] {
  const { width, height, data } = picture
  let left = width
  let top = height
  let right = -1
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] === 0) continue
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      bottom = y
    }
  }
  if (right < 0) return [0, 0, 0, 0]
  // A sample a pixel or less beyond the outermost coloured pixel still blends some of it in.
  const fraction = (edge: number, size: number) =>
    Math.min(1, Math.max(0, (edge - 0.5) / (size - 1)))
  return [
    fraction(left - 1, width),
    fraction(top - 1, height),
    fraction(right + 2, width),
    fraction(bottom + 2, height),
  ]
}

/** A stable colour per template, so pins of different templates tell apart. */
function colourOf(templateId: string): string {
  let hash = 0
  for (let index = 0; index < templateId.length; index++) {
    hash = (hash * 31 + templateId.charCodeAt(index)) | 0
  }
  return `hsl(${Math.abs(hash) % 360}, 70%, 45%)`
}
