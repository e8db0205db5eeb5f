import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ecefToGeodetic, tilesetParts, zoomToFit } from './tileset-parts'

const sharedTileset = (path: string) =>
  JSON.parse(readFileSync(resolve(__dirname, '../../../../../shared/data/3dtiles', path), 'utf8'))

describe('tileset parts for the oblique-photography tree', () => {
  it('names and locates the parts of the request-volume sample at Cesium’s test site', () => {
    const parts = tilesetParts(
      sharedTileset('samples/1.0/TilesetWithRequestVolume/tileset.json'),
      null,
    )
    expect(parts.map((part) => part.name)).toEqual(['city', 'building', 'points'])
    // README: every georeferenced sample sits at lon −75.61209, lat 40.04253.
    for (const part of parts) {
      expect(part.center?.lng).toBeCloseTo(-75.612, 2)
      expect(part.center?.lat).toBeCloseTo(40.042, 2)
      expect(part.radiusMeters).toBeGreaterThan(0)
    }
    // The city region spans about 360 m × 400 m; the building box is tens of metres.
    expect(parts[0]?.radiusMeters).toBeGreaterThan(150)
    expect(parts[1]?.radiusMeters).toBeLessThan(60)
  })

  it('converts ECEF to WGS84 to the centimetre at a known point', () => {
    // The ECEF coordinates of lon 121.6, lat 31.2 at 10 m height, computed independently.
    const lat = (31.2 * Math.PI) / 180
    const lng = (121.6 * Math.PI) / 180
    const a = 6_378_137
    const e2 = (1 / 298.257223563) * (2 - 1 / 298.257223563)
    const n = a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2)
    const ecef: [number, number, number] = [
      (n + 10) * Math.cos(lat) * Math.cos(lng),
      (n + 10) * Math.cos(lat) * Math.sin(lng),
      (n * (1 - e2) + 10) * Math.sin(lat),
    ]
    const point = ecefToGeodetic(ecef)
    expect(point.lng).toBeCloseTo(121.6, 7)
    expect(point.lat).toBeCloseTo(31.2, 7)
    expect(point.heightMeters).toBeCloseTo(10, 2)
  })

  it('places parts of a tileset without georeference at its placement, turned by the heading', () => {
    const local = {
      asset: { version: '1.1' },
      root: {
        boundingVolume: { box: [0, 0, 0, 100, 0, 0, 0, 100, 0, 0, 0, 10] },
        children: [
          {
            boundingVolume: { box: [50, 0, 0, 10, 0, 0, 0, 10, 0, 0, 0, 10] },
            content: { uri: 'content/east.glb' },
          },
        ],
      },
    }
    const placement = { lng: 121.6, lat: 31.2, heightOffsetMeters: 5, headingDegrees: 90 }
    const [east] = tilesetParts(local, placement)
    expect(east?.name).toBe('east')
    // 50 m along local x, turned 90° clockwise, points south.
    expect(east?.center?.lng).toBeCloseTo(121.6, 6)
    expect(east?.center?.lat).toBeLessThan(31.2)
    expect(east?.center?.heightMeters).toBeCloseTo(5, 6)
    expect(tilesetParts(local, null)[0]?.center).toBeNull()
  })

  it('answers one part for a childless root and nothing for what is not a tileset', () => {
    const parts = tilesetParts(
      { root: { boundingVolume: { sphere: [0, 0, 0, 3] }, content: { uri: 'model.glb' } } },
      { lng: 0, lat: 0, heightOffsetMeters: 0, headingDegrees: 0 },
    )
    expect(parts).toHaveLength(1)
    expect(parts[0]).toMatchObject({ index: 0, name: 'model', radiusMeters: 3 })
    expect(tilesetParts('nope', null)).toEqual([])
    expect(tilesetParts({ asset: {} }, null)).toEqual([])
  })

  it('zooms closer for smaller things and stays within the map’s range', () => {
    expect(zoomToFit(20, 40)).toBeGreaterThan(zoomToFit(400, 40))
    expect(zoomToFit(0, 0)).toBeLessThanOrEqual(20)
    expect(zoomToFit(1e9, 0)).toBe(3)
  })
})
