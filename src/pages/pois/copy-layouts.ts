import type { Vector3Tuple } from '../../../engine/api'

/**
 * POI copy and model copy layouts (SPEC §9 "Copy layouts: default, single row, single column,
 * array, multi-layer array. Each takes a count, row/column/layer numbers and spacing"). One pure
 * function places the copies; the ghost preview (`setPoiGhosts`) and the `creatPoiList` call
 * both use it, so what is previewed is what is created.
 *
 * Offsets are worked out in metres in a local frame (east, north, up) and then turned into the
 * scene's coordinates: the city's WGS84 degrees at each POI's own latitude, or the building's
 * y-up scene metres (east → x, north → −z, up → y, as the GML placement maps a file's axes).
 */

/** The five layouts, in the order the copy dialog offers them. */
export const copyLayoutKinds = [
  'default',
  'singleRow',
  'singleColumn',
  'array',
  'multiLayerArray',
] as const

/** One of {@link copyLayoutKinds}. */
export type CopyLayoutKind = (typeof copyLayoutKinds)[number]

/**
 * A layout and its numbers. `count` is the number of copies (the original is not counted);
 * `rows`/`columns`/`layers` are the grid's size with the original in its first cell, so a
 * 4 × 3 × 2 multi-layer array adds 23 copies beside the original. Spacings are metres.
 */
export type CopyLayout =
  /** Copies stepped diagonally (east and north by `spacingMeters`), like a paste with offset. */
  | { kind: 'default'; count: number; spacingMeters: number }
  /** Copies in a row to the east. */
  | { kind: 'singleRow'; count: number; spacingMeters: number }
  /** Copies in a column to the north. */
  | { kind: 'singleColumn'; count: number; spacingMeters: number }
  /** Rows run north, columns east. */
  | {
      kind: 'array'
      rows: number
      columns: number
      rowSpacingMeters: number
      columnSpacingMeters: number
    }
  /** An array repeated upwards in layers. */
  | {
      kind: 'multiLayerArray'
      rows: number
      columns: number
      layers: number
      rowSpacingMeters: number
      columnSpacingMeters: number
      layerSpacingMeters: number
    }

/**
 * Limits of one copy: per count/size field, on the copies of one POI, and the spacing range.
 * 10,000 keeps the ghost preview responsive and a copy of a selection far below the server's
 * per-call list limit.
 */
export const copyLimits = {
  maxPerField: 1000,
  maxCopies: 10_000,
  maxSpacingMeters: 10_000,
} as const

/** A layout whose every count is 1 copy/cell and every spacing a sensible default, per kind. */
export function defaultCopyLayout(kind: CopyLayoutKind): CopyLayout {
  switch (kind) {
    case 'default':
    case 'singleRow':
    case 'singleColumn':
      return { kind, count: 1, spacingMeters: 2 }
    case 'array':
      return { kind, rows: 2, columns: 2, rowSpacingMeters: 2, columnSpacingMeters: 2 }
    case 'multiLayerArray':
      return {
        kind,
        rows: 2,
        columns: 2,
        layers: 2,
        rowSpacingMeters: 2,
        columnSpacingMeters: 2,
        layerSpacingMeters: 3,
      }
  }
}

/** A copy's displacement from its original, metres in the local east/north/up frame. */
export interface CopyOffset {
  eastMeters: number
  northMeters: number
  upMeters: number
}

/** What is wrong with a layout, as field name → problem; empty when it can be used. */
export type CopyLayoutIssues = Partial<Record<string, 'wholeNumber' | 'range' | 'tooMany'>>

/** The fields of a layout that hold counts (whole numbers ≥ 1) and spacings (metres). */
function fieldsOf(layout: CopyLayout): { counts: string[]; spacings: string[] } {
  switch (layout.kind) {
    case 'default':
    case 'singleRow':
    case 'singleColumn':
      return { counts: ['count'], spacings: ['spacingMeters'] }
    case 'array':
      return {
        counts: ['rows', 'columns'],
        spacings: ['rowSpacingMeters', 'columnSpacingMeters'],
      }
    case 'multiLayerArray':
      return {
        counts: ['rows', 'columns', 'layers'],
        spacings: ['rowSpacingMeters', 'columnSpacingMeters', 'layerSpacingMeters'],
      }
  }
}

/**
 * Checks a layout: counts are whole numbers from 1 to `maxPerField` (an array may be 1 × 1 only
 * if it adds nothing, which counts as too few), spacings are finite and within
 * ±`maxSpacingMeters` (negative spacing lays the copies out west/south/down), and the copies of
 * one POI stay within `maxCopies`. The `copies` key reports the total.
 */
export function validateCopyLayout(layout: CopyLayout): CopyLayoutIssues {
  const issues: CopyLayoutIssues = {}
  const values = layout as unknown as Record<string, number>
  const { counts, spacings } = fieldsOf(layout)
  for (const field of counts) {
    const value = values[field] ?? Number.NaN
    if (!Number.isInteger(value)) issues[field] = 'wholeNumber'
    else if (value < 1 || value > copyLimits.maxPerField) issues[field] = 'range'
  }
  for (const field of spacings) {
    const value = values[field] ?? Number.NaN
    if (!Number.isFinite(value) || Math.abs(value) > copyLimits.maxSpacingMeters)
      issues[field] = 'range'
  }
  if (Object.keys(issues).length === 0) {
    const total = copyCount(layout)
    if (total < 1) issues.copies = 'range'
    else if (total > copyLimits.maxCopies) issues.copies = 'tooMany'
  }
  return issues
}

