import { VectorTile } from '@mapbox/vector-tile'
import { PbfReader } from 'pbf'
import { PMTiles, type RangeResponse, type Source, TileType } from 'pmtiles'
import { describe, expect, it } from 'vitest'
import { generateVectorBasemap } from './vector-basemap'

describe('generated vector PMTiles basemap', () => {
  it('holds MVT tiles over its area that a vector tile reader decodes as a checkerboard', async () => {
    const basemap = generateVectorBasemap({
      bounds: [-75.7, 40.0, -75.5, 40.1],
      minZoom: 10,
      maxZoom: 14,
      cellsPerTile: 4,
    })
    const bytes = basemap.bytes
    const source: Source = {
      getKey: () => 'vector.pmtiles',
      getBytes: async (offset: number, length: number): Promise<RangeResponse> => ({
        data: bytes.slice(offset, offset + length).buffer,
      }),
    }
    const archive = new PMTiles(source)
    expect(await archive.getHeader()).toMatchObject({
      tileType: TileType.Mvt,
      minZoom: 10,
      maxZoom: 14,
    })
    // lon −75.61, lat 40.04 at zoom 14: tile 4750/6200; far away there is none
    const tile = await archive.getZxy(14, 4750, 6200)
    expect(tile).toBeDefined()
    expect(await archive.getZxy(14, 0, 0)).toBeUndefined()
    const decoded = new VectorTile(new PbfReader(new Uint8Array(tile!.data)))
    expect(Object.keys(decoded.layers).sort()).toEqual(['blocks', 'places', 'roads'])
    const blocks = decoded.layers.blocks!.feature(0)
    expect(blocks.type).toBe(3)
    // 4 × 4 cells, every other one filled: 8 squares of 1024 × 1024
    const rings = blocks.loadGeometry()
    expect(rings).toHaveLength(8)
    expect(rings[1]!.map((point) => [point.x, point.y])).toEqual([
      [2048, 0],
      [3072, 0],
      [3072, 1024],
      [2048, 1024],
      [2048, 0],
    ])
    expect(decoded.layers.roads!.feature(0).type).toBe(2)
    expect(decoded.layers.places!.feature(0).loadGeometry()).toEqual([[{ x: 2048, y: 2048 }]])
  })
})
