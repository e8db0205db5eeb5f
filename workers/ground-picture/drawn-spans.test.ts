import { describe, expect, it } from 'vitest'
import { drawnSpansOf, drawnTileTexels } from './ground-picture-paint'

/**
 * The drawn parts of the ground picture (issue 18's drawing frames): the picture's quads are
 * drawn only over them, so every texel with something drawn must be inside one, and the clear
 * ground between drawings in none.
 */

const tile = drawnTileTexels

/** A clear premultiplied RGBA picture with the texels at `drawn` (x, y) see-through blue. */
function pictureWith(width: number, height: number, drawn: readonly (readonly number[])[]) {
  const pixels = new Uint8Array(width * height * 4)
  for (const [x, y] of drawn) pixels.set([0, 0, 16, 16], (y! * width + x!) * 4)
  return pixels
}

/** The spans as [x0, y0, x1, y1] rectangles. */
function rectanglesOf(spans: Uint32Array): number[][] {
  return Array.from({ length: spans.length / 4 }, (_, index) => [
    ...spans.subarray(index * 4, index * 4 + 4),
  ])
}

const covers = (rectangles: number[][], x: number, y: number) =>
  rectangles.some(([x0, y0, x1, y1]) => x >= x0! && x < x1! && y >= y0! && y < y1!)

describe('the drawn parts of the ground picture', () => {
  it('has none for a clear picture', () => {
    expect(drawnSpansOf(new Uint8Array(100 * 70 * 4), 100, 70)).toHaveLength(0)
  })

  it('covers two drawings far apart by their own squares, not the ground between them', () => {
    const width = tile * 10
    const height = tile * 4
    const spans = rectanglesOf(
      drawnSpansOf(
        pictureWith(width, height, [
          [3, 5],
          [width - 2, height - 1],
        ]),
        width,
        height,
      ),
    )
    expect(spans).toEqual([
      [0, 0, tile, tile],
      [width - tile, height - tile, width, height],
    ])
  })

  it('joins a row of drawn squares into one and ends the last squares at the picture edge', () => {
    // A line across the whole picture in its last row of squares, which is not a whole one (nor
    // is the last column).
    const width = tile * 3 + 5
    const height = tile * 2 + 7
    const line = Array.from({ length: width }, (_, x) => [x, tile * 2 + 3])
    const spans = rectanglesOf(drawnSpansOf(pictureWith(width, height, line), width, height))
    expect(spans).toEqual([[0, tile * 2, width, height]])
  })

  it('is the whole picture when drawings cover most of it', () => {
    const width = tile * 4
    const height = tile * 4
    // Something in 13 of the 16 squares: more than three quarters.
    const drawn = Array.from({ length: 13 }, (_, index) => [
      (index % 4) * tile + 1,
      Math.floor(index / 4) * tile + 2,
    ])
    expect([...drawnSpansOf(pictureWith(width, height, drawn), width, height)]).toEqual([
      0,
      0,
      width,
      height,
    ])
    // In 11 of them, drawn parts only.
    const fewer = drawnSpansOf(pictureWith(width, height, drawn.slice(0, 11)), width, height)
    expect(rectanglesOf(fewer)).toEqual([
      [0, 0, width, tile],
      [0, tile, width, tile * 2],
      [0, tile * 2, tile * 3, tile * 3],
    ])
  })

  it('keeps every texel that is not clear inside a drawn part', () => {
    let seed = 7
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647
      return seed / 2_147_483_647
    }
    const width = 300
    const height = 211
    const drawn = Array.from({ length: 20 }, () => [
      Math.floor(random() * width),
      Math.floor(random() * height),
    ])
    const spans = rectanglesOf(drawnSpansOf(pictureWith(width, height, drawn), width, height))
    for (const [x, y] of drawn) expect(covers(spans, x!, y!)).toBe(true)
    // and within the picture, never overlapping (no texel is drawn twice)
    let area = 0
    for (const [x0, y0, x1, y1] of spans) {
      expect(x1).toBeLessThanOrEqual(width)
      expect(y1).toBeLessThanOrEqual(height)
      area += (x1! - x0!) * (y1! - y0!)
    }
    const covered = new Set<number>()
    for (const [x0, y0, x1, y1] of spans)
      for (let y = y0!; y < y1!; y++) for (let x = x0!; x < x1!; x++) covered.add(y * width + x)
    expect(covered.size).toBe(area)
    expect(area).toBeLessThan(width * height)
  })
})
