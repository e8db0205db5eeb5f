import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { Ellipsoid } from '@math.gl/geospatial'

/**
 * A seeded synthetic oblique-photography tileset (3D Tiles 1.0): a quadtree of textured b3dm
 * height-field meshes over a city of box buildings, georeferenced by a root ENU transform. Each
 * level halves the ground a tile covers at the same mesh and texture size, the way a real
 * photogrammetry pyramid does, so a streaming renderer must refine, load and evict as it flies.
 */

/** What to generate; the same recipe and seed always give the same bytes. */
export interface TilesetRecipe {
  seed: number
  /** Where the tileset's local origin sits. */
  origin: { lng: number; lat: number }
  /** Edge of the square the root covers, metres. */
  sizeMeters: number
  /** Quadtree levels below the root (depth 5 → 1 + 4 + … + 1024 = 1,365 tiles). */
  depth: number
  /** Grid cells per tile edge. */
  cellsPerEdge: number
  /** Texture edge per tile, pixels (PNG, embedded in the glTF). */
  texturePixels: number
  /** Edge of one city block (a building plus its street), metres. */
  blockMeters: number
}

/** The recipe of the city-tiles benchmark: 1,365 tiles, 17×17 vertices and 128 px each. */
export const benchTilesetRecipe: TilesetRecipe = {
  seed: 7,
  origin: { lng: 121.6, lat: 31.2 },
  sizeMeters: 2048,
  depth: 5,
  cellsPerEdge: 16,
  texturePixels: 128,
  blockMeters: 32,
}

/** What was written. */
export interface GeneratedTileset {
  tilesetPath: string
  tileCount: number
  totalBytes: number
  /** Column-major root transform (local ENU metres → ECEF), for viewers that work locally. */
  rootTransform: number[]
}

/** Deterministic 32-bit hash → [0, 1). */
function hash01(seed: number, x: number, y: number): number {
  let value = (seed * 374_761_393 + x * 668_265_263 + y * 2_147_483_647) | 0
  value = Math.imul(value ^ (value >>> 13), 1_274_126_177)
  value ^= value >>> 16
  return (value >>> 0) / 4_294_967_296
}

/** The city: building height at a ground point (0 on streets), metres. */
function buildingHeight(recipe: TilesetRecipe, east: number, north: number): number {
  const blockX = Math.floor(east / recipe.blockMeters)
  const blockY = Math.floor(north / recipe.blockMeters)
  const inBlockX = east - blockX * recipe.blockMeters
  const inBlockY = north - blockY * recipe.blockMeters
  const street = recipe.blockMeters * 0.2
  if (inBlockX < street || inBlockY < street) return 0
  const random = hash01(recipe.seed, blockX, blockY)
  // Mostly low-rise with a few towers, like a real city centre.
  return random < 0.15 ? 0 : 6 + random ** 3 * 90
}

/** The ground colour of a point: streets grey, roofs by height, parks green. */
function groundColor(recipe: TilesetRecipe, east: number, north: number): [number, number, number] {
  const height = buildingHeight(recipe, east, north)
  if (height === 0) {
    const blockX = Math.floor(east / recipe.blockMeters)
    const blockY = Math.floor(north / recipe.blockMeters)
    return hash01(recipe.seed, blockX, blockY) < 0.15 ? [92, 140, 80] : [128, 128, 124]
  }
  const shade = Math.min(255, 140 + height)
  return [shade, shade - 20, shade - 40]
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1
  return value >>> 0
})

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const header = Buffer.alloc(8)
  header.writeUInt32BE(data.length, 0)
  header.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([header.subarray(4), data])), 0)
  return Buffer.concat([header, data, crc])
}

/** An RGB PNG (no filter per row; zlib does the compressing). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const rows = Buffer.alloc(height * (width * 3 + 1))
  for (let row = 0; row < height; row++) {
    rows[row * (width * 3 + 1)] = 0
    rows.set(rgb.subarray(row * width * 3, (row + 1) * width * 3), row * (width * 3 + 1) + 1)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', new Uint8Array(0)),
  ])
}

function padTo4(buffer: Buffer, padByte: number): Buffer {
  const padding = (4 - (buffer.length % 4)) % 4
  return padding === 0 ? buffer : Buffer.concat([buffer, Buffer.alloc(padding, padByte)])
}

/** One tile's square on the ground, in local metres (x east, y north). */
interface TileSquare {
  level: number
  x: number
  y: number
  minEast: number
  minNorth: number
  sizeMeters: number
}

