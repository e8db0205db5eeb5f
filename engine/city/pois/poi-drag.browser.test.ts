import { describe, expect, it } from 'vitest'
import type { Vector3Tuple } from '../../api/building-snapshot'
import type { ScenePoi } from '../../api/poi-commands'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'

/**
 * Dragging a city POI in Chromium: a press on the selected POI holds the map's pan (MapLibre's
 * own mouse handlers see the drag and must not move the camera), anything else pans as usual.
 */

const center = { lng: 126.978, lat: 37.5665 }
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { createContainer, createEngine, city } = cityTestPage()

function iconUrl(): string {
  const canvas = document.createElement('canvas')
  canvas.width = 32
  canvas.height = 32
  const context = canvas.getContext('2d')!
  context.fillStyle = '#ff0000'
  context.fillRect(0, 0, 32, 32)
  return canvas.toDataURL('image/png')
}

function poi(id: string, position: Vector3Tuple): ScenePoi {
  return {
    id,
    templateId: 'camera',
    label: '',
    position,
    heading: 0,
    pitch: 0,
    roll: 0,
    groupId: 'g',
  }
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

/** A left-button mouse drag over the map canvas, as MapLibre's handlers receive one. */
async function mouseDrag(
  container: HTMLElement,
  from: { x: number; y: number },
  to: { x: number; y: number },
): Promise<void> {
  const canvas = container.querySelector('canvas')!
  const bounds = canvas.getBoundingClientRect()
  const send = (type: string, x: number, y: number) =>
    canvas.dispatchEvent(
      new MouseEvent(type, {
        bubbles: true,
        cancelable: true,
        clientX: bounds.left + x,
        clientY: bounds.top + y,
        button: 0,
        buttons: type === 'mouseup' ? 0 : 1,
      }),
    )
  send('mousedown', from.x, from.y)
  for (let step = 1; step <= 6; step++) {
    await nextFrame()
    send('mousemove', from.x + ((to.x - from.x) * step) / 6, from.y + ((to.y - from.y) * step) / 6)
  }
  await nextFrame()
  send('mouseup', to.x, to.y)
}

async function openWithPois(engine: Engine, container: HTMLElement) {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center,
    zoom: 17,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
  })
  await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
  await engine.run('city.setPoiLooks', {
    looks: [{ templateId: 'camera', kind: '2D', iconUrl: iconUrl() }],
  })
  const east: Vector3Tuple = [center.lng + 0.0008, center.lat, 0]
  await engine.run('city.setPois', {
    pois: [poi('a', [center.lng, center.lat, 0]), poi('b', east)],
  })
  await engine.run('city.selectPois', { ids: ['a'] })
  return {
    a: await engine.run('city.poiToScreen', { position: [center.lng, center.lat, 0] }),
    b: await engine.run('city.poiToScreen', { position: east }),
  }
}

describe('dragging a city POI', () => {
  it('holds the map while the selected POI is dragged, and pans it again afterwards', async () => {
    const engine = createEngine()
    const container = createContainer()
    const { a, b } = await openWithPois(engine, container)

    // Only a press on a selected POI starts a drag.
    expect(await engine.run('city.beginPoiDrag', { x: 40, y: 40 })).toBeNull()
    expect(await engine.run('city.beginPoiDrag', { x: b.x, y: b.y })).toBeNull()
    expect(await engine.run('city.beginPoiDrag', { x: a.x, y: a.y })).toEqual({ poiId: 'a' })

    // The drag that follows the press reaches MapLibre, but the camera stays where it was.
    const before = { ...city(engine).camera }
    await mouseDrag(container, a, { x: a.x + 120, y: a.y + 80 })
    for (let frame = 0; frame < 20; frame++) await nextFrame()
    expect(city(engine).camera.lng).toBeCloseTo(before.lng, 9)
    expect(city(engine).camera.lat).toBeCloseTo(before.lat, 9)
    // The surface under the release is where the POI goes: east and south of the press.
    const surface = await engine.run('city.surfacePointAtScreenPoint', {
      x: a.x + 120,
      y: a.y + 80,
    })
    expect(surface?.surface).toBe('basemap')
    expect(surface!.position[0]).toBeGreaterThan(center.lng)
    expect(surface!.position[1]).toBeLessThan(center.lat)

    // Released: the same drag pans the map.
    await engine.run('city.endPoiDrag')
    await mouseDrag(container, a, { x: a.x + 120, y: a.y + 80 })
    await expect.poll(() => city(engine).camera.lng, { timeout: 10_000 }).toBeLessThan(before.lng)
  })
})
