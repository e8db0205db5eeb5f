import { describe, expect, it } from 'vitest'
import type { GroundDrawings } from './ground-picture-paint'
import { packDrawings, transferablesOf, unpackDrawings } from './packed-drawings'

describe('drawings packed for the ground-picture worker', () => {
  const drawings: GroundDrawings = {
    fills: [
      {
        ring: [
          [126.97, 37.56],
          [126.98, 37.56],
          [126.98, 37.57],
        ],
        color: [30, 136, 229, 64],
      },
      {
        ring: [
          [-179.9999, 0],
          [179.9999, 0.001],
          [179.9999, -0.001],
        ],
        color: [255, 0, 0, 255],
      },
    ],
    lines: [
      {
        path: [
          [126.97, 37.56],
          [126.98, 37.56],
          [126.98, 37.57],
        ],
        color: [30, 136, 229, 255],
        widthPixels: 2,
        isClosed: true,
      },
      {
        path: [
          [126.1, 37.1],
          [126.2, 37.2],
        ],
        color: [255, 59, 48, 255],
        widthPixels: 3.5,
      },
    ],
    dots: [
      {
        position: [126.5, 37.5],
        fillColor: [255, 59, 48, 255],
        lineColor: [255, 255, 255, 255],
        radiusPixels: 5,
        lineWidthPixels: 1.5,
      },
    ],
  }

  it('arrive as they were given: every point exact, colours, widths and closed outlines', () => {
    expect(unpackDrawings(packDrawings(drawings))).toEqual(drawings)
    const empty: GroundDrawings = { fills: [], lines: [], dots: [] }
    expect(unpackDrawings(packDrawings(empty))).toEqual(empty)
  })

  it('travel as a few buffers handed over, not thousands of small arrays copied', () => {
    const many: GroundDrawings = {
      ...drawings,
      fills: Array.from({ length: 1_000 }, () => drawings.fills[0]!),
    }
    const packed = packDrawings(many)
    const buffers = transferablesOf(packed)
    expect(buffers).toHaveLength(5)
    const { port1, port2 } = new MessageChannel()
    port1.postMessage(packed, buffers)
    // Handed over: the page's side no longer holds (or copies) the points.
    expect(packed.coordinates.byteLength).toBe(0)
    port1.close()
    port2.close()
  })
})
