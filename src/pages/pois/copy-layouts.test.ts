import { describe, expect, it } from 'vitest'
import {
  type CopyLayout,
  copyCount,
  copyLayoutKinds,
  copyLimits,
  copyOffsets,
  copyPositions,
  defaultCopyLayout,
  degreesPerMeterAt,
  offsetPosition,
  validateCopyLayout,
} from './copy-layouts'

const metresPerDegreeAtEquator = 111_319.49

/** Great-circle distance on a sphere of the WGS84 mean radius, metres (an independent check). */
function haversineMeters([lng1, lat1]: readonly number[], [lng2, lat2]: readonly number[]): number {
  const r = 6_371_008.8
  const rad = Math.PI / 180
  const dLat = ((lat2 ?? 0) - (lat1 ?? 0)) * rad
  const dLng = ((lng2 ?? 0) - (lng1 ?? 0)) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos((lat1 ?? 0) * rad) * Math.cos((lat2 ?? 0) * rad) * Math.sin(dLng / 2) ** 2
  return 2 * r * Math.asin(Math.sqrt(h))
}

describe('copy layouts (SPEC §9)', () => {
  it('offers the five layouts in the spec order, each valid by default', () => {
    expect(copyLayoutKinds).toEqual([
      'default',
      'singleRow',
      'singleColumn',
      'array',
      'multiLayerArray',
    ])
    for (const kind of copyLayoutKinds)
      expect(validateCopyLayout(defaultCopyLayout(kind))).toEqual({})
  })

  it('lays a single row east and a single column north, count copies, spacing apart', () => {
    expect(copyOffsets({ kind: 'singleRow', count: 3, spacingMeters: 2.5 })).toEqual([
      { eastMeters: 2.5, northMeters: 0, upMeters: 0 },
      { eastMeters: 5, northMeters: 0, upMeters: 0 },
      { eastMeters: 7.5, northMeters: 0, upMeters: 0 },
    ])
    expect(copyOffsets({ kind: 'singleColumn', count: 2, spacingMeters: 4 })).toEqual([
      { eastMeters: 0, northMeters: 4, upMeters: 0 },
      { eastMeters: 0, northMeters: 8, upMeters: 0 },
    ])
  })

  it('steps default copies diagonally so none hides another', () => {
    const offsets = copyOffsets({ kind: 'default', count: 2, spacingMeters: 1 })
    expect(offsets).toEqual([
      { eastMeters: 1, northMeters: 1, upMeters: 0 },
      { eastMeters: 2, northMeters: 2, upMeters: 0 },
    ])
  })

  it('fills an array around the original: rows × columns − 1 copies, no two in one cell', () => {
    const layout: CopyLayout = {
      kind: 'array',
      rows: 3,
      columns: 4,
      rowSpacingMeters: 2,
      columnSpacingMeters: 5,
    }
    const offsets = copyOffsets(layout)
    expect(offsets).toHaveLength(11)
    expect(copyCount(layout)).toBe(11)
    const cells = new Set(offsets.map((o) => `${o.eastMeters},${o.northMeters}`))
    expect(cells.size).toBe(11)
    expect(cells.has('0,0')).toBe(false)
    expect(cells.has('15,4')).toBe(true)
  })

  it('makes a 4 × 3 × 2 multi-layer array of 23 copies on two layers', () => {
    const layout: CopyLayout = {
      kind: 'multiLayerArray',
      rows: 3,
      columns: 4,
      layers: 2,
      rowSpacingMeters: 2,
      columnSpacingMeters: 2,
      layerSpacingMeters: 3,
    }
    const offsets = copyOffsets(layout)
    expect(offsets).toHaveLength(23)
    expect(offsets.filter((o) => o.upMeters === 0)).toHaveLength(11)
    expect(offsets.filter((o) => o.upMeters === 3)).toHaveLength(12)
    expect(new Set(offsets.map((o) => `${o.eastMeters},${o.northMeters},${o.upMeters}`)).size).toBe(
      23,
    )
  })

  it('refuses counts that are not whole, out of range, bad spacings and too many copies', () => {
    expect(validateCopyLayout({ kind: 'singleRow', count: 1.5, spacingMeters: 1 })).toEqual({
      count: 'wholeNumber',
    })
    expect(validateCopyLayout({ kind: 'singleRow', count: 0, spacingMeters: 1 })).toEqual({
      count: 'range',
    })
    expect(
      validateCopyLayout({ kind: 'singleColumn', count: 2, spacingMeters: Number.NaN }),
    ).toEqual({ spacingMeters: 'range' })
    expect(
      validateCopyLayout({
        kind: 'array',
        rows: 1,
        columns: 1,
        rowSpacingMeters: 1,
        columnSpacingMeters: 1,
      }),
    ).toEqual({ copies: 'range' })
    expect(
      validateCopyLayout({
        kind: 'multiLayerArray',
        rows: 100,
        columns: 100,
        layers: 2,
        rowSpacingMeters: 1,
        columnSpacingMeters: 1,
        layerSpacingMeters: 1,
      }),
    ).toEqual({ copies: 'tooMany' })
    expect(() =>
      copyOffsets({ kind: 'singleRow', count: copyLimits.maxPerField + 1, spacingMeters: 1 }),
    ).toThrow(RangeError)
  })

  it('allows negative spacing: copies go west, south or down', () => {
    expect(copyOffsets({ kind: 'singleRow', count: 1, spacingMeters: -3 })).toEqual([
      { eastMeters: -3, northMeters: 0, upMeters: 0 },
    ])
  })
})

