import { PbfWriter } from 'pbf'
import { writePmtiles } from './pmtiles-writer'

/** Options of {@link generateVectorBasemap}. */
export interface VectorBasemapOptions {
  /** West, south, east, north in degrees: tiles are stored only where they meet this area. */
  bounds: readonly [number, number, number, number]
  minZoom: number
  maxZoom: number
  /** Squares along each side of a tile's checkerboard (default 32). */
  cellsPerTile?: number
}

/** A generated vector basemap and the layers each tile holds. */
export interface VectorBasemap {
  bytes: Uint8Array
  minZoom: number
  maxZoom: number
  /** `blocks` (polygons), `roads` (lines), `places` (points). */
  layers: string[]
}

/** The tile extent of Mapbox Vector Tile 2 (the usual one). */
const extent = 4096

/** One feature of a layer: its geometry type (1 point, 2 line, 3 polygon) and commands. */
interface EncodedFeature {
  type: 1 | 2 | 3
  geometry: number[]
}

const command = (id: number, count: number) => (id & 7) | (count << 3)
const zigzag = (value: number) => (value << 1) ^ (value >> 31)

/**
 * Encodes parts (rings, lines or points, each a list of [x, y] in tile units) as one feature's
 * geometry commands (MVT 2 §4.3): MoveTo, LineTo, ClosePath for polygon rings, with the cursor
 * carried from one part to the next.
 */
function encodeGeometry(type: EncodedFeature['type'], parts: number[][][]): number[] {
  const commands: number[] = []
  let [cursorX, cursorY] = [0, 0]
  const moveBy = (x: number, y: number) => {
    commands.push(zigzag(x - cursorX), zigzag(y - cursorY))
    ;[cursorX, cursorY] = [x, y]
  }
  for (const points of parts) {
    const [first, ...rest] = points
    if (!first) continue
    commands.push(command(1, 1))
    moveBy(first[0]!, first[1]!)
    if (type === 1) continue
    commands.push(command(2, rest.length))
    for (const [x = 0, y = 0] of rest) moveBy(x, y)
    if (type === 3) commands.push(command(7, 1))
  }
  return commands
}

/** A Mapbox Vector Tile 2 with one feature per layer. */
function encodeTile(layers: Array<{ name: string; feature: EncodedFeature }>): Uint8Array {
  const pbf = new PbfWriter()
  for (const layer of layers) {
    pbf.writeMessage(
      3,
      (value: typeof layer, writer: PbfWriter) => {
        writer.writeVarintField(15, 2)
        writer.writeStringField(1, value.name)
        writer.writeMessage(
          2,
          (feature: EncodedFeature, featureWriter: PbfWriter) => {
            featureWriter.writeVarintField(3, feature.type)
            featureWriter.writePackedVarint(4, feature.geometry)
          },
          value.feature,
        )
        writer.writeVarintField(5, extent)
      },
      layer,
    )
  }
  return pbf.finish()
}

/**
 * The one tile every address of the archive holds: a checkerboard of `cells` × `cells`
 * squares (every other one filled; exterior rings clockwise in tile space, as MVT 2 wants), a
 * road across the middle and a place at the centre. A canvas showing both the fill and the
 * background in squares can only have drawn the vector tiles.
 */
function checkerboardTile(cells: number): Uint8Array {
  const size = extent / cells
  const squares: number[][][] = []
  for (let row = 0; row < cells; row++) {
    for (let column = 0; column < cells; column++) {
      if ((row + column) % 2 !== 0) continue
      const [left, top] = [column * size, row * size]
      squares.push([
        [left, top],
        [left + size, top],
        [left + size, top + size],
        [left, top + size],
      ])
    }
  }
  return encodeTile([
    { name: 'blocks', feature: { type: 3, geometry: encodeGeometry(3, squares) } },
    {
      name: 'roads',
      feature: {
        type: 2,
        geometry: encodeGeometry(2, [
          [
            [0, extent / 2],
            [extent, extent / 2],
          ],
        ]),
      },
    },
    {
      name: 'places',
      feature: { type: 1, geometry: encodeGeometry(1, [[[extent / 2, extent / 2]]]) },
    },
  ])
}

const tileX = (lng: number, zoom: number) => ((lng + 180) / 360) * 2 ** zoom
const tileY = (lat: number, zoom: number) => {
  const radians = (lat * Math.PI) / 180
  return ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * 2 ** zoom
}

/**
 * A vector (MVT) PMTiles basemap over `bounds` from `minZoom` to `maxZoom`, every tile the same
 * checkerboard (stored once in the archive), so a test can tell from a canvas that the vector
 * tiles were drawn, at any zoom.
 */
export function generateVectorBasemap(options: VectorBasemapOptions): VectorBasemap {
  const { minZoom, maxZoom } = options
  if (minZoom < 0 || maxZoom < minZoom || maxZoom > 18) {
    throw new Error(`zoom range ${minZoom}..${maxZoom} is not within 0..18`)
  }
  const [west, south, east, north] = options.bounds
  const data = checkerboardTile(options.cellsPerTile ?? 32)
  function* tiles() {
    for (let z = minZoom; z <= maxZoom; z++) {
      for (let x = Math.floor(tileX(west, z)); x <= Math.floor(tileX(east, z)); x++) {
        for (let y = Math.floor(tileY(north, z)); y <= Math.floor(tileY(south, z)); y++) {
          yield { z, x, y, data }
        }
      }
    }
  }
  const layers = ['blocks', 'roads', 'places']
  const bytes = writePmtiles({
    tiles: tiles(),
    tileType: 'mvt',
    bounds: options.bounds,
    metadata: {
      name: 'Checkerboard test basemap',
      format: 'pbf',
      vector_layers: layers.map((id) => ({ id, fields: {} })),
      attribution: 'Twinscape test basemap',
    },
  })
  return { bytes, minZoom, maxZoom, layers }
}
