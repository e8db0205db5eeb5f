import { Ellipsoid } from '@math.gl/geospatial'
import { describe, expect, it } from 'vitest'
import { placementModelMatrix, tilesetLocalPoint } from './tileset-placement'

function toCartographic(matrix: ReturnType<typeof placementModelMatrix>, local: number[]) {
  const fixed = matrix.transformAsPoint(local)
  return Ellipsoid.WGS84.cartesianToCartographic(fixed)
}

describe('placementModelMatrix', () => {
  const placement = { lng: 121.6, lat: 31.2, heightOffset: 12, heading: 0 }

  it('puts the local origin at the anchor, heightOffset above the ellipsoid', () => {
    const [lng, lat, height] = toCartographic(placementModelMatrix(placement), [0, 0, 0])
    expect(lng).toBeCloseTo(121.6, 9)
    expect(lat).toBeCloseTo(31.2, 9)
    expect(height).toBeCloseTo(12, 6)
  })

  it('keeps local +Y north and +Z up without heading', () => {
    const matrix = placementModelMatrix(placement)
    const north = toCartographic(matrix, [0, 100, 0])
    expect(north[1]).toBeGreaterThan(31.2)
    expect(north[0]).toBeCloseTo(121.6, 6)
    expect(toCartographic(matrix, [0, 0, 10])[2]).toBeCloseTo(22, 4)
  })

  it('turns local +Y clockwise by the heading: 90° points it east', () => {
    const matrix = placementModelMatrix({ ...placement, heading: 90 })
    const [lng, lat] = toCartographic(matrix, [0, 100, 0])
    expect(lng).toBeGreaterThan(121.6)
    expect(lat).toBeCloseTo(31.2, 5)
  })
})

describe('tilesetLocalPoint', () => {
  it("gives back a point's local metres wherever the tileset is placed and however turned", () => {
    for (const placement of [
      { lng: 121.6, lat: 31.2, heightOffset: 12, heading: 0 },
      { lng: 126.978, lat: 37.5665, heightOffset: -3, heading: 117.5 },
      { lng: -179.9, lat: 71, heightOffset: 0, heading: 300 },
    ]) {
      for (const local of [
        [0, 0, 0],
        [80, 0, 0],
        [0, 60, 2.5],
        [-1234.5, 987.25, 40],
      ]) {
        const [lng, lat, heightMeters] = toCartographic(placementModelMatrix(placement), local)
        const back = tilesetLocalPoint(placement, {
          lng: lng!,
          lat: lat!,
          heightMeters: heightMeters!,
        })
        expect(back.x).toBeCloseTo(local[0]!, 3)
        expect(back.y).toBeCloseTo(local[1]!, 3)
        expect(back.z).toBeCloseTo(local[2]!, 3)
      }
    }
  })
})
