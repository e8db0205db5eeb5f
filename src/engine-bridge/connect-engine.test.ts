import { proxy, snapshot, subscribe } from 'valtio'
import { describe, expect, it } from 'vitest'
import {
  createInitialSnapshot,
  defaultBuildingCamera,
  type Engine,
  type EngineSnapshot,
} from '../../engine/api'
import { connectEngine } from './connect-engine'
import type { SceneState } from './scene-store'

/** An engine that publishes the snapshots a test hands it, as the frame loop does. */
function publishingEngine(first: EngineSnapshot) {
  let current = first
  const listeners = new Set<(snapshot: EngineSnapshot) => void>()
  const on = (_name: string, listener: (snapshot: EngineSnapshot) => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  return {
    getSnapshot: () => current,
    on: on as unknown as Engine['on'],
    publish(next: EngineSnapshot) {
      current = next
      for (const listener of listeners) listener(next)
    },
  }
}

/**
 * A snapshot of an open building as the engine publishes it on each frame: the building part
 * rebuilt from scratch (new floor objects even when nothing about them changed).
 */
function frame(
  revision: number,
  cameraX: number,
  floorNames: readonly string[] = ['1F', '2F'],
): EngineSnapshot {
  const initial = createInitialSnapshot()
  return {
    ...initial,
    revision,
    frameStats: { frameCount: revision, lastFrameWorkMs: 1, longestFrameWorkMs: 2 },
    building: {
      ...initial.building,
      isOpen: true,
      projectId: 'house',
      name: 'House',
      floors: floorNames.map((name, index) => ({
        id: `floor-${index}`,
        name,
        elevationMeters: index * 3,
        isVisible: true,
        isShown: true,
      })),
      camera: { ...defaultBuildingCamera, distance: 30, position: [cameraX, 10, 20] },
    },
  }
}

describe('connectEngine mirroring a moving scene', () => {
  it('changes only the camera numbers while the camera flies: the floors keep their objects and their readers are not notified', () => {
    const store = proxy<SceneState>(createInitialSnapshot())
    const engine = publishingEngine(frame(1, 0))
    const disconnect = connectEngine(engine, store)
    const floors = store.building.floors
    const camera = store.building.camera
    const floorsAsRead = snapshot(store).building.floors
    const floorNotices: unknown[] = []
    const stopListening = subscribe(store.building.floors, (ops) => floorNotices.push(ops), true)

    for (let revision = 2; revision <= 30; revision++) engine.publish(frame(revision, revision))

    expect(store.revision).toBe(30)
    expect(store.building.camera.position).toEqual([30, 10, 20])
    // the same objects, changed in place: no new proxies per frame
    expect(store.building.camera).toBe(camera)
    expect(store.building.floors).toBe(floors)
    // a component reading the floors sees the very same snapshot, so it does not render again
    expect(snapshot(store).building.floors).toBe(floorsAsRead)
    expect(floorNotices).toEqual([])

    engine.publish(frame(31, 30, ['Ground']))
    expect(store.building.floors.map((floor) => floor.name)).toEqual(['Ground'])
    expect(floorNotices.length).toBeGreaterThan(0)
    stopListening()
    disconnect()
  })

  it('mirrors what appears and goes away: a pick and back to none, properties that are dropped, lists that grow', () => {
    const store = proxy<SceneState>(createInitialSnapshot())
    const engine = publishingEngine(frame(1, 0, ['1F']))
    const disconnect = connectEngine(engine, store)
    const pick = {
      point: [1, 2, 3] as const,
      normal: [0, 1, 0] as const,
      distance: 12,
      meshName: 'wall',
      modelId: 'shell',
      floorId: null,
    }
    const feature = (properties: Record<string, unknown>) => ({
      tilesetId: 'city',
      tileId: 't1',
      featureId: 7,
      properties,
    })
    const published: EngineSnapshot[] = [
      { ...frame(2, 0, ['1F', '2F', '3F']), building: { ...frame(2, 0).building, lastPick: pick } },
      {
        ...frame(3, 1, ['1F', '2F', '3F']),
        city: {
          ...createInitialSnapshot().city,
          selectedFeature: feature({ height: 30, use: 'office' }),
        },
      },
      {
        ...frame(4, 2, ['1F']),
        city: { ...createInitialSnapshot().city, selectedFeature: feature({ height: 31 }) },
      },
      frame(5, 3, []),
    ]
    for (const next of published) {
      engine.publish(next)
      expect(snapshot(store)).toEqual(next)
    }
    expect(store.city.selectedFeature).toBeNull()
    expect(store.building.lastPick).toBeNull()
    disconnect()
  })

  it("never writes into the engine's snapshots or into the shared defaults a store starts from", () => {
    // a store made like sceneStore: its camera starts as the shared defaultBuildingCamera
    const store = proxy<SceneState>(createInitialSnapshot())
    const first = frame(1, 0)
    const engine = publishingEngine(first)
    const disconnect = connectEngine(engine, store)
    engine.publish(frame(2, 50))
    engine.publish(frame(3, 60, ['Roof']))

    expect(defaultBuildingCamera.position).toEqual([0, 0, 0])
    expect(createInitialSnapshot().building.camera.distance).toBe(0)
    expect(first.building.camera.position).toEqual([0, 10, 20])
    expect(first.building.floors.map((floor) => floor.name)).toEqual(['1F', '2F'])
    expect(store.building.camera.position).toEqual([60, 10, 20])
    disconnect()
  })
})
