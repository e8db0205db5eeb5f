import { describe, expect, it } from 'vitest'
import type { TrackMarker } from '../api/track-commands'
import type { Engine } from '../core/engine'
import { browserEngineFixture } from '../testing/browser-engine'
import { geodesicDestination } from '../../workers/geodesy/draw-geometry'
import { boxSbm } from './testing/box-sbm'

/**
 * Positioned objects of a building project in the building scene (issue 18, the location
 * module) in real Chromium: a walker reported 15 m east of the building's origin is drawn right
 * of it, one 15 m north above it (the camera looks north), whatever the building's placement
 * turns; both go again when the list is emptied.
 */

const { startEngine, blobUrlOf } = browserEngineFixture()

/** The building's location (its anchors' origin). */
const origin = { lng: 126.978, lat: 37.5665 }

async function openSlab(engine: Engine) {
  const slab = boxSbm(
    [{ name: 'Slab', size: [10, 0.2, 10], centre: [0, 0, 0], color: [0.2, 0.5, 0.9] }],
    { role: 'model' },
  )
  await engine.run('building.open', {
    description: {
      projectId: 'tracked',
      name: 'Tracked',
      shellModelId: null,
      floors: [],
      models: [
        {
          id: 'slab',
          name: 'Slab',
          role: 'model',
          floorId: null,
          url: blobUrlOf(slab),
          sizeBytes: slab.byteLength,
        },
      ],
    },
  })
  // from the south, looking down at the origin: east is right, north is up
  await engine.run('building.setCamera', { position: [0, 45, 35], target: [0, 0, 0] })
}

/** A magenta walker `meters` from the origin towards `azimuth` (degrees clockwise from north). */
function walkerAt(id: string, azimuth: number, meters: number): TrackMarker {
  const [lng, lat] = geodesicDestination([origin.lng, origin.lat], azimuth, meters)
  return { id, lng, lat, heading: azimuth, trail: [], color: '#ff00ff', isInsideFence: false }
}

/** Where the magenta pixels of the frame are: how many, and their mean column and row. */
async function magenta(
  engine: Engine,
): Promise<{ count: number; x: number; y: number; width: number; height: number }> {
  const { png, width, height } = await engine.run('building.capturePng', {})
  const bitmap = await createImageBitmap(png)
  const canvas = new OffscreenCanvas(width, height)
  const context = canvas.getContext('2d')!
  context.drawImage(bitmap, 0, 0)
  const { data } = context.getImageData(0, 0, width, height)
  let count = 0
  let sumX = 0
  let sumY = 0
  for (let index = 0; index < data.length; index += 4) {
    const [red, green, blue] = [data[index]!, data[index + 1]!, data[index + 2]!]
    if (red > 180 && blue > 180 && green < 100) {
      count++
      sumX += (index / 4) % width
      sumY += Math.floor(index / 4 / width)
    }
  }
  return { count, x: sumX / Math.max(1, count), y: sumY / Math.max(1, count), width, height }
}

describe('positioned objects in the building scene', () => {
  it('draws each object where its longitude and latitude lie around the building', async () => {
    const engine = startEngine()
    await openSlab(engine)
    expect((await magenta(engine)).count).toBe(0)

    await engine.run('building.setTrackMarkers', { origin, markers: [walkerAt('east', 90, 15)] })
    // the snapshot is published with the next frame
    await expect.poll(() => engine.getSnapshot().building.track.markerCount).toBe(1)
    const east = await magenta(engine)
    expect(east.count).toBeGreaterThan(30)
    expect(east.x).toBeGreaterThan(east.width / 2 + 20)
    expect(Math.abs(east.y - east.height / 2)).toBeLessThan(15)

    // a placement turns the building, not the earth: north stays north
    await engine.run('building.setPlacement', { placement: { headingDegrees: 90, scale: 1 } })
    await engine.run('building.setTrackMarkers', { origin, markers: [walkerAt('north', 0, 15)] })
    const north = await magenta(engine)
    expect(north.count).toBeGreaterThan(30)
    expect(north.y).toBeLessThan(north.height / 2 - 10)
    expect(Math.abs(north.x - north.width / 2)).toBeLessThan(15)

    await expect(
      engine.run('building.setTrackMarkers', {
        origin,
        markers: [{ ...walkerAt('lost', 0, 15), lat: 95 }],
      }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
    await engine.run('building.setTrackMarkers', { origin, markers: [] })
    await expect.poll(() => engine.getSnapshot().building.track.markerCount).toBe(0)
    expect((await magenta(engine)).count).toBe(0)
  })
})
