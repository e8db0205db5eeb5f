import { describe, expect, it } from 'vitest'
import {
  createParticles,
  maximumParticleCount,
  minimumParticleCount,
  particleCountFor,
  stepParticles,
} from './particles'

/** A repeatable pseudo-random source, so the test sees the same field every run. */
function seededRandom(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

describe('particle field', () => {
  it('caps the particle count on large screens and keeps a floor on small ones', () => {
    expect(particleCountFor(7680, 4320)).toBe(maximumParticleCount)
    expect(particleCountFor(320, 240)).toBe(minimumParticleCount)
    const atConsoleSize = particleCountFor(1280, 800)
    expect(atConsoleSize).toBeGreaterThan(minimumParticleCount)
    expect(atConsoleSize).toBeLessThanOrEqual(maximumParticleCount)
  })

  it('keeps every particle inside the canvas however long it runs', () => {
    const particles = createParticles(40, 300, 200, seededRandom(7))
    for (let frame = 0; frame < 2000; frame += 1) stepParticles(particles, 33, 300, 200)
    for (const particle of particles) {
      expect(particle.x).toBeGreaterThanOrEqual(0)
      expect(particle.x).toBeLessThanOrEqual(300)
      expect(particle.y).toBeGreaterThanOrEqual(0)
      expect(particle.y).toBeLessThanOrEqual(200)
    }
  })

  it('clamps a long pause so particles do not jump when a hidden tab resumes', () => {
    const [particle] = createParticles(1, 1000, 1000, () => 0.5)
    particle!.velocityX = 10
    const before = particle!.x
    stepParticles([particle!], 60_000, 1000, 1000)
    expect(particle!.x - before).toBeCloseTo(1, 5)
  })
})
