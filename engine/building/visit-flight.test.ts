import { describe, expect, it } from 'vitest'
import type { FrameScheduler } from '../core/frame-scheduler'
import { CameraFlight, createVisitFlightHandlers, flightPose } from './visit-flight'

/** A view that records where it was put, and a scheduler the test steps by hand. */
function setup() {
  const camera = { position: { x: 0, y: 10, z: 20 } }
  const target = { x: 0, y: 0, z: 0 }
  const view = {
    camera,
    target,
    setCamera(position: readonly number[], to: readonly number[]) {
      const [x = 0, y = 0, z = 0] = position
      const [tx = 0, ty = 0, tz = 0] = to
      Object.assign(camera.position, { x, y, z })
      Object.assign(target, { x: tx, y: ty, z: tz })
    },
  }
  const frames: ((timeMs: number) => void)[] = []
  const scheduler: FrameScheduler = {
    requestFrame(callback) {
      frames.push(callback)
      return () => frames.splice(frames.indexOf(callback), 1)
    },
  }
  const frame = (timeMs: number) => frames.shift()?.(timeMs)
  return { view, camera, frame, frames, flight: new CameraFlight(view, scheduler) }
}

describe('camera flight between tour views', () => {
  it('starts and lands exactly on the views, rising on an arc between them', () => {
    const from = { position: [0, 10, 20] as const, target: [0, 0, 0] as const }
    const to = { position: [40, 10, 20] as const, target: [40, 0, 0] as const }
    expect(flightPose({ ...from } as never, to as never, 0)).toEqual(from)
    const end = flightPose(from as never, to as never, 1)
    expect(end.position[0]).toBeCloseTo(40)
    expect(end.position[1]).toBeCloseTo(10)
    const middle = flightPose(from as never, to as never, 0.5)
    expect(middle.position[0]).toBeCloseTo(20)
    expect(middle.position[1]).toBeCloseTo(20) // lifted by a quarter of 40 m
  })

  it('flies frame by frame and answers arrived at the end', async () => {
    const { camera, frame, flight } = setup()
    const arrived = flight.fly({ position: [40, 10, 20], target: [40, 0, 0] }, 1000)
    frame(0)
    frame(500)
    expect(camera.position.x).toBeCloseTo(20)
    expect(camera.position.y).toBeGreaterThan(10)
    frame(1000)
    await expect(arrived).resolves.toBe(true)
    expect([camera.position.x, camera.position.y, camera.position.z]).toEqual([40, 10, 20])
  })

  it('gives way to the user dragging the view, and to a new flight', async () => {
    const { camera, frame, frames, flight } = setup()
    const first = flight.fly({ position: [40, 10, 20], target: [40, 0, 0] }, 1000)
    frame(0)
    frame(100)
    camera.position.x += 3 // the orbit controls moved the camera
    frame(200)
    await expect(first).resolves.toBe(false)
    expect(frames).toHaveLength(0)

    const second = flight.fly({ position: [0, 5, 5], target: [0, 0, 0] }, 1000)
    const third = flight.fly({ position: [1, 5, 5], target: [0, 0, 0] }, 0)
    await expect(second).resolves.toBe(false)
    await expect(third).resolves.toBe(true)
    expect(camera.position.x).toBe(1)
  })

  it('refuses bad points and durations', async () => {
    const { flight } = setup()
    const { 'building.flyCamera': fly } = createVisitFlightHandlers(flight)
    await expect(fly({ position: [0, Number.NaN, 0], target: [0, 0, 0] })).rejects.toMatchObject({
      code: 'engine.invalidArgument',
    })
    await expect(
      fly({ position: [0, 1, 0], target: [0, 0, 0], durationMs: 60_000 }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
  })
})
