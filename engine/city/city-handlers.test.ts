import { afterEach, describe, expect, it } from 'vitest'
import { EngineError } from '../api/errors'
import type { Engine } from '../core/engine'
import { createTestEngine } from '../testing/test-engine'

/** The city commands that need no map: argument checks and settings kept before a city opens. */
const engines: Engine[] = []
afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose()
})

function engine(): Engine {
  const created = createTestEngine()
  engines.push(created)
  return created
}

async function failureCode(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.catch((failure: unknown) => failure)
  return error instanceof EngineError ? error.code : undefined
}

describe('city commands without a map', () => {
  it('starts closed at the SPEC default camera', () => {
    const { city } = engine().getSnapshot()
    expect(city.isOpen).toBe(false)
    expect(city.camera).toMatchObject({ lng: 121.6, lat: 31.2, zoom: 16 })
  })

  it('refuses to open without a container and map commands without a city', async () => {
    const subject = engine()
    expect(
      await failureCode(
        subject.run('city.open', {
          projectId: 'p',
          center: { lng: 121.6, lat: 31.2 },
          basemap: { kind: 'online', styleUrl: 'http://localhost/style.json' },
          tilesets: [],
        }),
      ),
    ).toBe('city.noContainer')
    expect(await failureCode(subject.run('city.pickAtScreenPoint', { x: 0, y: 0 }))).toBe(
      'city.notOpen',
    )
    expect(await failureCode(subject.run('city.flyTo', { lng: 0, lat: 0 }))).toBe('city.notOpen')
    await expect.poll(() => subject.getSnapshot().lastError?.code).toBe('city.notOpen')
  })

  it('accepts only the SPEC wheel scales and zoom factors, and keeps them for the next city', async () => {
    const subject = engine()
    expect(await failureCode(subject.run('city.setWheelScale', { wheelScale: 3 }))).toBe(
      'engine.invalidArgument',
    )
    expect(
      await failureCode(
        subject.run('city.setZoomLimits', { minDistanceFactor: 0.7, maxDistanceFactor: 1 }),
      ),
    ).toBe('engine.invalidArgument')
    await subject.run('city.setWheelScale', { wheelScale: 1.8 })
    await subject.run('city.setZoomLimits', { minDistanceFactor: 0.5, maxDistanceFactor: 7.5 })
    await expect
      .poll(() => subject.getSnapshot().city.controls)
      .toEqual({
        wheelScale: 1.8,
        minDistanceFactor: 0.5,
        maxDistanceFactor: 7.5,
      })
  })

  it('validates streaming limits and keeps them for the next city', async () => {
    const subject = engine()
    expect(await failureCode(subject.run('city.setStreaming', { memoryBudgetMB: 0 }))).toBe(
      'engine.invalidArgument',
    )
    await subject.run('city.setStreaming', { memoryBudgetMB: 128, maximumScreenSpaceError: 8 })
    await expect
      .poll(() => subject.getSnapshot().city.streaming)
      .toEqual({ memoryBudgetMB: 128, maximumScreenSpaceError: 8 })
  })
})
