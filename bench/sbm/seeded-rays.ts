import { Vector3 } from 'three'
import type { PickRay } from '../../workers/bvh/picking-scene'

/**
 * Rays from a sphere around the building toward random points inside its box: mostly hits, the
 * same for a seed on every side (the node and browser SBM benchmarks, ours and the anchor).
 */
export function seededRays(
  bounds: { min: Vector3; max: Vector3 },
  count: number,
  seed: number,
): PickRay[] {
  let state = seed >>> 0
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 4294967296
  }
  const center = bounds.min.clone().add(bounds.max).multiplyScalar(0.5)
  const radius = bounds.max.distanceTo(bounds.min)
  return Array.from({ length: count }, () => {
    const theta = random() * Math.PI * 2
    const phi = Math.acos(2 * random() - 1)
    const origin = new Vector3(
      center.x + radius * Math.sin(phi) * Math.cos(theta),
      center.y + radius * Math.cos(phi),
      center.z + radius * Math.sin(phi) * Math.sin(theta),
    )
    const target = new Vector3(
      bounds.min.x + random() * (bounds.max.x - bounds.min.x),
      bounds.min.y + random() * (bounds.max.y - bounds.min.y),
      bounds.min.z + random() * (bounds.max.z - bounds.min.z),
    )
    return {
      origin: origin.toArray() as [number, number, number],
      direction: target.sub(origin).normalize().toArray() as [number, number, number],
    }
  })
}