describe('metres to the scene (city WGS84, building y-up metres)', () => {
  it('turns metres into degrees by the latitude: a metre east spans more longitude up north', () => {
    const equator = degreesPerMeterAt(0)
    expect(1 / equator.lng).toBeCloseTo(metresPerDegreeAtEquator, 0)
    expect(1 / equator.lat).toBeCloseTo(110_574.3, 0)
    const seoul = degreesPerMeterAt(37.5665)
    expect(seoul.lng / equator.lng).toBeCloseTo(1 / Math.cos((37.5665 * Math.PI) / 180), 2)
    expect(Number.isFinite(degreesPerMeterAt(90).lng)).toBe(true)
  })

  it('places a city copy 100 m east and 50 m north where a distance check finds it', () => {
    const origin: [number, number, number] = [126.978408, 37.566653, 12]
    const east = offsetPosition(origin, { eastMeters: 100, northMeters: 0, upMeters: 0 }, 'city')
    const north = offsetPosition(origin, { eastMeters: 0, northMeters: 50, upMeters: 2 }, 'city')
    expect(haversineMeters(origin, east)).toBeCloseTo(100, 0)
    expect(east[1]).toBe(origin[1])
    expect(haversineMeters(origin, north)).toBeCloseTo(50, 0)
    expect(north[0]).toBe(origin[0])
    expect(north[2]).toBe(14)
  })

  it('maps east → x, north → −z, up → y in the building', () => {
    expect(
      offsetPosition([1, 2, 3], { eastMeters: 10, northMeters: 5, upMeters: 3 }, 'building'),
    ).toEqual([11, 5, -2])
  })

  it('copies a selection as a block, each POI by the same metres', () => {
    const sources = [
      { id: 'a', position: [121.6, 31.2, 0] as [number, number, number] },
      { id: 'b', position: [121.6, 60, 0] as [number, number, number] },
    ]
    const placed = copyPositions(
      sources,
      { kind: 'singleRow', count: 2, spacingMeters: 10 },
      'city',
    )
    expect(placed.map((p) => `${p.source.id}${p.index}`)).toEqual(['a0', 'a1', 'b0', 'b1'])
    // The sphere of the check and the ellipsoid differ by up to ~0.5 %.
    for (const { source, position, index } of placed)
      expect(haversineMeters(source.position, position) / ((index + 1) * 10)).toBeCloseTo(1, 2)
    // The same 10 m is more longitude at 60° than at 31.2°.
    const [a0, , b0] = placed
    expect((b0?.position[0] ?? 0) - 121.6).toBeGreaterThan((a0?.position[0] ?? 0) - 121.6)
  })
})
