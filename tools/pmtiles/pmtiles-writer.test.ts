import { inflateSync } from 'node:zlib'
import { PMTiles, type RangeResponse, type Source, TileType, zxyToTileId } from 'pmtiles'
import { describe, expect, it } from 'vitest'
import { tileIdOf, writePmtiles } from './pmtiles-writer'
import { generateRasterBasemap } from './raster-basemap'

/** Serves an archive from memory and records every byte range a reader asked for. */
class MemorySource implements Source {
  readonly reads: { offset: number; length: number }[] = []
  constructor(private readonly bytes: Uint8Array) {}
  getKey(): string {
    return 'memory.pmtiles'
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.reads.push({ offset, length })
    const slice = this.bytes.slice(offset, offset + length)
    return { data: slice.buffer }
  }
}

const text = (data: ArrayBuffer | undefined) => (data ? new TextDecoder().decode(data) : null)

/** Every tile of zooms 0..maxZoom holding its own address as text, so misaddressing shows. */
function* addressedTiles(maxZoom: number) {
  for (let z = 0; z <= maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        yield { z, x, y, data: new TextEncoder().encode(`${z}/${x}/${y}`) }
      }
    }
  }
}

/** The first pixel of a PNG with RGB colour type and no filter, as `#rrggbb`. */
function firstPixelOf(png: Uint8Array): string {
  let offset = 8
  const idat: Uint8Array[] = []
  while (offset < png.byteLength) {
    const view = new DataView(png.buffer, png.byteOffset + offset)
    const length = view.getUint32(0)
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8))
    if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  const scanlines = inflateSync(Buffer.concat(idat))
  return `#${[...scanlines.subarray(1, 4)].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`
}

describe('tileIdOf', () => {
  it('numbers tiles along the Hilbert curve exactly as the pmtiles reader does', () => {
    for (let z = 0; z <= 6; z++) {
      for (let x = 0; x < 2 ** z; x++) {
        for (let y = 0; y < 2 ** z; y++) expect(tileIdOf(z, x, y)).toBe(zxyToTileId(z, x, y))
      }
    }
    // past 2^32, where bit operations would wrap
    expect(tileIdOf(20, 123_456, 654_321)).toBe(zxyToTileId(20, 123_456, 654_321))
    expect(() => tileIdOf(3, 8, 0)).toThrow(/outside/)
  })
})

describe('writePmtiles', () => {
  it('writes an archive the pmtiles reader opens, with every tile at its own address', async () => {
    const bytes = writePmtiles({
      tiles: addressedTiles(4),
      tileType: 'unknown',
      metadata: { name: 'addresses', vector_layers: [] },
      bounds: [120, 30, 123, 32],
      center: [121.6, 31.2, 3],
    })
    const archive = new PMTiles(new MemorySource(bytes))
    const header = await archive.getHeader()
    expect(header).toMatchObject({
      specVersion: 3,
      minZoom: 0,
      maxZoom: 4,
      numAddressedTiles: 341,
      numTileEntries: 341,
      numTileContents: 341,
      clustered: true,
      minLon: 120,
      maxLat: 32,
      centerLon: 121.6,
      centerZoom: 3,
    })
    expect(await archive.getMetadata()).toEqual({ name: 'addresses', vector_layers: [] })
    for (const { z, x, y } of addressedTiles(4)) {
      expect(text((await archive.getZxy(z, x, y))?.data)).toBe(`${z}/${x}/${y}`)
    }
    expect(await archive.getZxy(5, 0, 0)).toBeUndefined()
  })

  it('stores identical tiles once and folds consecutive ones into one run', async () => {
    const same = new TextEncoder().encode('same')
    const tiles = [
      ...[0, 1].flatMap((x) => [0, 1].map((y) => ({ z: 1, x, y, data: same }))),
      { z: 0, x: 0, y: 0, data: new TextEncoder().encode('root') },
      { z: 2, x: 3, y: 3, data: same },
    ]
    const source = new MemorySource(writePmtiles({ tiles, tileType: 'unknown' }))
    const archive = new PMTiles(source)
    const header = await archive.getHeader()
    // z0 alone, the four z1 tiles as one run, z2/3/3 pointing back at the same bytes
    expect(header.numAddressedTiles).toBe(6)
    expect(header.numTileEntries).toBe(3)
    expect(header.numTileContents).toBe(2)
    expect(header.tileDataLength).toBe('root'.length + 'same'.length)
    expect(text((await archive.getZxy(1, 1, 0))?.data)).toBe('same')
    expect(text((await archive.getZxy(2, 3, 3))?.data)).toBe('same')
    expect(await archive.getZxy(2, 0, 0)).toBeUndefined()
  })

  it('moves entries into leaf directories when the root would not fit the first 16 KiB read', async () => {
    const source = new MemorySource(
      writePmtiles({ tiles: addressedTiles(6), tileType: 'unknown', internalCompression: 'none' }),
    )
    const archive = new PMTiles(source)
    const header = await archive.getHeader()
    expect(header.leafDirectoryLength).toBeGreaterThan(0)
    expect(header.rootDirectoryOffset + header.rootDirectoryLength).toBeLessThanOrEqual(16_384)
    for (const [z, x, y] of [
      [0, 0, 0],
      [6, 0, 0],
      [6, 63, 63],
      [6, 17, 42],
      [5, 31, 0],
    ] as const) {
      expect(text((await archive.getZxy(z, x, y))?.data)).toBe(`${z}/${x}/${y}`)
    }
    // a tile read is one ranged read of its own bytes, after the header and directories
    source.reads.length = 0
    await archive.getZxy(6, 17, 42)
    expect(source.reads.at(-1)?.length).toBe('6/17/42'.length)
  })

  it('refuses tiles outside their zoom and the same tile twice', () => {
    const data = new Uint8Array([1])
    expect(() => writePmtiles({ tiles: [{ z: 1, x: 2, y: 0, data }], tileType: 'png' })).toThrow()
    expect(() =>
      writePmtiles({
        tiles: [
          { z: 1, x: 1, y: 0, data },
          { z: 1, x: 1, y: 0, data },
        ],
        tileType: 'png',
      }),
    ).toThrow(/twice/)
    expect(() => writePmtiles({ tiles: [], tileType: 'png' })).toThrow()
  })
})

describe('generateRasterBasemap', () => {
  it('paints each zoom in its own colour, the same bytes for the same seed', async () => {
    const basemap = generateRasterBasemap({ seed: 42, minZoom: 0, maxZoom: 5 })
    expect(generateRasterBasemap({ seed: 42, minZoom: 0, maxZoom: 5 }).bytes).toEqual(basemap.bytes)
    expect(generateRasterBasemap({ seed: 43, minZoom: 0, maxZoom: 5 }).colorsByZoom).not.toEqual(
      basemap.colorsByZoom,
    )
    expect(new Set(basemap.colorsByZoom).size).toBe(6)

    const archive = new PMTiles(new MemorySource(basemap.bytes))
    const header = await archive.getHeader()
    expect(header.tileType).toBe(TileType.Png)
    expect(header.numAddressedTiles).toBe(1365)
    // one run per zoom level
    expect(header.numTileContents).toBe(6)
    for (const [z, x, y] of [
      [0, 0, 0],
      [3, 6, 2],
      [5, 26, 13],
    ] as const) {
      const tile = await archive.getZxy(z, x, y)
      expect(firstPixelOf(new Uint8Array(tile!.data))).toBe(basemap.colorsByZoom[z])
    }
    expect(basemap.bytes.byteLength).toBeLessThan(16_384)
  })
})
