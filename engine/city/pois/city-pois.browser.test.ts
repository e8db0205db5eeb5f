import { describe, expect, it } from 'vitest'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { ScenePoi } from '../../api/poi-commands'
import { boxSbm } from '../../building/testing/box-sbm'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'

/**
 * City POIs as the app draws them in Chromium: deck.gl layers (icons, labels and cluster counts
 * as plain sprites, models as meshes) interleaved into MapLibre (SwiftShader), checked by their
 * pixels, picked and hidden through commands.
 */

const center = { lng: 126.978, lat: 37.5665 }
const landColor = [245, 242, 235] as const
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { cleanups, createContainer, createEngine, city } = cityTestPage()

/** A plain red square as a data URL: the template's icon. */
function redIconUrl(): string {
  const canvas = document.createElement('canvas')
  canvas.width = 64
  canvas.height = 64
  const context = canvas.getContext('2d')!
  context.fillStyle = '#ff0000'
  context.fillRect(0, 0, 64, 64)
  return canvas.toDataURL('image/png')
}

async function openCity(engine: Engine, container: HTMLElement, zoom = 17): Promise<void> {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center,
    zoom,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
    keepDrawingBuffer: true,
  })
  await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
}

/** The canvas pixels (RGBA) of the CSS box from (x, y), at least one pixel. */
function canvasPixels(container: HTMLElement, x: number, y: number, width = 0, height = 0) {
  const canvas = container.querySelector('canvas')!
  const scale = canvas.width / canvas.clientWidth
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  return context.getImageData(
    Math.round(x * scale),
    Math.round(y * scale),
    Math.max(1, Math.round(width * scale)),
    Math.max(1, Math.round(height * scale)),
  ).data
}

/** The canvas pixel (RGB) at CSS point x, y. */
function pixelAt(container: HTMLElement, x: number, y: number): [number, number, number] {
  const [red = 0, green = 0, blue = 0] = canvasPixels(container, x, y)
  return [red, green, blue]
}

/** How many canvas pixels in the CSS box from (x0, y0) to (x1, y1) are dark (a label's ink). */
function darkPixelsIn(container: HTMLElement, x0: number, y0: number, x1: number, y1: number) {
  const data = canvasPixels(container, x0, y0, x1 - x0, y1 - y0)
  let dark = 0
  for (let index = 0; index < data.length; index += 4) {
    if (data[index]! + data[index + 1]! + data[index + 2]! < 250) dark++
  }
  return dark
}

const isRed = ([red, green, blue]: [number, number, number]) => red > 200 && green < 60 && blue < 60
const isNear = (pixel: [number, number, number], rgb: readonly [number, number, number]) =>
  pixel.every((value, index) => Math.abs(value - rgb[index]!) < 24)
const isLand = (pixel: [number, number, number]) =>
  pixel.every((value, index) => Math.abs(value - landColor[index]!) < 12)

function poi(id: string, position: Vector3Tuple, extra: Partial<ScenePoi> = {}): ScenePoi {
  return {
    id,
    templateId: 'camera',
    label: `카메라 ${id}`,
    position,
    heading: 0,
    pitch: 0,
    roll: 0,
    groupId: 'group-a',
    ...extra,
  }
}

