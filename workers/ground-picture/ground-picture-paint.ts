/**
 * Painting the city's saved drawings into one picture of the ground (issue 18's drawing
 * frames), on the ground-picture worker: the page's thread only plans the picture and uploads
 * its pixels (engine/city/draw/ground-picture.ts).
 *
 * Coordinates here are Web Mercator "world" units: the world is 1 × 1, x east from the
 * antimeridian, y south from the north edge (MapLibre's MercatorCoordinate).
 */

/** A rectangle of the world: west, north, east, south (x0 < x1, y0 < y1). */
export type WorldBox = readonly [x0: number, y0: number, x1: number, y1: number]

/** One polyline in pixels: closed for an area's outline. */
export interface PlainLine {
  path: readonly (readonly number[])[]
  /** RGBA, 0–255. */
  color: readonly number[]
  widthPixels: number
  isClosed?: boolean
}

/** One dot in pixels, with a ring around it. */
export interface PlainDot {
  position: readonly number[]
  /** RGBA, 0–255. */
  fillColor: readonly number[]
  lineColor: readonly number[]
  radiusPixels: number
  lineWidthPixels: number
}

/** The drawings as the layers take them: fills, lines (outlines and paths) and dots. */
export interface GroundDrawings {
  fills: { ring: readonly (readonly number[])[]; color: readonly number[] }[]
  lines: PlainLine[]
  dots: PlainDot[]
}

/** A picture of the ground, its first row to the north, and where it lies. */
export interface GroundPicture {
  /** West, south, east, north, degrees. */
  bounds: readonly [number, number, number, number]
  width: number
  height: number
  /** Premultiplied RGBA. */
  pixels: Uint8Array
  /**
   * The parts of the picture with something drawn, as rectangles of texels (x0, y0, x1, y1,
   * the ends excluded; rows from the north), four numbers each: every texel that is not clear
   * is in one of them (see {@link drawnSpansOf}).
   */
  drawnSpans: Uint32Array
}

/** Texels on a side of the squares the picture's drawn parts are made of. */
export const drawnTileTexels = 32

/**
 * Drawn parts covering at least this share of the picture are drawn as one quad over all of it:
 * on a software GPU many parts over a full picture cost more than one quad (a 1,160² picture
 * with 1,000 areas: 18–26 ms a frame against 20–23 ms, load 7–11), probably because the pixels
 * along each part's edges are shaded for both sides (in 2 × 2 blocks, for the mipmaps'
 * derivatives).
 */
export const wholePictureShare = 0.75

/**
 * The parts of a premultiplied RGBA picture where something is drawn: its squares of
 * {@link drawnTileTexels} with any texel not clear, each row's neighbours joined into one
 * rectangle, or the whole picture when they cover most of it ({@link wholePictureShare}). On a software GPU every pixel the picture's quad covers costs about as much as the
 * whole map's background; drawn only over these, the ground between the drawings costs nothing.
 */
export function drawnSpansOf(pixels: Uint8Array, width: number, height: number): Uint32Array {
  const tile = drawnTileTexels
  const columns = Math.ceil(width / tile)
  const rows = Math.ceil(height / tile)
  const isDrawn = new Uint8Array(columns * rows)
  for (let y = 0; y < height; y++) {
    const rowStart = Math.floor(y / tile) * columns
    for (let x = 0, index = y * width * 4 + 3; x < width; x++, index += 4)
      if (pixels[index] !== 0) isDrawn[rowStart + Math.floor(x / tile)] = 1
  }
  const spans: number[] = []
  let drawnTexels = 0
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      if (!isDrawn[row * columns + column]) continue
      const first = column
      while (column + 1 < columns && isDrawn[row * columns + column + 1]) column++
      const x1 = Math.min(width, (column + 1) * tile)
      const y1 = Math.min(height, (row + 1) * tile)
      spans.push(first * tile, row * tile, x1, y1)
      drawnTexels += (x1 - first * tile) * (y1 - row * tile)
    }
  }
  if (drawnTexels >= wholePictureShare * width * height)
    return Uint32Array.from([0, 0, width, height])
  return Uint32Array.from(spans)
}

