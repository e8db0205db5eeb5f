/**
 * The particle field behind every page, as plain data and functions so its cost is visible and
 * testable: a few dozen dots drifting slowly, joined by faint lines when close.
 */

/** One drifting dot; speeds are in CSS pixels per second. */
export interface Particle {
  x: number
  y: number
  velocityX: number
  velocityY: number
  radiusPx: number
}

/** Upper bound whatever the screen size: the line pass is quadratic in the count. */
export const maximumParticleCount = 70
/** Lower bound so a small window still shows a field. */
export const minimumParticleCount = 12
/** One particle per this many square CSS pixels (≈ 56 on 1280×800). */
const areaPerParticlePx2 = 18_000
/** Particles closer than this are joined by a line. */
export const linkDistancePx = 130
const maximumSpeedPxPerSecond = 18

/** How many particles a canvas of this size gets. */
export function particleCountFor(widthPx: number, heightPx: number): number {
  const byArea = Math.round((Math.max(0, widthPx) * Math.max(0, heightPx)) / areaPerParticlePx2)
  return Math.min(maximumParticleCount, Math.max(minimumParticleCount, byArea))
}

/** Scatters `count` particles over the area with random slow velocities. */
export function createParticles(
  count: number,
  widthPx: number,
  heightPx: number,
  random: () => number = Math.random,
): Particle[] {
  return Array.from({ length: count }, () => ({
    x: random() * widthPx,
    y: random() * heightPx,
    velocityX: (random() * 2 - 1) * maximumSpeedPxPerSecond,
    velocityY: (random() * 2 - 1) * maximumSpeedPxPerSecond,
    radiusPx: 0.8 + random() * 1.6,
  }))
}

/**
 * Moves every particle by its velocity over `elapsedMs` and bounces it off the edges, so the
 * field never thins out. A long gap (a hidden tab resuming) is clamped to avoid a visible jump.
 */
export function stepParticles(
  particles: Particle[],
  elapsedMs: number,
  widthPx: number,
  heightPx: number,
): void {
  const seconds = Math.min(Math.max(elapsedMs, 0), 100) / 1000
  for (const particle of particles) {
    particle.x += particle.velocityX * seconds
    particle.y += particle.velocityY * seconds
    if (particle.x < 0 || particle.x > widthPx) {
      particle.velocityX = -particle.velocityX
      particle.x = Math.min(Math.max(particle.x, 0), widthPx)
    }
    if (particle.y < 0 || particle.y > heightPx) {
      particle.velocityY = -particle.velocityY
      particle.y = Math.min(Math.max(particle.y, 0), heightPx)
    }
  }
}

/** Clears the canvas and draws the dots and the lines between near pairs. */
export function drawParticles(
  context: CanvasRenderingContext2D,
  particles: readonly Particle[],
  widthPx: number,
  heightPx: number,
): void {
  context.clearRect(0, 0, widthPx, heightPx)
  context.lineWidth = 1
  const linkDistanceSquared = linkDistancePx * linkDistancePx
  for (let first = 0; first < particles.length; first += 1) {
    const a = particles[first]!
    for (let second = first + 1; second < particles.length; second += 1) {
      const b = particles[second]!
      const dx = a.x - b.x
      const dy = a.y - b.y
      const distanceSquared = dx * dx + dy * dy
      if (distanceSquared > linkDistanceSquared) continue
      const closeness = 1 - Math.sqrt(distanceSquared) / linkDistancePx
      context.strokeStyle = `rgba(77, 157, 255, ${(closeness * 0.22).toFixed(3)})`
      context.beginPath()
      context.moveTo(a.x, a.y)
      context.lineTo(b.x, b.y)
      context.stroke()
    }
  }
  context.fillStyle = 'rgba(140, 190, 255, 0.55)'
  for (const particle of particles) {
    context.beginPath()
    context.arc(particle.x, particle.y, particle.radiusPx, 0, Math.PI * 2)
    context.fill()
  }
}
