import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createBoundingVolume } from '@loaders.gl/tiles'
import { Matrix4 } from '@math.gl/core'
import { describe, expect, it } from 'vitest'
import {
  groundDistanceMeters,
  isGeoreferencedRoot,
  locateVolume,
  nearbyVolumes,
  ownPlacement,
  type RootHeader,
  tilesetModelMatrix,
} from './tileset-geometry'

const sharedTileset = (path: string) =>
  JSON.parse(
    readFileSync(resolve(__dirname, '../../../shared/data/3dtiles/samples', path), 'utf8'),
  ) as { root: RootHeader & { children?: (RootHeader & { content?: { uri: string } })[] } }

const requestVolume = sharedTileset('1.0/TilesetWithRequestVolume/tileset.json')
const implicit = sharedTileset('1.1/SparseImplicitQuadtree/tileset.json')
const shanghai = { lng: 121.5189, lat: 31.16946, heightOffset: 0, heading: 0 }

describe('tileset geometry (the engine is its one owner)', () => {
  it('tells a georeferenced root from one in local metres', () => {
    expect(isGeoreferencedRoot(requestVolume.root)).toBe(true)
    expect(isGeoreferencedRoot(implicit.root)).toBe(false)
    // README: every georeferenced sample sits at lon −75.61209, lat 40.04253.
    expect(ownPlacement(requestVolume.root)?.lng).toBeCloseTo(-75.612, 2)
    expect(ownPlacement(implicit.root)).toBeNull()
  })

  it('locates the top-level parts of the request-volume sample at Cesium’s test site', () => {
    const parts = (requestVolume.root.children ?? []).map((child) =>
      locateVolume(
        createBoundingVolume(
          child.boundingVolume as never,
          new Matrix4((child.transform as number[] | undefined) ?? Matrix4.IDENTITY),
        ),
      ),
    )
    for (const part of parts) {
      expect(part?.lng).toBeCloseTo(-75.612, 2)
      expect(part?.lat).toBeCloseTo(40.042, 2)
    }
    // The city region spans about 360 m × 400 m; the building box is tens of metres.
    expect(parts[0]!.radiusMeters).toBeGreaterThan(150)
    expect(parts[1]!.radiusMeters).toBeLessThan(60)
  })

  it('moves a georeferenced tileset to its placement, and puts a local one there', () => {
    const moved = tilesetModelMatrix(shanghai, requestVolume.root)!
    const building = requestVolume.root.children![1]!
    const placed = createBoundingVolume(
      building.boundingVolume as never,
      new Matrix4(moved).multiplyRight(new Matrix4(building.transform as number[])),
    )
    const located = locateVolume(placed)!
    // The building is a few tens of metres from the tileset's centre: now beside Shanghai's.
    expect(located.lng).toBeCloseTo(shanghai.lng, 2)
    expect(located.lat).toBeCloseTo(shanghai.lat, 2)
    expect(Math.abs(located.heightMeters)).toBeLessThan(100)

    const local = tilesetModelMatrix(shanghai, implicit.root)!
    const localRoot = locateVolume(
      createBoundingVolume(implicit.root.boundingVolume as never, local),
    )!
    expect(localRoot.lng).toBeCloseTo(shanghai.lng, 2)
    expect(localRoot.lat).toBeCloseTo(shanghai.lat, 2)
    expect(tilesetModelMatrix(null, implicit.root)).toBeUndefined()
  })
})

describe('nearbyVolumes', () => {
  const volume = (lng: number, lat: number) => ({ lng, lat, heightMeters: 0, radiusMeters: 100 })
  const shanghai = volume(121.5189, 31.16946)
  const shanghaiEast = volume(121.6, 31.2)
  const philadelphia = volume(-75.612, 40.042)

  it('measures ground distance (Shanghai to Philadelphia ≈ 11,900 km)', () => {
    expect(groundDistanceMeters(shanghai, philadelphia) / 1000).toBeCloseTo(11_900, -2)
    expect(groundDistanceMeters(shanghai, shanghai)).toBe(0)
  })

  it('frames the tilesets near the one nearest where the user looks, not an ocean between', () => {
    const all = [philadelphia, shanghai, shanghaiEast]
    expect(nearbyVolumes(all, { lng: 121.6, lat: 31.2 })).toEqual([shanghai, shanghaiEast])
    expect(nearbyVolumes(all, { lng: -70, lat: 40 })).toEqual([philadelphia])
    expect(nearbyVolumes([], { lng: 0, lat: 0 })).toEqual([])
  })
})
