import { afterEach, describe, expect, it } from 'vitest'
import type { BuildingSceneDescription } from '../../api/building-snapshot'
import type { ScenePoi } from '../../api/poi-commands'
import { boxSbm } from '../testing/box-sbm'
import { blobUrl, iconUrl, pixelAt, runCleanups, startEngine } from '../testing/poi-browser-kit'

/**
 * Device statuses on building POIs (issue 17) in real Chromium: the disc behind a marker takes
 * the status colour, an alarm's disc is larger and never folded into a cluster, and removing the
 * status draws the marker plainly again. Pixels are read where `building.poiToScreen` says.
 */
afterEach(runCleanups)

function slab(): BuildingSceneDescription {
  const bytes = boxSbm(
    [{ name: 'slab', size: [20, 0.2, 20], centre: [0, 0, 0], color: [0.5, 0.5, 0.5] }],
    { role: 'floor' },
  )
  return {
    projectId: 'status-house',
    name: 'Status house',
    shellModelId: null,
    floors: [{ id: 'F1', name: '1F', elevationMeters: 0, modelIds: ['f1'] }],
    models: [
      {
        id: 'f1',
        name: 'F1',
        role: 'floor',
        floorId: 'F1',
        url: blobUrl(bytes),
        sizeBytes: bytes.byteLength,
      },
    ],
  }
}

function poi(id: string, position: [number, number, number]): ScenePoi {
  return {
    id,
    templateId: 'sensor',
    label: '',
    position,
    heading: 0,
    pitch: 0,
    roll: 0,
    floorId: 'F1',
    groupId: 'sensors',
  }
}

const isRed = ([red, green, blue]: number[]) => red! > 180 && green! < 90 && blue! < 90
const isGreen = ([red, green, blue]: number[]) => green! > 120 && red! < 100 && blue! < 100

describe('POI device statuses in Chromium', () => {
  it('colours the disc behind a marker by status, keeps alarms out of clusters, and removes it', async () => {
    const { engine, canvas } = startEngine()
    await engine.run('building.open', { description: slab() })
    await engine.run('building.setCamera', { position: [0, 30, 0.01], target: [0, 0, 0] })
    await engine.run('building.setPoiLooks', {
      looks: [{ templateId: 'sensor', kind: '2D', iconUrl: await iconUrl('#ff00ff') }],
    })
    const sensor = poi('sensor-1', [-4, 0.2, 0])
    // two POIs a hair apart: on screen they fall into one cluster
    const twins = [poi('twin-a', [5, 0.2, 0]), poi('twin-b', [5.05, 0.2, 0])]
    await engine.run('building.setPois', { pois: [sensor, ...twins] })
    const at = await engine.run('building.poiToScreen', { position: sensor.position })
    const ring = () => pixelAt(canvas, at.x + 20, at.y)
    const nearRing = () => pixelAt(canvas, at.x + 16, at.y)
    await engine.run('building.countDrawnPixels')
    expect(isRed(ring())).toBe(false)
    await expect.poll(() => engine.getSnapshot().building.pois.clusterCount).toBe(1)

    await engine.run('building.setPoiStatuses', {
      statuses: [
        { poiId: 'sensor-1', code: 3 },
        { poiId: 'twin-a', code: 31 },
        { poiId: 'twin-b', code: 41 },
      ],
    })
    await expect
      .poll(async () => {
        await engine.run('building.countDrawnPixels')
        return isRed(ring())
      })
      .toBe(true)
    await expect
      .poll(() => engine.getSnapshot().building.poiStatuses)
      .toMatchObject({
        count: 3,
        alarmPoiIds: ['sensor-1', 'twin-a', 'twin-b'],
      })
    await expect
      .poll(() => engine.getSnapshot().building.pois)
      .toMatchObject({ clusterCount: 0, drawnCount: 3 })

    // normal: a smaller green disc
    await engine.run('building.setPoiStatuses', { statuses: [{ poiId: 'sensor-1', code: 2 }] })
    await engine.run('building.countDrawnPixels')
    expect(isGreen(nearRing())).toBe(true)
    expect(isRed(ring())).toBe(false)
    await expect
      .poll(() => engine.getSnapshot().building.poiStatuses.alarmPoiIds)
      .toEqual(['twin-a', 'twin-b'])

    // replace: only what is sent stays; null removes
    await engine.run('building.setPoiStatuses', {
      statuses: [{ poiId: 'sensor-1', code: null }],
      replace: true,
    })
    await engine.run('building.countDrawnPixels')
    expect(isGreen(nearRing())).toBe(false)
    await expect
      .poll(() => engine.getSnapshot().building.poiStatuses)
      .toMatchObject({ count: 0, alarmPoiIds: [] })
    await expect(
      engine.run('building.setPoiStatuses', { statuses: [{ poiId: 'x', code: 1.5 }] }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })
  })
})
