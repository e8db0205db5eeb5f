import { describe, expect, it } from 'vitest'
import { geodesicDistanceMeters } from '../../../workers/geodesy/draw-geometry'
import type { Engine } from '../../core/engine'
import { cityTestPage } from '../testing/city-test-page'
import { flightSpeedMetersPerSecond } from './path-flight'

/**
 * Positioned objects and path navigation in the city engine in Chromium (issue 18): markers
 * with trails drawn by deck.gl (pixels), and the camera flying along a path, paused, resumed
 * and arriving at its end.
 */

const center = { lng: 126.978, lat: 37.5665 }
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#f5f2eb' } }],
}

const { createContainer, createEngine, city } = cityTestPage()

async function openCity(engine: Engine, container: HTMLElement) {
  await engine.run('city.attachContainer', { container })
  await engine.run('city.open', {
    projectId: 'project-1',
    center,
    zoom: 16,
    basemap: { kind: 'offline', style: offlineStyle },
    tilesets: [],
    keepDrawingBuffer: true,
  })
}

/** Green pixels of the map canvas: the marker and its trail (blended at its alpha). */
function countGreenPixels(container: HTMLElement): number {
  const canvas = container.querySelector('canvas')!
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')!
  context.drawImage(canvas, 0, 0)
  const { data } = context.getImageData(0, 0, copy.width, copy.height)
  let count = 0
  for (let index = 0; index < data.length; index += 4)
    if (data[index + 1]! > data[index]! + 80 && data[index + 1]! > data[index + 2]! + 80) count++
  return count
}

async function until(condition: () => boolean, what: string, frames = 600): Promise<void> {
  for (let attempt = 0; attempt < frames; attempt++) {
    if (condition()) return
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
  throw new Error(`Timed out waiting for ${what}`)
}

describe('positioned objects and path navigation in Chromium', () => {
  it('draws markers with their trails and takes them off again', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    const walker = {
      id: 'walker',
      lng: center.lng,
      lat: center.lat,
      heading: 90,
      trail: [[center.lng - 0.002, center.lat] as const, [center.lng - 0.001, center.lat] as const],
      color: '#00c800',
      isInsideFence: true,
    }
    await engine.run('track.setMarkers', { markers: [walker] })
    await until(() => city(engine).track.markerCount === 1, 'the marker published')
    expect(city(engine).track).toEqual({ markerCount: 1, trailPointCount: 2 })
    await until(() => countGreenPixels(container) > 150, 'the marker and trail drawn')
    const withTrail = countGreenPixels(container)

    await engine.run('track.setMarkers', { markers: [{ ...walker, trail: [] }] })
    await until(() => countGreenPixels(container) < withTrail / 2, 'the trail gone')
    expect(countGreenPixels(container)).toBeGreaterThan(20)

    await engine.run('track.setMarkers', { markers: [] })
    await until(() => countGreenPixels(container) === 0, 'the marker gone')
    await expect(
      engine.run('track.setMarkers', { markers: [{ ...walker, lat: 95 }] }),
    ).rejects.toThrow()
    await expect(engine.run('track.flyToMarker', { id: 'walker' })).rejects.toThrow()
    // Reading the canvas back every frame is slow on a loaded machine, not the drawing itself.
  }, 180_000)

  it('flies the camera along a path, looking along it, with pause, resume and arrival', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    // Two legs: 60 m east, then 40 m north.
    const east: [number, number] = [center.lng + 60 / 88_200, center.lat]
    const north: [number, number] = [east[0], center.lat + 40 / 111_000]
    const points = [[center.lng, center.lat] as const, east, north] as const
    const total =
      geodesicDistanceMeters([center.lng, center.lat], east) + geodesicDistanceMeters(east, north)

    await expect(
      engine.run('navigate.start', { pathId: 'p', points: [points[0]], speed: 'slow', rate: 1 }),
    ).rejects.toThrow()
    await engine.run('navigate.start', { pathId: 'p', points, speed: 'slow', rate: 1 })
    await until(() => city(engine).navigation.pathId === 'p', 'the flight published')
    expect(city(engine).navigation).toMatchObject({ speed: 'slow', rate: 1 })
    expect(city(engine).navigation.totalMeters).toBeCloseTo(total, 3)
    // Looking east along the first leg.
    await until(() => city(engine).navigation.meters > 0, 'the flight under way')
    const firstLeg = city(engine).camera
    if (city(engine).navigation.meters < 55) expect(Math.abs(firstLeg.bearing - 90)).toBeLessThan(1)

    await engine.run('navigate.pause', { isPaused: true })
    await until(() => city(engine).navigation.status === 'paused', 'the pause')
    const pausedAt = city(engine).navigation.meters
    for (let frame = 0; frame < 10; frame++)
      await new Promise((resolve) => requestAnimationFrame(resolve))
    expect(city(engine).navigation.meters).toBe(pausedAt)

    await engine.run('navigate.pause', { isPaused: false })
    // 150 m/s: the 100 m path ends within a second of flight.
    await engine.run('navigate.setPace', { speed: 'fast', rate: 5 })
    expect(flightSpeedMetersPerSecond.fast * 5).toBe(150)
    await until(() => city(engine).navigation.status === 'done', 'the arrival')
    expect(city(engine).navigation.meters).toBeCloseTo(total, 3)
    const camera = city(engine).camera
    // At the end, on the path's last point, looking north along the last leg.
    expect(camera.lng).toBeCloseTo(north[0], 5)
    expect(camera.lat).toBeCloseTo(north[1], 5)
    expect(Math.abs(((camera.bearing + 540) % 360) - 180)).toBeLessThan(1)
    expect(camera.pitch).toBeGreaterThan(45)

    await engine.run('navigate.stop')
    await until(() => city(engine).navigation.status === 'idle', 'the stop')
    expect(city(engine).navigation.pathId).toBeNull()
  })
})

