import { describe, expect, it } from 'vitest'
import { geodesicDistanceMeters, type LngLat } from '../../../workers/geodesy/draw-geometry'
import { measurePath, positionAlong } from './path-flight'

describe('path flight', () => {
  const path: LngLat[] = [
    [126.978, 37.5665],
    [126.98, 37.5665],
    [126.98, 37.568],
  ]

  it('walks the path by geodesic metres, looking along each segment', () => {
    const measured = measurePath(path)
    const first = geodesicDistanceMeters(path[0]!, path[1]!)
    expect(measured.totalMeters).toBeCloseTo(first + geodesicDistanceMeters(path[1]!, path[2]!), 6)
    const start = positionAlong(measured, 0)
    expect(start.position[0]).toBeCloseTo(path[0]![0], 9)
    expect(start.bearing).toBeCloseTo(90, 0)
    const middle = positionAlong(measured, first / 2)
    expect(geodesicDistanceMeters(middle.position, path[0]!)).toBeCloseTo(first / 2, 3)
    const turn = positionAlong(measured, first + 10)
    expect(turn.bearing).toBeCloseTo(0, 0)
    expect(geodesicDistanceMeters(turn.position, path[1]!)).toBeCloseTo(10, 3)
    // past the end: the last point
    const end = positionAlong(measured, measured.totalMeters + 100)
    expect(geodesicDistanceMeters(end.position, path[2]!)).toBeLessThan(0.001)
  })
})
