import type { Vector3Tuple } from '../api/building-snapshot'
import { EngineError } from '../api/errors'

/** The WASD walk's headings (engine/building/visit-walk.ts): pure, tested in Node. */

const degrees = Math.PI / 180

/** The unit direction of a heading: yaw 0 looks along −z, yaw 90 along −x; pitch up is +. */
export function walkDirection(yawDegrees: number, pitchDegrees: number): Vector3Tuple {
  const yaw = yawDegrees * degrees
  const pitch = pitchDegrees * degrees
  return [-Math.sin(yaw) * Math.cos(pitch), Math.sin(pitch), -Math.cos(yaw) * Math.cos(pitch)]
}

/** The yaw (degrees) of looking from `from` to `to`; 0 when looking straight down or up. */
export function yawBetween(from: Vector3Tuple, to: Vector3Tuple): number {
  const dx = to[0] - from[0]
  const dz = to[2] - from[2]
  return Math.hypot(dx, dz) < 1e-9 ? 0 : Math.atan2(-dx, -dz) / degrees
}

/** A yaw in (−180, 180]. */
export function normalizedYaw(yawDegrees: number): number {
  const wrapped = ((((yawDegrees + 180) % 360) + 360) % 360) - 180
  return wrapped === -180 ? 180 : wrapped
}

/** The horizontal unit vector the held keys point to at `yawDegrees`, or null when none are held. */
export function walkHeading(
  yawDegrees: number,
  movement: { forward: number; right: number },
): [number, number] | null {
  const yaw = yawDegrees * degrees
  // forward (−z at yaw 0) and right (+x at yaw 0), turned by the yaw
  const x = -Math.sin(yaw) * movement.forward + Math.cos(yaw) * movement.right
  const z = -Math.cos(yaw) * movement.forward - Math.sin(yaw) * movement.right
  const length = Math.hypot(x, z)
  return length < 1e-9 ? null : [x / length, z / length]
}

/** A finite number in [min, max], or an `engine.invalidArgument` naming it. */
export function checkNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new EngineError(
      'engine.invalidArgument',
      `${name} must be a number from ${min} to ${max}.`,
    )
  }
  return value
}
