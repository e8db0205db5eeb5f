import { afterEach, describe, expect, it } from 'vitest'
import type { LngLat } from '../../../workers/geodesy/draw-geometry'
import { FenceIndex, type FenceShape } from '../../../workers/geodesy/fence-index'
import { createFenceChecker, type FenceChecker, fenceBatchMaxPoints } from './fence-checker'

/**
 * The fence thread (issue 18, fences checked in a worker): it answers what the index answers
 * in one thread, for many positions at once, reads a project's fences once and again after they
 * changed, keeps projects apart, keeps no failed read, and starts again after being closed.
 */

/** A ~100 m square in Seoul, a 60 m circle east of it and a ring across the antimeridian. */
const square: FenceShape = {
  id: 'square',
  kind: 'polygon',
  ring: [
    [126.978, 37.5665],
    [126.97913, 37.5665],
    [126.97913, 37.5674],
    [126.978, 37.5674],
  ],
}
const circle: FenceShape = {
  id: 'circle',
  kind: 'circle',
  center: [126.9795, 37.567],
  radiusMeters: 60,
}
const acrossTheDateLine: FenceShape = {
  id: 'dateline',
  kind: 'polygon',
  ring: [
    [179.9, -16.6],
    [-179.9, -16.6],
    [-179.9, -16.4],
    [179.9, -16.4],
  ],
}

/** A grid of positions over the square and the circle, some inside each, some in neither. */
function gridOverSeoul(count: number): LngLat[] {
  const side = Math.ceil(Math.sqrt(count))
  return Array.from(
    { length: count },
    (_, index): LngLat => [
      126.9775 + ((index % side) / side) * 0.0035,
      37.566 + (Math.floor(index / side) / side) * 0.0018,
    ],
  )
}

const checkers: FenceChecker[] = []
afterEach(async () => {
  await Promise.all(checkers.splice(0).map((checker) => checker.close()))
})

function checkerOf(loadShapes: (projectId: string) => Promise<FenceShape[]>) {
  const checker = createFenceChecker({ loadShapes })
  checkers.push(checker)
  return checker
}

describe('fence checks in a worker thread', () => {
  it('answers what the index answers, for a burst of positions larger than one batch', async () => {
    const shapes = [square, circle, acrossTheDateLine]
    const checker = checkerOf(async () => shapes)
    const points = [
      ...gridOverSeoul(fenceBatchMaxPoints * 2 + 17),
      [180, -16.5] as LngLat,
      [-179.95, -16.5] as LngLat,
      [179.95, -16.5] as LngLat,
    ]
    const index = new FenceIndex(shapes)
    const expected = points.map((point) => index.containing(point))
    const answers = await Promise.all(points.map((point) => checker.containing('p', point)))
    expect(answers).toEqual(expected)
    // the grid has positions in each fence, in both, and in none
    expect(answers.filter((ids) => ids.includes('square')).length).toBeGreaterThan(10)
    expect(answers.filter((ids) => ids.includes('circle')).length).toBeGreaterThan(10)
    expect(answers.filter((ids) => ids.length === 0).length).toBeGreaterThan(10)
    expect(answers.slice(-3)).toEqual([['dateline'], ['dateline'], ['dateline']])
  })

  it("reads a project's fences once, again after they changed, and keeps projects apart", async () => {
    const fences = new Map<string, FenceShape[]>([
      ['a', [square]],
      ['b', [circle]],
    ])
    const reads: string[] = []
    const checker = checkerOf(async (projectId) => {
      reads.push(projectId)
      return fences.get(projectId) ?? []
    })
    const inBoth: LngLat = [126.9791, 37.567]
    expect(await checker.containing('a', inBoth)).toEqual(['square'])
    expect(await checker.containing('b', inBoth)).toEqual(['circle'])
    expect(await checker.containing('a', inBoth)).toEqual(['square'])
    expect(reads).toEqual(['a', 'b'])

    // a question asked in the same turn as the change sees the fences as they are now
    fences.set('a', [circle, square])
    const asked = checker.containing('a', inBoth)
    checker.forget('a')
    expect(await asked).toEqual(expect.arrayContaining(['square']))
    expect(await checker.containing('a', inBoth)).toEqual(['circle', 'square'])
    expect(await checker.containing('b', inBoth)).toEqual(['circle'])
    expect(reads.filter((projectId) => projectId === 'a').length).toBeGreaterThanOrEqual(2)
    expect(reads.filter((projectId) => projectId === 'b')).toEqual(['b'])
  })

  it('keeps no failed read, and starts a new thread after being closed', async () => {
    let isDatabaseDown = true
    const checker = checkerOf(async () => {
      if (isDatabaseDown) throw new Error('database down')
      return [square]
    })
    const inside: LngLat = [126.9785, 37.567]
    await expect(checker.containing('p', inside)).rejects.toThrow('database down')
    isDatabaseDown = false
    expect(await checker.containing('p', inside)).toEqual(['square'])
    await checker.close()
    expect(await checker.containing('p', inside)).toEqual(['square'])
    expect(await checker.containing('p', [126.9805, 37.567])).toEqual([])
  })
})
