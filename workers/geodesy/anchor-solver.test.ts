import { describe, expect, it } from 'vitest'
import { type Anchor, anchorModelToLngLat, solveAnchors } from './anchor-solver'
import { geodesicDestination, geodesicDistanceMeters, type LngLat } from './draw-geometry'
import { createTangentPlane } from './local-tangent-plane'

/** A seeded generator (mulberry32), so each run draws the same noise. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Standard normal draws (Box–Muller). */
function gaussian(uniform: () => number) {
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform())
}

interface Truth {
  origin: LngLat
  scale: number
  rotationDegrees: number
}

/** Where the true transform puts model (x, y): the plane at `origin`, model (0, 0) there. */
const truePosition = (truth: Truth, x: number, y: number): LngLat => {
  const radians = (truth.rotationDegrees * Math.PI) / 180
  const c = truth.scale * Math.cos(radians)
  const s = truth.scale * Math.sin(radians)
  return createTangentPlane(truth.origin).fromEnu(c * x - s * y, s * x + c * y)
}

describe('anchor solver', () => {
  it('recovers an exact similarity transform from 3 anchors', () => {
    const truth: Truth = { origin: [126.978, 37.5665], scale: 1.05, rotationDegrees: 30 }
    const model = [
      [0, 0],
      [80, 10],
      [20, 60],
    ] as const
    const anchors: Anchor[] = model.map(([x, y]) => {
      const [lng, lat] = truePosition(truth, x, y)
      return { x, y, lng, lat }
    })
    const result = solveAnchors(anchors)
    if (!result.ok) throw new Error(result.issue.code)
    expect(result.fit.scale).toBeCloseTo(1.05, 9)
    expect(result.fit.rotationAtOriginDegrees).toBeCloseTo(30, 6)
    // In the plane at the anchors' mean, east has turned by the meridians' convergence.
    expect(Math.abs(result.fit.rotationDegrees - 30)).toBeLessThan(1e-3)
    expect(geodesicDistanceMeters(result.fit.originLngLat, truth.origin)).toBeLessThan(1e-6)
    for (const residual of result.fit.residualsMeters) expect(residual).toBeLessThan(1e-6)
    expect(
      geodesicDistanceMeters(anchorModelToLngLat(result.fit, 50, 50), truePosition(truth, 50, 50)),
    ).toBeLessThan(1e-6)
  })

  const places: Record<string, LngLat> = {
    seoul: [126.978, 37.5665],
    'across the antimeridian': [179.9995, -17.7],
    'far north': [25.78, 71.17],
  }
  const noiseMeters = 0.5
  for (const [place, origin] of Object.entries(places)) {
    it(`with 3 to 20 noisy anchors ${place}, the fit is off by at most 2× the noise`, () => {
      const uniform = random(origin[0] * 1000 + origin[1])
      const normal = gaussian(uniform)
      for (let count = 3; count <= 20; count++) {
        const truth: Truth = {
          origin,
          scale: 0.8 + 0.45 * uniform(),
          rotationDegrees: 360 * uniform() - 180,
        }
        const anchors: Anchor[] = Array.from({ length: count }, () => {
          const x = 300 * uniform() - 150
          const y = 300 * uniform() - 150
          // Noise in metres on the earth's side, in a random direction (as a picked map point).
          const east = normal() * noiseMeters
          const north = normal() * noiseMeters
          const [lng, lat] = geodesicDestination(
            truePosition(truth, x, y),
            (Math.atan2(east, north) * 180) / Math.PI,
            Math.hypot(east, north),
          )
          return { x, y, lng, lat }
        })
        const result = solveAnchors(anchors)
        if (!result.ok) throw new Error(`${count}: ${result.issue.code}`)
        // The transform's error where it matters: at the anchors' model points, against truth.
        const errors = anchors.map(({ x, y }) =>
          geodesicDistanceMeters(anchorModelToLngLat(result.fit, x, y), truePosition(truth, x, y)),
        )
        const rmsError = Math.sqrt(errors.reduce((sum, e) => sum + e * e, 0) / count)
        // The noise as a 2D distance: √2 σ.
        expect(rmsError, `${count} anchors`).toBeLessThan(2 * Math.SQRT2 * noiseMeters)
        // The residuals a user reads are of the size of the noise too.
        expect(result.fit.rmsMeters).toBeLessThan(2 * Math.SQRT2 * noiseMeters)
        expect(Math.abs(result.fit.scale - truth.scale)).toBeLessThan(0.02)
      }
    })
  }

  it('reports each anchor’s residual in metres, the misplaced one largest', () => {
    const truth: Truth = { origin: [2.35, 48.85], scale: 1, rotationDegrees: -12 }
    const model = [
      [0, 0],
      [100, 0],
      [100, 100],
      [0, 100],
    ] as const
    const anchors: Anchor[] = model.map(([x, y], index) => {
      const position = truePosition(truth, x, y)
      const [lng, lat] = index === 2 ? geodesicDestination(position, 45, 8) : position
      return { x, y, lng, lat }
    })
    const result = solveAnchors(anchors)
    if (!result.ok) throw new Error(result.issue.code)
    const residuals = result.fit.residualsMeters
    expect(residuals).toHaveLength(4)
    expect(Math.max(...residuals)).toBe(residuals[2])
    // Each corner of a square has leverage 1/2 in a similarity fit (1/4 from the translation,
    // 1/4 from scale and rotation), so half of an 8 m blunder stays on the misplaced anchor.
    expect(residuals[2]).toBeCloseTo(4, 3)
  })

  it('refuses fewer than 3 anchors, collinear anchors and coordinates out of range', () => {
    const a: Anchor = { x: 0, y: 0, lng: 127, lat: 37 }
    const b: Anchor = { x: 100, y: 0, lng: 127.001, lat: 37 }
    expect(solveAnchors([a, b])).toEqual({
      ok: false,
      issue: { code: 'tooFewAnchors', params: { min: 3, count: 2 } },
    })
    expect(solveAnchors([a, b, { x: 50, y: 0.1, lng: 127.0005, lat: 37.0005 }])).toEqual({
      ok: false,
      issue: { code: 'anchorsCollinear', params: {} },
    })
    // Collinear on the earth's side, though not in the model.
    expect(solveAnchors([a, b, { x: 50, y: 50, lng: 127.0005, lat: 37 }])).toEqual({
      ok: false,
      issue: { code: 'anchorsCollinear', params: {} },
    })
    expect(solveAnchors([a, b, a])).toMatchObject({
      ok: false,
      issue: { code: 'anchorsCollinear' },
    })
    expect(solveAnchors([a, b, { x: 0, y: 50, lng: 127, lat: 91 }])).toEqual({
      ok: false,
      issue: { code: 'anchorCoordinateOutOfRange', params: { index: 2 } },
    })
  })
})