/** How many copies of one POI a layout makes (the original's cell excluded). */
export function copyCount(layout: CopyLayout): number {
  switch (layout.kind) {
    case 'default':
    case 'singleRow':
    case 'singleColumn':
      return layout.count
    case 'array':
      return layout.rows * layout.columns - 1
    case 'multiLayerArray':
      return layout.rows * layout.columns * layout.layers - 1
  }
}

/**
 * The offsets of the copies of one POI, in a stable order (layer by layer, row by row, east
 * along each row). The original's own cell (0, 0, 0) is never in the list. Throws on a layout
 * {@link validateCopyLayout} refuses, so a bad layout can never reach the server.
 */
export function copyOffsets(layout: CopyLayout): CopyOffset[] {
  const issues = validateCopyLayout(layout)
  if (Object.keys(issues).length > 0)
    throw new RangeError(`Invalid copy layout: ${JSON.stringify(issues)}`)
  const offsets: CopyOffset[] = []
  switch (layout.kind) {
    case 'default':
      for (let index = 1; index <= layout.count; index++) {
        const step = index * layout.spacingMeters
        offsets.push({ eastMeters: step, northMeters: step, upMeters: 0 })
      }
      return offsets
    case 'singleRow':
      for (let index = 1; index <= layout.count; index++)
        offsets.push({ eastMeters: index * layout.spacingMeters, northMeters: 0, upMeters: 0 })
      return offsets
    case 'singleColumn':
      for (let index = 1; index <= layout.count; index++)
        offsets.push({ eastMeters: 0, northMeters: index * layout.spacingMeters, upMeters: 0 })
      return offsets
    case 'array':
    case 'multiLayerArray': {
      const layers = layout.kind === 'multiLayerArray' ? layout.layers : 1
      const layerSpacing = layout.kind === 'multiLayerArray' ? layout.layerSpacingMeters : 0
      for (let layer = 0; layer < layers; layer++)
        for (let row = 0; row < layout.rows; row++)
          for (let column = 0; column < layout.columns; column++) {
            if (layer === 0 && row === 0 && column === 0) continue
            offsets.push({
              eastMeters: column * layout.columnSpacingMeters,
              northMeters: row * layout.rowSpacingMeters,
              upMeters: layer * layerSpacing,
            })
          }
      return offsets
    }
  }
}

/** Which scene a position belongs to: WGS84 [lng°, lat°, height m] or building scene metres. */
export type CopyFrame = 'city' | 'building'

/** WGS84 ellipsoid: semi-major axis (m) and first eccentricity squared. */
const wgs84 = { semiMajorAxisMeters: 6_378_137, eccentricitySquared: 6.69437999014e-3 }

/**
 * Degrees of longitude and latitude per metre east and north at a latitude, from the WGS84
 * radii of curvature (meridian and prime vertical), exact to well under a centimetre over the
 * spans a copy covers.
 */
export function degreesPerMeterAt(latitudeDegrees: number): { lng: number; lat: number } {
  const latitude = (latitudeDegrees * Math.PI) / 180
  const { semiMajorAxisMeters: a, eccentricitySquared: e2 } = wgs84
  const w = 1 - e2 * Math.sin(latitude) ** 2
  const meridianRadius = (a * (1 - e2)) / w ** 1.5
  const primeVerticalRadius = a / Math.sqrt(w)
  const toDegrees = 180 / Math.PI
  // At a pole a metre east is no longer a longitude step; cos is clamped to keep it finite.
  const parallelRadius = primeVerticalRadius * Math.max(Math.cos(latitude), 1e-12)
  return { lng: toDegrees / parallelRadius, lat: toDegrees / meridianRadius }
}

/** Moves a position by an offset in metres, in the frame's own coordinates. */
export function offsetPosition(
  position: Vector3Tuple,
  offset: CopyOffset,
  frame: CopyFrame,
): Vector3Tuple {
  const [x, y, z] = position
  if (frame === 'building')
    return [x + offset.eastMeters, y + offset.upMeters, z - offset.northMeters]
  const perMeter = degreesPerMeterAt(y)
  return [
    x + offset.eastMeters * perMeter.lng,
    y + offset.northMeters * perMeter.lat,
    z + offset.upMeters,
  ]
}

/**
 * The positions of every copy of every source POI, source by source in the order given, each
 * source's copies in {@link copyOffsets} order. A selection is copied as a block: every POI moves
 * by the same metres, each converted at its own latitude in the city.
 */
export function copyPositions<Source extends { position: Vector3Tuple }>(
  sources: readonly Source[],
  layout: CopyLayout,
  frame: CopyFrame,
): { source: Source; position: Vector3Tuple; index: number }[] {
  const offsets = copyOffsets(layout)
  const placed: { source: Source; position: Vector3Tuple; index: number }[] = []
  for (const source of sources)
    offsets.forEach((offset, index) => {
      placed.push({ source, position: offsetPosition(source.position, offset, frame), index })
    })
  return placed
}