/** A textured, unlit height-field GLB of one tile (glTF Y-up, as b3dm expects). */
function tileGlb(recipe: TilesetRecipe, square: TileSquare): { glb: Buffer; maxHeight: number } {
  const cells = recipe.cellsPerEdge
  const vertexCount = (cells + 1) ** 2
  const positions = new Float32Array(vertexCount * 3)
  const uvs = new Float32Array(vertexCount * 2)
  let maxHeight = 0
  for (let row = 0; row <= cells; row++) {
    for (let column = 0; column <= cells; column++) {
      const vertex = row * (cells + 1) + column
      const east = square.minEast + (column / cells) * square.sizeMeters
      const north = square.minNorth + (row / cells) * square.sizeMeters
      // Sampled at the cell's inner side so a coarse tile still shows the big buildings.
      const height = buildingHeight(recipe, east + 1e-3, north + 1e-3)
      maxHeight = Math.max(maxHeight, height)
      positions.set([east, height, -north], vertex * 3)
      uvs.set([column / cells, 1 - row / cells], vertex * 2)
    }
  }
  const indices = new Uint16Array(cells * cells * 6)
  let corner = 0
  for (let row = 0; row < cells; row++) {
    for (let column = 0; column < cells; column++) {
      const a = row * (cells + 1) + column
      const b = a + 1
      const c = a + cells + 1
      const d = c + 1
      indices.set([a, b, d, a, d, c], corner)
      corner += 6
    }
  }
  const pixels = recipe.texturePixels
  const rgb = new Uint8Array(pixels * pixels * 3)
  for (let py = 0; py < pixels; py++) {
    for (let px = 0; px < pixels; px++) {
      const east = square.minEast + ((px + 0.5) / pixels) * square.sizeMeters
      const north = square.minNorth + (1 - (py + 0.5) / pixels) * square.sizeMeters
      const [red, green, blue] = groundColor(recipe, east, north)
      // A little per-pixel noise, as photographs have, so PNGs do not compress to nothing.
      const noise = Math.floor(hash01(recipe.seed + square.level, px + square.x * pixels, py) * 12)
      rgb.set([red + noise, green + noise, blue + noise], (py * pixels + px) * 3)
    }
  }
  const png = encodePng(pixels, pixels, rgb)

  const parts = [
    Buffer.from(positions.buffer),
    Buffer.from(uvs.buffer),
    padTo4(Buffer.from(indices.buffer), 0),
    padTo4(png, 0),
  ]
  const offsets: number[] = []
  let byteLength = 0
  for (const part of parts) {
    offsets.push(byteLength)
    byteLength += part.length
  }
  const minimum = [square.minEast, 0, -(square.minNorth + square.sizeMeters)]
  const maximum = [square.minEast + square.sizeMeters, maxHeight, -square.minNorth]
  const json = {
    asset: { version: '2.0', generator: 'twinscape bench/lib/generate-tileset.ts' },
    extensionsUsed: ['KHR_materials_unlit'],
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [
      {
        primitives: [
          { attributes: { POSITION: 0, TEXCOORD_0: 1 }, indices: 2, material: 0, mode: 4 },
        ],
      },
    ],
    materials: [
      {
        pbrMetallicRoughness: { baseColorTexture: { index: 0 }, metallicFactor: 0 },
        extensions: { KHR_materials_unlit: {} },
      },
    ],
    textures: [{ source: 0, sampler: 0 }],
    samplers: [{ magFilter: 9729, minFilter: 9729, wrapS: 33071, wrapT: 33071 }],
    images: [{ bufferView: 3, mimeType: 'image/png' }],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: vertexCount,
        type: 'VEC3',
        min: minimum,
        max: maximum,
      },
      { bufferView: 1, componentType: 5126, count: vertexCount, type: 'VEC2' },
      { bufferView: 2, componentType: 5123, count: indices.length, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: offsets[0], byteLength: positions.byteLength, target: 34962 },
      { buffer: 0, byteOffset: offsets[1], byteLength: uvs.byteLength, target: 34962 },
      { buffer: 0, byteOffset: offsets[2], byteLength: indices.byteLength, target: 34963 },
      { buffer: 0, byteOffset: offsets[3], byteLength: png.length },
    ],
    buffers: [{ byteLength }],
  }
  const jsonChunk = padTo4(Buffer.from(JSON.stringify(json)), 0x20)
  const binChunk = Buffer.concat(parts)
  const header = Buffer.alloc(12)
  header.write('glTF', 0, 'ascii')
  header.writeUInt32LE(2, 4)
  header.writeUInt32LE(12 + 8 + jsonChunk.length + 8 + binChunk.length, 8)
  const chunkHeader = (length: number, type: number) => {
    const buffer = Buffer.alloc(8)
    buffer.writeUInt32LE(length, 0)
    buffer.writeUInt32LE(type, 4)
    return buffer
  }
  const glb = Buffer.concat([
    header,
    chunkHeader(jsonChunk.length, 0x4e4f534a),
    jsonChunk,
    chunkHeader(binChunk.length, 0x004e4942),
    binChunk,
  ])
  return { glb, maxHeight }
}

