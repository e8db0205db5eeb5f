import { describe, expect, it } from 'vitest'
import { cityTestPage } from './testing/city-test-page'
import { shareOfColor } from './testing/map-pixels'

/**
 * The city map's navigation aids and basemap failures in Chromium: the zoom, north and tilt
 * commands the UI's buttons run, the cursor position the readout shows, MapLibre's scale bar,
 * and an online style that fails: its kind published for the UI to word, the fallback drawn.
 */

const center = { lng: 121.6, lat: 31.2 }
const fallbackColor = '#f5f2eb'
const fallbackStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': fallbackColor } }],
}

const { createContainer, createEngine, city } = cityTestPage()

describe('city map controls in Chromium', () => {
  it('zooms, tilts, turns north, reads the cursor position and shows a scale bar', async () => {
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'project-controls',
      center,
      zoom: 12,
      basemap: { kind: 'offline', style: fallbackStyle },
      tilesets: [],
    })
    expect(container.querySelector('.maplibregl-ctrl-scale')?.textContent).toMatch(/^\d+\s?(m|km)$/)

    await engine.run('city.zoomBy', { delta: 1 })
    await expect.poll(() => city(engine).camera.zoom, { timeout: 5_000 }).toBeCloseTo(13, 1)
    await engine.run('city.setPitch', { pitch: 200 })
    // clamped to the camera's range
    await expect.poll(() => city(engine).camera.pitch, { timeout: 5_000 }).toBeCloseTo(85, 0)
    await engine.run('city.flyTo', { ...center, bearing: 90, durationMs: 0 })
    await engine.run('city.resetNorth')
    await expect
      .poll(() => Math.abs(city(engine).camera.bearing), { timeout: 5_000 })
      .toBeLessThan(0.01)
    expect(city(engine).camera.pitch).toBeCloseTo(85, 0)

    // the cursor over the map's middle reads the map's centre
    await engine.run('city.setPitch', { pitch: 0 })
    await expect.poll(() => city(engine).camera.pitch, { timeout: 5_000 }).toBeLessThan(0.01)
    const canvas = container.querySelector('canvas')!
    const bounds = canvas.getBoundingClientRect()
    canvas.dispatchEvent(
      new MouseEvent('mousemove', {
        bubbles: true,
        clientX: bounds.left + bounds.width / 2,
        clientY: bounds.top + bounds.height / 2,
      }),
    )
    await expect.poll(() => city(engine).pointer, { timeout: 5_000 }).not.toBeNull()
    expect(city(engine).pointer!.lng).toBeCloseTo(city(engine).camera.lng, 3)
    expect(city(engine).pointer!.lat).toBeCloseTo(city(engine).camera.lat, 3)
    canvas.dispatchEvent(
      new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }),
    )
    await expect.poll(() => city(engine).pointer, { timeout: 5_000 }).toBeNull()
  })

  it('publishes why an online style failed and keeps the fallback map in view', async () => {
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'project-failing-style',
      center,
      zoom: 12,
      basemap: {
        kind: 'online',
        // a 404 of the test's server, as the map proxy answers an address with nothing behind it
        styleUrl: new URL('/engine/city/.scratch/no-such-style.json', location.origin).href,
        fallbackStyle,
      },
      tilesets: [],
      keepDrawingBuffer: true,
    })
    await expect.poll(() => city(engine).basemap?.failure, { timeout: 20_000 }).toBeTruthy()
    expect(city(engine).basemap).toMatchObject({ kind: 'online', isLoaded: false })
    expect(['notFound', 'notStyle']).toContain(city(engine).basemap?.failure)
    await expect
      .poll(() => shareOfColor(container, fallbackColor), { timeout: 20_000 })
      .toBeGreaterThan(0.9)
    // the failure stays said after the fallback has loaded
    expect(city(engine).basemap?.failure).toBeTruthy()
  })
})
