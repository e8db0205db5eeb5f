import type { GroundDrawings } from './ground-picture-paint'

/**
 * The drawings of a ground picture as a few flat arrays, for the trip to the ground-picture
 * worker. As plain objects, 1,000 areas and 1,000 paths are some 25,000 small arrays that the
 * page's thread copies one by one when it posts them (a structured clone: the longest part of
 * its work when the drawings change, after the shapes' outlines); flat, they are packed in one
 * pass and their buffers handed over without a copy.
 */
export interface PackedDrawings {
  fillCount: number
  lineCount: number
  dotCount: number
  /** Longitude, latitude of every fill's ring, then every line's path, then every dot. */
  coordinates: Float64Array
  /** Points of each fill's ring, then of each line's path. */
  pointCounts: Uint32Array
  /** RGBA 0–255: each fill's, each line's, then each dot's fill and ring colours. */
  colors: Uint8ClampedArray
  /** Each line's width, then each dot's radius and ring width, pixels. */
  sizes: Float32Array
  /** 1 for a line that is an area's closed outline. */
  closedLines: Uint8Array
}

/** Packs `drawings`; the buffers to transfer are {@link transferablesOf}. */
export function packDrawings(drawings: GroundDrawings): PackedDrawings {
  const { fills, lines, dots } = drawings
  let pointTotal = dots.length
  for (const fill of fills) pointTotal += fill.ring.length
  for (const line of lines) pointTotal += line.path.length
  const coordinates = new Float64Array(pointTotal * 2)
  const pointCounts = new Uint32Array(fills.length + lines.length)
  const colors = new Uint8ClampedArray((fills.length + lines.length + dots.length * 2) * 4)
  const sizes = new Float32Array(lines.length + dots.length * 2)
  const closedLines = new Uint8Array(lines.length)
  let point = 0
  let color = 0
  const putPoint = (position: readonly number[]) => {
    coordinates[point++] = position[0] ?? 0
    coordinates[point++] = position[1] ?? 0
  }
  const putColor = (rgba: readonly number[]) => {
    for (let channel = 0; channel < 4; channel++) colors[color++] = rgba[channel] ?? 255
  }
  fills.forEach((fill, index) => {
    pointCounts[index] = fill.ring.length
    for (const position of fill.ring) putPoint(position)
    putColor(fill.color)
  })
  lines.forEach((line, index) => {
    pointCounts[fills.length + index] = line.path.length
    for (const position of line.path) putPoint(position)
    putColor(line.color)
    sizes[index] = line.widthPixels
    closedLines[index] = line.isClosed ? 1 : 0
  })
  dots.forEach((dot, index) => {
    putPoint(dot.position)
    putColor(dot.fillColor)
    putColor(dot.lineColor)
    sizes[lines.length + index * 2] = dot.radiusPixels
    sizes[lines.length + index * 2 + 1] = dot.lineWidthPixels
  })
  return {
    fillCount: fills.length,
    lineCount: lines.length,
    dotCount: dots.length,
    coordinates,
    pointCounts,
    colors,
    sizes,
    closedLines,
  }
}

/** The buffers of `packed`, handed over to the worker rather than copied. */
export function transferablesOf(packed: PackedDrawings): ArrayBuffer[] {
  return [
    packed.coordinates.buffer,
    packed.pointCounts.buffer,
    packed.colors.buffer,
    packed.sizes.buffer,
    packed.closedLines.buffer,
  ] as ArrayBuffer[]
}

/** The drawings `packed` holds, as {@link packDrawings} was given them. */
export function unpackDrawings(packed: PackedDrawings): GroundDrawings {
  const { coordinates, pointCounts, colors, sizes, closedLines } = packed
  let point = 0
  let color = 0
  const takePoints = (count: number) => {
    const points: [number, number][] = []
    for (let index = 0; index < count; index++, point += 2)
      points.push([coordinates[point]!, coordinates[point + 1]!])
    return points
  }
  const takeColor = () => {
    const rgba = Array.from(colors.subarray(color, color + 4))
    color += 4
    return rgba
  }
  const drawings: GroundDrawings = { fills: [], lines: [], dots: [] }
  for (let index = 0; index < packed.fillCount; index++)
    drawings.fills.push({ ring: takePoints(pointCounts[index]!), color: takeColor() })
  for (let index = 0; index < packed.lineCount; index++) {
    const path = takePoints(pointCounts[packed.fillCount + index]!)
    drawings.lines.push({
      path,
      color: takeColor(),
      widthPixels: sizes[index]!,
      ...(closedLines[index] ? { isClosed: true } : {}),
    })
  }
  for (let index = 0; index < packed.dotCount; index++) {
    const [position] = takePoints(1)
    drawings.dots.push({
      position: position!,
      fillColor: takeColor(),
      lineColor: takeColor(),
      radiusPixels: sizes[packed.lineCount + index * 2]!,
      lineWidthPixels: sizes[packed.lineCount + index * 2 + 1]!,
    })
  }
  return drawings
}
