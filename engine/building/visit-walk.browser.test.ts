import { describe, expect, it } from 'vitest'
import type { BuildingSceneDescription } from '../api/building-snapshot'
import type { Engine } from '../core/engine'
import { boxSbm } from './testing/box-sbm'
import { browserEngineFixture } from '../testing/browser-engine'

/**
 * The WASD walk as the app runs it: real Chromium, WebGL2 on SwiftShader, the real decode and
 * picking workers. The room is a real SBM of boxes, so every wall and floor is known exactly:
 * a 30 m × 20 m floor slab (top 0.1 m), a red wall north (face z = −4.9), a blue wall south (face
 * z = 4.9), a crate 1.2 m high west (face x = −3.5) and a 0.3 m platform east (x 4…8).
 */
const { startEngine, blobUrlOf } = browserEngineFixture()

function roomDescription(): BuildingSceneDescription {
  const room = boxSbm(
    [
      { name: 'Floor', size: [30, 0.2, 20], centre: [0, 0, 0], color: [0.5, 0.5, 0.5] },
      { name: 'North wall', size: [30, 4, 0.2], centre: [0, 2, -5], color: [0.9, 0.05, 0.05] },
      { name: 'South wall', size: [30, 4, 0.2], centre: [0, 2, 5], color: [0.05, 0.1, 0.9] },
      { name: 'Crate', size: [1, 1.2, 10], centre: [-4, 0.7, 0], color: [0.6, 0.4, 0.2] },
      { name: 'Platform', size: [4, 0.3, 10], centre: [6, 0.25, 0], color: [0.2, 0.7, 0.2] },
    ],
    { role: 'floor', floors: [{ id: 'F1', name: '1F', elevationMeters: 0 }] },
  )
  const url = blobUrlOf(room)
  return {
    projectId: 'walk',
    name: 'Room',
    shellModelId: null,
    floors: [{ id: 'F1', name: '1F', elevationMeters: 0, modelIds: ['room'] }],
    models: [
      { id: 'room', name: 'Room', role: 'floor', floorId: 'F1', url, sizeBytes: room.byteLength },
    ],
  }
}

const walkOf = (engine: Engine) => engine.getSnapshot().building.walk

describe('WASD walk in Chromium', () => {
  it('walks to a wall and stops, slides along it, stops at a crate, climbs a step; Esc gives the orbit back', async () => {
    const engine = startEngine()
    await expect(engine.run('walk.start', {})).rejects.toMatchObject({ code: 'building.notOpen' })
    await engine.run('building.open', { description: roomDescription() })
    await expect.poll(() => engine.getSnapshot().building.models[0]?.loadState).toBe('success')
    await expect(engine.run('walk.start', { eyeHeightMeters: 9 })).rejects.toMatchObject({
      code: 'engine.invalidArgument',
    })

    const started = await engine.run('walk.start', {
      at: [0, 0.1, 0],
      yawDegrees: 0,
      speedMetersPerSecond: 4,
    })
    expect(started).toMatchObject({ isWalking: true, isBlocked: false })
    expect(started.floorHeight).toBeCloseTo(0.1, 3)
    expect(started.eye[1]).toBeCloseTo(1.7, 3)
    // the camera is the eye, looking north at the red wall
    await expect.poll(() => engine.getSnapshot().building.camera.position[1]).toBeCloseTo(1.7, 3)
    const facingNorth = (await engine.run('building.countDrawnPixels')).centreRgb
    expect(facingNorth[0]).toBeGreaterThan(facingNorth[2] + 40)

    // W held: to the wall, stopped a body's radius before its face
    await engine.run('walk.setMovement', { forward: 1, right: 0 })
    await expect.poll(() => walkOf(engine).isBlocked, { timeout: 30_000 }).toBe(true)
    await engine.run('walk.setMovement', { forward: 0, right: 0 })
    expect(walkOf(engine).eye[2]).toBeCloseTo(-4.6, 2)
    expect(walkOf(engine).eye[1]).toBeCloseTo(1.7, 3)
    expect(walkOf(engine).distanceWalked).toBeCloseTo(4.6, 1)

    // turned north-west it slides west along the wall until the crate (too high to step on)
    await engine.run('walk.look', { yawDegrees: 45, pitchDegrees: 0 })
    await engine.run('walk.setMovement', { forward: 1, right: 0 })
    await expect.poll(() => walkOf(engine).eye[0], { timeout: 30_000 }).toBeLessThan(-3.19)
    await engine.run('walk.setMovement', { forward: 0, right: 0 })
    expect(walkOf(engine).eye[0]).toBeCloseTo(-3.2, 2)
    expect(walkOf(engine).eye[2]).toBeCloseTo(-4.6, 2)
    expect(walkOf(engine).floorHeight).toBeCloseTo(0.1, 3)

    // turned east (D would strafe; here the view turns) it walks up onto the platform and off it
    await engine.run('walk.look', { yawDegrees: -135, pitchDegrees: 0 })
    await expect.poll(() => walkOf(engine).yawDegrees).toBeCloseTo(-90, 5)
    await engine.run('walk.setMovement', { forward: 1, right: 0 })
    const eyeOnPlatform = () => {
      const walk = walkOf(engine)
      return walk.floorHeight !== null && Math.abs(walk.floorHeight - 0.4) < 1e-3 ? walk.eye[1] : -1
    }
    await expect.poll(eyeOnPlatform, { timeout: 30_000 }).toBeCloseTo(2, 3)
    await expect.poll(() => walkOf(engine).eye[0], { timeout: 30_000 }).toBeGreaterThan(8.5)
    await engine.run('walk.setMovement', { forward: 0, right: 0 })
    expect(walkOf(engine).floorHeight).toBeCloseTo(0.1, 3)
    expect(walkOf(engine).eye[1]).toBeCloseTo(1.7, 3)

    // turned south, the blue wall fills the middle of the view
    await engine.run('walk.look', { yawDegrees: -90, pitchDegrees: 0 })
    const facingSouth = (await engine.run('building.countDrawnPixels')).centreRgb
    expect(facingSouth[2]).toBeGreaterThan(facingSouth[0] + 40)

    // Esc: the orbit controls take the camera where the eye was, looking on
    await engine.run('walk.stop')
    await expect.poll(() => walkOf(engine).isWalking).toBe(false)
    const { camera, walk } = engine.getSnapshot().building
    for (const [axis, value] of camera.position.entries()) {
      expect(value).toBeCloseTo(walk.eye[axis]!, 3)
    }
    expect(camera.target[2]).toBeCloseTo(walk.eye[2] + 3, 3)
    // keys after leaving do nothing
    await engine.run('walk.setMovement', { forward: 1, right: 0 })
    expect(walkOf(engine).isWalking).toBe(false)
  })
})