describe('city POIs in Chromium', () => {
  it('draws 2D POIs where poiToScreen says, picks, selects and hides them', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container)
    await engine.run('city.setPoiLooks', {
      looks: [{ templateId: 'camera', kind: '2D', iconUrl: redIconUrl() }],
    })
    const east = center.lng + 0.0008
    await engine.run('city.setPois', {
      pois: [
        poi('a', [center.lng, center.lat, 0]),
        poi('b', [east, center.lat, 0], { groupId: 'group-b' }),
      ],
    })
    await expect.poll(() => city(engine).pois.count).toBe(2)
    const a = await engine.run('city.poiToScreen', { position: [center.lng, center.lat, 0] })
    const b = await engine.run('city.poiToScreen', { position: [east, center.lat, 0] })
    expect(a.isVisible && b.isVisible).toBe(true)
    expect(a.x).toBeCloseTo(320, 0)
    await expect.poll(() => isRed(pixelAt(container, a.x, a.y)), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => isRed(pixelAt(container, b.x, b.y)), { timeout: 20_000 }).toBe(true)
    // Between the two markers: the land.
    expect(isLand(pixelAt(container, (a.x + b.x) / 2, a.y - 30))).toBe(true)
    // Each marker's label in dark ink under it, none above it.
    await expect
      .poll(() => darkPixelsIn(container, a.x - 40, a.y + 18, a.x + 40, a.y + 36), {
        timeout: 20_000,
      })
      .toBeGreaterThan(20)
    expect(darkPixelsIn(container, a.x - 40, a.y - 40, a.x + 40, a.y - 18)).toBe(0)
    expect(city(engine).pois.drawnCount).toBe(2)
    expect(city(engine).pois.clusterCount).toBe(0)

    expect(await engine.run('city.pickPoiAtScreenPoint', { x: b.x + 5, y: b.y - 5 })).toEqual({
      poiId: 'b',
    })
    expect(await engine.run('city.pickPoiAtScreenPoint', { x: a.x, y: a.y - 60 })).toBeNull()
    await engine.run('city.pickPoiAtScreenPoint', { x: a.x, y: a.y, select: true })
    await expect.poll(() => city(engine).pois.selectedIds).toEqual(['a'])
    expect(await engine.run('city.hoverPoiAtScreenPoint', { x: b.x, y: b.y })).toEqual({
      poiId: 'b',
    })
    await expect.poll(() => city(engine).pois.hoveredId).toBe('b')

    // POI classify hides group b: its pixels go back to land, and it can no longer be picked.
    await engine.run('city.setHiddenPoiGroups', { groupIds: ['group-b'] })
    await expect.poll(() => isLand(pixelAt(container, b.x, b.y)), { timeout: 20_000 }).toBe(true)
    expect(await engine.run('city.pickPoiAtScreenPoint', { x: b.x, y: b.y })).toBeNull()
    expect(isRed(pixelAt(container, a.x, a.y))).toBe(true)
    expect(city(engine).pois.hiddenGroupIds).toEqual(['group-b'])

    // An optimistic move: the marker is drawn at its new place at once.
    const moved: Vector3Tuple = [center.lng, center.lat - 0.0005, 0]
    await engine.run('city.upsertPois', { pois: [poi('a', moved)] })
    const at = await engine.run('city.poiToScreen', { position: moved })
    await expect.poll(() => isRed(pixelAt(container, at.x, at.y)), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => isLand(pixelAt(container, a.x, a.y)), { timeout: 20_000 }).toBe(true)
    await engine.run('city.removePois', { ids: ['a'] })
    await expect.poll(() => isLand(pixelAt(container, at.x, at.y)), { timeout: 20_000 }).toBe(true)
    expect(city(engine).pois.selectedIds).toEqual([])

    // Ghosts are drawn (translucent) and are not picked.
    await engine.run('city.setPoiGhosts', { pois: [poi('ghost', [center.lng, center.lat, 0])] })
    await expect.poll(() => city(engine).pois.ghostCount).toBe(1)
    await expect.poll(() => isLand(pixelAt(container, a.x, a.y)), { timeout: 20_000 }).toBe(false)
    expect(await engine.run('city.pickPoiAtScreenPoint', { x: a.x, y: a.y })).toBeNull()
  })

  it('clusters 100,000 POIs when zoomed out and picks a single one among them', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container, 14)
    await engine.run('city.setPoiLooks', {
      looks: [{ templateId: 'camera', kind: '2D', iconUrl: redIconUrl() }],
    })
    // A seeded cloud of 100,000 within ~2 km, and one POI alone to the north-east.
    let seed = 7
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647
      return seed / 2_147_483_647
    }
    const pois: ScenePoi[] = Array.from({ length: 100_000 }, (_, index) =>
      poi(`p${index}`, [center.lng - 0.03 + random() * 0.02, center.lat + random() * 0.02, 0]),
    )
    const lonely: Vector3Tuple = [center.lng + 0.012, center.lat - 0.008, 5]
    pois.push(poi('lonely', lonely))
    await engine.run('city.setPois', { pois })
    await expect.poll(() => city(engine).pois.count).toBe(100_001)
    await expect.poll(() => city(engine).pois.clusterCount, { timeout: 20_000 }).toBeGreaterThan(0)
    expect(city(engine).pois.drawnCount).toBeLessThan(2_000)
    const at = await engine.run('city.poiToScreen', { position: lonely })
    expect(at.isVisible).toBe(true)
    await expect.poll(() => isRed(pixelAt(container, at.x, at.y)), { timeout: 20_000 }).toBe(true)
    expect(await engine.run('city.pickPoiAtScreenPoint', { x: at.x + 3, y: at.y + 3 })).toEqual({
      poiId: 'lonely',
    })
    await engine.run('city.flyToPoi', { id: 'lonely' })
    await expect.poll(() => city(engine).camera.zoom).toBeGreaterThan(17.9)
    const centred = await engine.run('city.poiToScreen', { position: lonely })
    expect(Math.hypot(centred.x - 320, centred.y - 240)).toBeLessThan(20)
    await expect
      .poll(() => isRed(pixelAt(container, centred.x, centred.y)), { timeout: 20_000 })
      .toBe(true)

    // Only the markers around the view are handed to deck: flown 2 km away into the cloud,
    // the markers there are drawn, and far fewer than the cloud's are.
    const inCloud = pois[0]!.position
    await engine.run('city.flyTo', { lng: inCloud[0], lat: inCloud[1], zoom: 18, durationMs: 0 })
    const cloudAt = await engine.run('city.poiToScreen', { position: inCloud })
    expect(Math.hypot(cloudAt.x - 320, cloudAt.y - 240)).toBeLessThan(20)
    await expect
      .poll(() => isRed(pixelAt(container, cloudAt.x, cloudAt.y)), { timeout: 20_000 })
      .toBe(true)
    await expect.poll(() => city(engine).pois.drawnCount, { timeout: 20_000 }).toBeLessThan(2_000)
  })

  it('draws device statuses as discs behind the markers and keeps alarms out of clusters', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container)
    await engine.run('city.setPoiLooks', {
      looks: [{ templateId: 'camera', kind: '2D', iconUrl: redIconUrl() }],
    })
    const east = center.lng + 0.0008
    await engine.run('city.setPois', {
      pois: [poi('a', [center.lng, center.lat, 0]), poi('b', [east, center.lat, 0])],
    })
    // 'later' has no POI yet: its status is kept for when it comes
    await engine.run('city.setPoiStatuses', {
      statuses: [
        { poiId: 'a', code: 2 },
        { poiId: 'b', code: 3 },
        { poiId: 'later', code: 11 },
      ],
    })
    // the snapshot is published once a frame
    await expect
      .poll(() => city(engine).poiStatuses)
      .toMatchObject({ count: 3, alarmPoiIds: ['b', 'later'] })
    const a = await engine.run('city.poiToScreen', { position: [center.lng, center.lat, 0] })
    const b = await engine.run('city.poiToScreen', { position: [east, center.lat, 0] })
    // The disc shows as a ring beyond the 32-pixel marker: to 23 px, to 29 px for an alarm.
    const ring = (at: { x: number; y: number }, radius: number) =>
      pixelAt(container, at.x + radius, at.y)
    const normal = [67, 160, 71] as const
    const fireAlarm = [229, 57, 53] as const
    const fault = [251, 140, 0] as const
    await expect.poll(() => isNear(ring(a, 19), normal), { timeout: 20_000 }).toBe(true)
    expect(isLand(ring(a, 27))).toBe(true)
    await expect.poll(() => isNear(ring(b, 26), fireAlarm), { timeout: 20_000 }).toBe(true)

    // a's device reports a fault: its disc turns orange and grows; null takes it away
    await engine.run('city.setPoiStatuses', { statuses: [{ poiId: 'a', code: 11 }] })
    await expect.poll(() => isNear(ring(a, 26), fault), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => city(engine).poiStatuses.alarmPoiIds).toEqual(['a', 'b', 'later'])
    await engine.run('city.setPoiStatuses', { statuses: [{ poiId: 'a', code: null }] })
    await expect.poll(() => isLand(ring(a, 19)), { timeout: 20_000 }).toBe(true)
    await expect(
      engine.run('city.setPoiStatuses', { statuses: [{ poiId: 'a', code: 2.5 }] }),
    ).rejects.toMatchObject({ code: 'engine.invalidArgument' })

    // Zoomed out, three POIs within 30 m are one cluster; the one in alarm stays apart.
    const near = (index: number): Vector3Tuple => [center.lng + index * 1e-4, center.lat, 0]
    await engine.run('city.setPois', {
      pois: [0, 1, 2].map((index) => poi(`c${index}`, near(index))),
    })
    await engine.run('city.setPoiStatuses', {
      statuses: [
        { poiId: 'c0', code: 2 },
        { poiId: 'c1', code: 2 },
        { poiId: 'c2', code: 31 },
      ],
      replace: true,
    })
    await expect
      .poll(() => city(engine).poiStatuses)
      .toMatchObject({ count: 3, alarmPoiIds: ['c2'] })
    await engine.run('city.flyTo', { lng: center.lng, lat: center.lat, zoom: 12, durationMs: 0 })
    await expect.poll(() => city(engine).pois.clusterCount, { timeout: 20_000 }).toBe(1)
    await expect.poll(() => city(engine).pois.drawnCount).toBe(2)
    // the alarm clears: it joins the cluster again
    await engine.run('city.setPoiStatuses', { statuses: [{ poiId: 'c2', code: 2 }] })
    await expect.poll(() => city(engine).pois.drawnCount).toBe(1)
    expect(city(engine).pois.clusterCount).toBe(1)
  })

  it('draws 3D POIs as their template model and places on the basemap at height 0', async () => {
    const engine = createEngine()
    const container = createContainer()
    await openCity(engine, container, 19)
    const model = boxSbm([{ name: 'box', size: [8, 8, 8], centre: [0, 4, 0], color: [0, 0, 1] }], {
      role: 'model',
    })
    const modelUrl = URL.createObjectURL(new Blob([model]))
    cleanups.push(() => URL.revokeObjectURL(modelUrl))
    await engine.run('city.setPoiLooks', {
      looks: [
        { templateId: 'camera', kind: '2D', iconUrl: redIconUrl() },
        { templateId: 'cabinet', kind: '3D', iconUrl: redIconUrl(), modelUrl },
        { templateId: 'broken', kind: '3D', iconUrl: redIconUrl(), modelUrl: '/no/such.sbm' },
      ],
    })

    const surface = await engine.run('city.surfacePointAtScreenPoint', { x: 320, y: 240 })
    expect(surface?.surface).toBe('basemap')
    expect(surface!.position[0]).toBeCloseTo(center.lng, 5)
    expect(surface!.position[1]).toBeCloseTo(center.lat, 5)
    expect(surface!.position[2]).toBe(0)
    expect(surface!.normal).toEqual([0, 0, 1])

    await engine.run('city.setPois', {
      pois: [
        poi('box', surface!.position, { templateId: 'cabinet', label: '' }),
        poi('broken', [center.lng + 0.0003, center.lat, 0], { templateId: 'broken' }),
      ],
    })
    await expect
      .poll(() => city(engine).pois.failedTemplateIds, { timeout: 20_000 })
      .toEqual(['broken'])
    // The box's blue (lit) where it stands; the broken model falls back to its picture.
    await expect
      .poll(
        () => {
          const [red, green, blue] = pixelAt(container, 320, 236)
          return blue > red + 40 && blue > green + 40
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    const broken = await engine.run('city.poiToScreen', {
      position: [center.lng + 0.0003, center.lat, 0],
    })
    expect(isRed(pixelAt(container, broken.x, broken.y))).toBe(true)
    expect(await engine.run('city.pickPoiAtScreenPoint', { x: 320, y: 240 })).toEqual({
      poiId: 'box',
    })
  })

  it('places on the oblique photography: a depth pick on the tileset surface', async () => {
    const engine = createEngine()
    const container = createContainer()
    const buildings = { lng: -75.61208, lat: 40.04253 }
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'project-1',
      center: buildings,
      zoom: 17.2,
      basemap: { kind: 'offline', style: offlineStyle },
      tilesets: [
        {
          id: 'batched',
          name: 'Batched buildings',
          url: new URL('../fixtures/batched/tileset.json', import.meta.url).href,
          isVisible: true,
        },
      ],
      keepDrawingBuffer: true,
    })
    await expect.poll(() => city(engine).tilesLoaded, { timeout: 30_000 }).toBeGreaterThan(0)
    // Building 3 of the fixture, where its batch table says it stands.
    const point = await engine.run('city.projectToScreen', {
      lng: (-1.3196656317210846 * 180) / Math.PI,
      lat: (0.6988863062 * 180) / Math.PI,
    })
    await expect
      .poll(async () => (await engine.run('city.surfacePointAtScreenPoint', point))?.surface, {
        timeout: 20_000,
      })
      .toBe('tileset')
    const surface = await engine.run('city.surfacePointAtScreenPoint', point)
    expect(surface!.position[2]).toBeGreaterThan(0)
    expect(Math.hypot(...surface!.normal)).toBeCloseTo(1, 3)
    // Seen from above, the surface faces up towards the viewer.
    expect(surface!.normal[2]).toBeGreaterThan(0)
    // Away from the buildings: the basemap.
    expect((await engine.run('city.surfacePointAtScreenPoint', { x: 5, y: 5 }))?.surface).toBe(
      'basemap',
    )
  })
})
