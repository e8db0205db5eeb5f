import { gzipSync } from 'fflate'

/**
 * A small PMTiles version 3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
 * the 127-byte header, a root directory (and leaf directories when the root would not fit in the
 * first 16 KiB a reader fetches), JSON metadata and the tile data, with identical tiles stored
 * once and runs of identical consecutive tiles folded into one directory entry. It runs in Node
 * and in browsers (fflate, no node: modules), so tests on both sides can build real archives.
 */

/** What the tiles hold, as the header's tile-type byte says it. */
export type PmtilesTileType = 'unknown' | 'mvt' | 'png' | 'jpeg' | 'webp' | 'avif'

/** How directories and metadata are compressed (the header's internal-compression byte). */
export type PmtilesCompression = 'none' | 'gzip'

/** One tile to store. */
export interface PmtilesTileInput {
  z: number
  x: number
  y: number
  data: Uint8Array
}

/** Options of {@link writePmtiles}. */
export interface PmtilesWriteOptions {
  tiles: Iterable<PmtilesTileInput>
  tileType: PmtilesTileType
  /** Compression of directories and metadata; gzip by default, as most archives use. */
  internalCompression?: PmtilesCompression
  /** The JSON metadata (TileJSON-like: name, attribution, vector_layers...). */
  metadata?: Record<string, unknown>
  /** West, south, east, north in degrees; the whole Web Mercator world by default. */
  bounds?: readonly [number, number, number, number]
  /** Where a viewer starts: longitude, latitude, zoom; the middle of the bounds by default. */
  center?: readonly [number, number, number]
}

/** A directory entry as the spec defines it (offsets relative to their section). */
interface DirectoryEntry {
  tileId: number
  offset: number
  length: number
  /** Consecutive tile ids sharing this content; 0 marks a pointer to a leaf directory. */
  runLength: number
}

/** Readers fetch this many bytes first and expect the header and the root directory in them. */
const firstFetchBytes = 16_384
const headerBytes = 127
const worldBounds = [-180, -85.0511287, 180, 85.0511287] as const

const tileTypeCodes: Record<PmtilesTileType, number> = {
  unknown: 0,
  mvt: 1,
  png: 2,
  jpeg: 3,
  webp: 4,
  avif: 5,
}
const compressionCodes: Record<PmtilesCompression, number> = { none: 1, gzip: 2 }

/**
 * The PMTiles tile id of z/x/y: the tiles of all lower zooms, plus the position of (x, y) along
 * the Hilbert curve that orders zoom z. Arithmetic stays in doubles: ids pass 2^32 at zoom 16.
 */
export function tileIdOf(z: number, x: number, y: number): number {
  if (!Number.isInteger(z) || z < 0 || z > 26) throw new Error(`zoom ${z} is outside 0..26`)
  const size = 2 ** z
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= size || y >= size) {
    throw new Error(`tile ${z}/${x}/${y} is outside its zoom level`)
  }
  const lowerZoomTiles = (4 ** z - 1) / 3
  let distance = 0
  let column = x
  let row = y
  for (let half = size / 2; half >= 1; half /= 2) {
    const isRight = column >= half ? 1 : 0
    const isLower = row >= half ? 1 : 0
    distance += half * half * ((3 * isRight) ^ isLower)
    column -= isRight * half
    row -= isLower * half
    // Rotate the quadrant so the curve inside it starts and ends where the parent curve expects.
    if (isLower === 0) {
      if (isRight === 1) {
        column = half - 1 - column
        row = half - 1 - row
      }
      const swapped = column
      column = row
      row = swapped
    }
  }
  return lowerZoomTiles + distance
}

function pushVarint(bytes: number[], value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`cannot varint-encode ${value}`)
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
}

/** Columnar directory: count, tile id deltas, run lengths, lengths, then offsets (0 = contiguous). */
function serializeDirectory(entries: readonly DirectoryEntry[]): Uint8Array {
  const bytes: number[] = []
  pushVarint(bytes, entries.length)
  let previousTileId = 0
  for (const entry of entries) {
    pushVarint(bytes, entry.tileId - previousTileId)
    previousTileId = entry.tileId
  }
  for (const entry of entries) pushVarint(bytes, entry.runLength)
  for (const entry of entries) pushVarint(bytes, entry.length)
  entries.forEach((entry, index) => {
    const previous = index > 0 ? entries[index - 1] : undefined
    const isContiguous =
      previous !== undefined && entry.offset === previous.offset + previous.length
    pushVarint(bytes, isContiguous ? 0 : entry.offset + 1)
  })
  return Uint8Array.from(bytes)
}

function compress(bytes: Uint8Array, compression: PmtilesCompression): Uint8Array {
  // mtime 0 keeps the archive byte-identical for the same input (seeded fixtures).
  return compression === 'gzip' ? gzipSync(bytes, { level: 9, mtime: 0 }) : bytes
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.byteLength !== right.byteLength) return false
  for (let index = 0; index < left.byteLength; index++)
    if (left[index] !== right[index]) return false
  return true
}

/** FNV-1a over the bytes: buckets for finding identical tile contents. */
function contentHash(bytes: Uint8Array): number {
  let hash = 0x811c9dc5
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193)
  return hash >>> 0
}

/**
 * Splits the entries into leaf directories when the root would not fit in the first fetch,
 * growing the leaf size until the root of leaf pointers fits (the reference writer's approach).
 */