/** Wraps a GLB as b3dm with an empty batch (BATCH_LENGTH 0). */
function b3dm(glb: Buffer): Buffer {
  // The header is 28 bytes; padding the JSON to 8 keeps the GLB 8-byte aligned.
  let featureTable = Buffer.from(JSON.stringify({ BATCH_LENGTH: 0 }))
  const padding = (8 - ((28 + featureTable.length) % 8)) % 8
  featureTable = Buffer.concat([featureTable, Buffer.alloc(padding, 0x20)])
  const header = Buffer.alloc(28)
  header.write('b3dm', 0, 'ascii')
  header.writeUInt32LE(1, 4)
  header.writeUInt32LE(28 + featureTable.length + glb.length, 8)
  header.writeUInt32LE(featureTable.length, 12)
  header.writeUInt32LE(0, 16)
  header.writeUInt32LE(0, 20)
  header.writeUInt32LE(0, 24)
  return Buffer.concat([header, featureTable, glb])
}

/** Writes tileset.json and tiles/L/X/Y.b3dm under `directory`. */
export function generateTileset(recipe: TilesetRecipe, directory: string): GeneratedTileset {
  let tileCount = 0
  let totalBytes = 0
  const tallestBuildingMeters = 100

  const buildTile = (level: number, x: number, y: number): Record<string, unknown> => {
    const sizeMeters = recipe.sizeMeters / 2 ** level
    const square: TileSquare = {
      level,
      x,
      y,
      // The root square is centred on the origin.
      minEast: -recipe.sizeMeters / 2 + x * sizeMeters,
      minNorth: -recipe.sizeMeters / 2 + y * sizeMeters,
      sizeMeters,
    }
    const { glb } = tileGlb(recipe, square)
    const bytes = b3dm(glb)
    const relativePath = `tiles/${level}/${x}/${y}.b3dm`
    mkdirSync(join(directory, 'tiles', String(level), String(x)), { recursive: true })
    writeFileSync(join(directory, relativePath), bytes)
    tileCount++
    totalBytes += bytes.length
    const isLeaf = level === recipe.depth
    const half = sizeMeters / 2
    const tile: Record<string, unknown> = {
      boundingVolume: {
        box: [
          square.minEast + half,
          square.minNorth + half,
          tallestBuildingMeters / 2,
          half,
          0,
          0,
          0,
          half,
          0,
          0,
          0,
          tallestBuildingMeters / 2,
        ],
      },
      // The mesh's cell size is the error a viewer sees by not refining.
      geometricError: isLeaf ? 0 : sizeMeters / recipe.cellsPerEdge,
      refine: 'REPLACE',
      content: { uri: relativePath },
    }
    if (!isLeaf) {
      tile.children = [
        buildTile(level + 1, x * 2, y * 2),
        buildTile(level + 1, x * 2 + 1, y * 2),
        buildTile(level + 1, x * 2, y * 2 + 1),
        buildTile(level + 1, x * 2 + 1, y * 2 + 1),
      ]
    }
    return tile
  }

  mkdirSync(directory, { recursive: true })
  const anchor = Ellipsoid.WGS84.cartographicToCartesian([recipe.origin.lng, recipe.origin.lat, 0])
  const rootTransform = Array.from(Ellipsoid.WGS84.eastNorthUpToFixedFrame(anchor))
  const root = buildTile(0, 0, 0)
  root.transform = rootTransform
  const tileset = {
    asset: { version: '1.0', generator: 'twinscape bench/lib/generate-tileset.ts' },
    // Above the root's own error, so a viewer far away may skip even the root.
    geometricError: (recipe.sizeMeters / recipe.cellsPerEdge) * 2,
    root,
  }
  const tilesetPath = join(directory, 'tileset.json')
  const tilesetJson = JSON.stringify(tileset)
  writeFileSync(tilesetPath, tilesetJson)
  totalBytes += tilesetJson.length
  return { tilesetPath, tileCount, totalBytes, rootTransform }
}