describe('the view tour in Chromium', () => {
  it('flies through the viewpoints smoothly, stays on each, goes round and closes', async () => {
    const container = createContainer()
    const engine = createEngine()
    await openCity(engine, container)
    const viewpoints = [
      {
        lng: center.lng + 0.01,
        lat: center.lat,
        zoom: 15,
        pitch: 30,
        bearing: 45,
        dwellSeconds: 1,
      },
      { lng: center.lng, lat: center.lat + 0.01, zoom: 17, pitch: 0, bearing: 0, dwellSeconds: 1 },
    ]
    await expect(
      engine.run('tour.open', { viewpoints: [], transitionSeconds: 0.5 }),
    ).rejects.toThrow()
    await expect(
      engine.run('tour.open', {
        viewpoints: [{ ...viewpoints[0]!, lat: 91 }],
        transitionSeconds: 0.5,
      }),
    ).rejects.toThrow()
    expect(city(engine).tour).toMatchObject({ mode: 2, phase: 'idle' })

    await engine.run('tour.open', { viewpoints, transitionSeconds: 0.6 })
    await until(() => city(engine).tour.mode === 0, 'the tour published')
    expect(city(engine).tour).toMatchObject({ mode: 0, index: 0, count: 2 })
    // On the way, the camera passes between where it was and the first viewpoint: a flight,
    // not a jump.
    const seen: number[] = []
    await until(() => {
      seen.push(city(engine).camera.lng)
      return city(engine).tour.arrivals >= 1
    }, 'the first viewpoint reached')
    expect(seen.some((lng) => lng > center.lng + 0.0005 && lng < center.lng + 0.0095)).toBe(true)
    const first = city(engine).camera
    expect(first.lng).toBeCloseTo(viewpoints[0]!.lng, 6)
    expect(first.zoom).toBeCloseTo(15, 3)
    expect(first.pitch).toBeCloseTo(30, 1)
    expect(first.bearing).toBeCloseTo(45, 1)

    await until(() => city(engine).tour.arrivals >= 2, 'the second viewpoint reached')
    expect(city(engine).tour.index).toBe(1)
    expect(city(engine).camera.lat).toBeCloseTo(viewpoints[1]!.lat, 6)
    expect(city(engine).camera.zoom).toBeCloseTo(17, 3)
    // After the last comes the first again.
    await until(() => city(engine).tour.arrivals >= 3, 'round to the first again')
    expect(city(engine).tour.index).toBe(0)

    await engine.run('tour.close')
    await until(() => city(engine).tour.mode === 2, 'the tour closed')
    expect(city(engine).tour).toMatchObject({ mode: 2, phase: 'idle', index: -1 })
    const closedAt = city(engine).camera
    for (let frame = 0; frame < 20; frame++)
      await new Promise((resolve) => requestAnimationFrame(resolve))
    expect(city(engine).camera.lng).toBeCloseTo(closedAt.lng, 9)
    expect(city(engine).tour.arrivals).toBe(0)
  }, 120_000)
})