function buildDirectories(
  entries: readonly DirectoryEntry[],
  compression: PmtilesCompression,
): { root: Uint8Array; leaves: Uint8Array } {
  const root = compress(serializeDirectory(entries), compression)
  if (headerBytes + root.byteLength <= firstFetchBytes) return { root, leaves: new Uint8Array(0) }
  for (let leafSize = 4096; ; leafSize *= 2) {
    const leafParts: Uint8Array[] = []
    const pointers: DirectoryEntry[] = []
    let leafOffset = 0
    for (let start = 0; start < entries.length; start += leafSize) {
      const chunk = entries.slice(start, start + leafSize)
      const leaf = compress(serializeDirectory(chunk), compression)
      pointers.push({
        tileId: chunk[0]!.tileId,
        offset: leafOffset,
        length: leaf.byteLength,
        runLength: 0,
      })
      leafParts.push(leaf)
      leafOffset += leaf.byteLength
    }
    const pointerRoot = compress(serializeDirectory(pointers), compression)
    if (headerBytes + pointerRoot.byteLength <= firstFetchBytes) {
      return { root: pointerRoot, leaves: concatenate(leafParts) }
    }
  }
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const output = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    output.set(part, offset)
    offset += part.byteLength
  }
  return output
}

function setUint64(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value % 2 ** 32, true)
  view.setUint32(offset + 4, Math.floor(value / 2 ** 32), true)
}

/** Degrees as the header stores them: signed 32-bit integers of 1e-7 degree. */
function setDegrees(view: DataView, offset: number, degrees: number): void {
  view.setInt32(offset, Math.round(degrees * 10_000_000), true)
}

/**
 * Writes a complete PMTiles v3 archive. Tiles are stored in tile-id order (a "clustered"
 * archive), so a viewer panning over neighbouring tiles reads neighbouring bytes. Tile data is
 * stored as given: PNG, JPEG and WebP are compressed already, so tile compression is "none".
 */
export function writePmtiles(options: PmtilesWriteOptions): Uint8Array {
  const compression = options.internalCompression ?? 'gzip'
  const tiles = [...options.tiles].map((tile) => ({
    ...tile,
    tileId: tileIdOf(tile.z, tile.x, tile.y),
  }))
  if (tiles.length === 0) throw new Error('a PMTiles archive needs at least one tile')
  tiles.sort((left, right) => left.tileId - right.tileId)

  const entries: DirectoryEntry[] = []
  const contents: Uint8Array[] = []
  const contentOffsets = new Map<number, { data: Uint8Array; offset: number }[]>()
  let tileDataBytes = 0
  let minZoom = Number.POSITIVE_INFINITY
  let maxZoom = 0
  for (const [index, tile] of tiles.entries()) {
    if (index > 0 && tiles[index - 1]!.tileId === tile.tileId) {
      throw new Error(`tile ${tile.z}/${tile.x}/${tile.y} is given twice`)
    }
    minZoom = Math.min(minZoom, tile.z)
    maxZoom = Math.max(maxZoom, tile.z)
    const hash = contentHash(tile.data)
    const bucket = contentOffsets.get(hash) ?? []
    let stored = bucket.find((candidate) => sameBytes(candidate.data, tile.data))
    if (!stored) {
      stored = { data: tile.data, offset: tileDataBytes }
      bucket.push(stored)
      contentOffsets.set(hash, bucket)
      contents.push(tile.data)
      tileDataBytes += tile.data.byteLength
    }
    const last = entries.at(-1)
    if (last && last.offset === stored.offset && last.tileId + last.runLength === tile.tileId) {
      last.runLength += 1
    } else {
      entries.push({
        tileId: tile.tileId,
        offset: stored.offset,
        length: tile.data.byteLength,
        runLength: 1,
      })
    }
  }

  const { root, leaves } = buildDirectories(entries, compression)
  const metadata = compress(
    new TextEncoder().encode(JSON.stringify(options.metadata ?? {})),
    compression,
  )
  const rootOffset = headerBytes
  const metadataOffset = rootOffset + root.byteLength
  const leavesOffset = metadataOffset + metadata.byteLength
  const tileDataOffset = leavesOffset + leaves.byteLength

  const header = new Uint8Array(headerBytes)
  const view = new DataView(header.buffer)
  header.set(new TextEncoder().encode('PMTiles'), 0)
  header[7] = 3
  setUint64(view, 8, rootOffset)
  setUint64(view, 16, root.byteLength)
  setUint64(view, 24, metadataOffset)
  setUint64(view, 32, metadata.byteLength)
  setUint64(view, 40, leavesOffset)
  setUint64(view, 48, leaves.byteLength)
  setUint64(view, 56, tileDataOffset)
  setUint64(view, 64, tileDataBytes)
  setUint64(view, 72, tiles.length)
  setUint64(view, 80, entries.length)
  setUint64(view, 88, contents.length)
  header[96] = 1 // clustered: contents are laid out in tile-id order
  header[97] = compressionCodes[compression]
  header[98] = compressionCodes.none
  header[99] = tileTypeCodes[options.tileType]
  header[100] = minZoom
  header[101] = maxZoom
  const [west, south, east, north] = options.bounds ?? worldBounds
  setDegrees(view, 102, west)
  setDegrees(view, 106, south)
  setDegrees(view, 110, east)
  setDegrees(view, 114, north)
  const [centerLon, centerLat, centerZoom] = options.center ?? [
    (west + east) / 2,
    (south + north) / 2,
    minZoom,
  ]
  header[118] = centerZoom
  setDegrees(view, 119, centerLon)
  setDegrees(view, 123, centerLat)

  return concatenate([header, root, metadata, leaves, ...contents])
}