/** The picture's scale: world units a texel, and a CSS pixel of the map's zoom (line widths). */
export interface PictureScale {
  texel: number
  pixel: number
}

export function worldOf([lng, lat]: readonly number[]): [number, number] {
  const sin = Math.sin(((lat ?? 0) * Math.PI) / 180)
  const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)
  return [((lng ?? 0) + 180) / 360, y]
}

export function lngLatOfWorld([x, y]: readonly [number, number]): [number, number] {
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI
  return [x * 360 - 180, lat]
}

const cssColor = (rgba: readonly number[]) =>
  `rgba(${rgba[0] ?? 0},${rgba[1] ?? 0},${rgba[2] ?? 0},${(rgba[3] ?? 255) / 255})`

/**
 * Paints drawings into a picture of `region` at `texel`, as the plain layers draw them:
 * fills, then outlines and paths (square caps), then dots with their ring; a pixel width is
 * `pixel` of the ground, as deck's `project_pixel_size` makes it on the ground.
 */
export function paintGroundPicture(
  drawings: GroundDrawings,
  region: WorldBox,
  { texel, pixel }: PictureScale,
): GroundPicture {
  const width = Math.max(1, Math.round((region[2] - region[0]) / texel))
  const height = Math.max(1, Math.round((region[3] - region[1]) / texel))
  const canvas = new OffscreenCanvas(width, height)
  // Painted by the CPU: an accelerated canvas on a software GPU (SwiftShader) takes ~10× as
  // long to give its pixels back, and they are read back once, here.
  const context = canvas.getContext('2d', { willReadFrequently: true })!
  const texelsPerPixel = pixel / texel
  const trace = (points: readonly (readonly number[])[]) => {
    context.beginPath()
    for (const point of points) {
      const [x, y] = worldOf(point)
      context.lineTo((x - region[0]) / texel, (y - region[1]) / texel)
    }
  }
  for (const fill of drawings.fills) {
    trace(fill.ring)
    context.closePath()
    context.fillStyle = cssColor(fill.color)
    context.fill()
  }
  context.lineCap = 'square'
  context.lineJoin = 'miter'
  context.miterLimit = 2
  for (const line of drawings.lines) {
    trace(line.path)
    if (line.isClosed) context.closePath()
    context.strokeStyle = cssColor(line.color)
    context.lineWidth = line.widthPixels * texelsPerPixel
    context.stroke()
  }
  for (const dot of drawings.dots) {
    const [x, y] = worldOf(dot.position)
    context.beginPath()
    context.arc(
      (x - region[0]) / texel,
      (y - region[1]) / texel,
      dot.radiusPixels * texelsPerPixel,
      0,
      Math.PI * 2,
    )
    context.fillStyle = cssColor(dot.fillColor)
    context.fill()
    context.strokeStyle = cssColor(dot.lineColor)
    context.lineWidth = dot.lineWidthPixels * texelsPerPixel
    context.stroke()
  }
  const { data } = context.getImageData(0, 0, width, height)
  // Premultiplied, so that filtering between a drawing's edge and the clear ground around it
  // does not darken the edge (the shader divides the alpha out again).
  for (let index = 0; index < data.length; index += 4) {
    const opacity = data[index + 3]! / 255
    data[index] = data[index]! * opacity
    data[index + 1] = data[index + 1]! * opacity
    data[index + 2] = data[index + 2]! * opacity
  }
  const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
  const [west, north] = lngLatOfWorld([region[0], region[1]])
  const [east, south] = lngLatOfWorld([region[2], region[3]])
  return {
    bounds: [west, south, east, north],
    width,
    height,
    pixels,
    drawnSpans: drawnSpansOf(pixels, width, height),
  }
}
