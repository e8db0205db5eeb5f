import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { generateRasterBasemap } from '../../tools/pmtiles/raster-basemap'
import { EngineError } from '../api/errors'
import { cityTestPage } from './testing/city-test-page'
import { shareOfColor } from './testing/map-pixels'

/**
 * A user's PMTiles basemap as the city engine draws it in Chromium: a seeded raster archive
 * (tools/pmtiles) is written beside this test (a git-ignored .scratch folder) and served by the
 * test's Vite server, which honours HTTP Range like the product's server does; MapLibre reads it
 * through the `pmtiles://` protocol, one ranged request per header, directory and tile.
 */

const basemap = generateRasterBasemap({ seed: 7, minZoom: 0, maxZoom: 6 })
const archivePath = 'engine/city/.scratch/seeded-basemap.pmtiles'
const archiveUrl = new URL(`/${archivePath}`, location.origin).href
/** SPEC §9's city default: far beyond the archive's zoom 6, so MapLibre over-zooms its tiles. */
const cityCenter = { lng: 121.6, lat: 31.2 }
const offlineColor = '#f5f2eb'
const offlineStyle = {
  version: 8,
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': offlineColor } }],
}

interface RangedFetch {
  range: string | null
  status: number
}

const { cleanups, createContainer, createEngine, city } = cityTestPage()

function base64Of(bytes: Uint8Array): string {
  let binary = ''
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}

async function serveArchive(): Promise<void> {
  await commands.writeFile(archivePath, base64Of(basemap.bytes), 'base64')
  cleanups.push(() => commands.removeFile(archivePath))
}

/** Records the Range header and status of every request for the archive (pmtiles uses fetch). */
function recordArchiveFetches(): RangedFetch[] {
  const fetches: RangedFetch[] = []
  const originalFetch = globalThis.fetch
  globalThis.fetch = async (input, init) => {
    const response = await originalFetch(input, init)
    const url = input instanceof Request ? input.url : String(input)
    if (url === archiveUrl) {
      fetches.push({ range: new Headers(init?.headers).get('range'), status: response.status })
    }
    return response
  }
  cleanups.push(() => {
    globalThis.fetch = originalFetch
  })
  return fetches
}

describe('PMTiles basemap in Chromium', () => {
  it('draws an uploaded raster archive read with Range requests, and switches back to offline', async () => {
    await serveArchive()
    const fetches = recordArchiveFetches()
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'project-pmtiles',
      center: cityCenter,
      zoom: 16,
      basemap: { kind: 'pmtiles', url: archiveUrl },
      tilesets: [],
      keepDrawingBuffer: true,
    })

    await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
    expect(city(engine).basemap).toMatchObject({ kind: 'pmtiles', error: null })
    const deepest = basemap.colorsByZoom[basemap.maxZoom]!
    await expect
      .poll(() => shareOfColor(container, deepest), {
        timeout: 20_000,
        message: 'the archive’s zoom-6 tile, over-zoomed, fills the map',
      })
      .toBeGreaterThan(0.9)

    // Every read was a byte range the server answered partially: no whole-file download.
    expect(fetches.length).toBeGreaterThanOrEqual(2)
    for (const fetch of fetches) {
      expect(fetch.range).toMatch(/^bytes=\d+-\d+$/)
      expect(fetch.status).toBe(206)
    }

    // Zoomed out, the tiles of a lower level are drawn: the archive is read per zoom level.
    await engine.run('city.flyTo', { ...cityCenter, zoom: 2.5, durationMs: 0 })
    await expect
      .poll(
        () =>
          basemap.colorsByZoom
            .slice(1, basemap.maxZoom)
            .reduce((sum, color) => sum + shareOfColor(container, color), 0),
        { timeout: 20_000, message: 'zoom 1–5 tiles drawn at map zoom 2.5' },
      )
      .toBeGreaterThan(0.5)
    expect(shareOfColor(container, deepest)).toBeLessThan(0.01)

    await engine.run('city.setBasemap', { basemap: { kind: 'offline', style: offlineStyle } })
    await expect
      .poll(() => shareOfColor(container, offlineColor), { timeout: 20_000 })
      .toBeGreaterThan(0.9)
    expect(city(engine).basemap).toMatchObject({ kind: 'offline', isLoaded: true })
  })

  it('reports an address that is not a PMTiles archive as a basemap failure of the open city', async () => {
    const engine = createEngine()
    const container = createContainer()
    await engine.run('city.attachContainer', { container })
    await engine.run('city.open', {
      projectId: 'project-pmtiles',
      center: cityCenter,
      basemap: { kind: 'offline', style: offlineStyle },
      tilesets: [],
    })
    // A user switches the basemap of a city that is already drawn.
    await expect.poll(() => city(engine).basemap?.isLoaded, { timeout: 20_000 }).toBe(true)
    const notAnArchive = new URL('/engine/city/basemap-style.ts', location.origin).href
    const failure = await engine
      .run('city.setBasemap', { basemap: { kind: 'pmtiles', url: notAnArchive } })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(EngineError)
    expect((failure as EngineError).code).toBe('city.basemapFailed')
    // the snapshot is published with the next frame
    await expect.poll(() => city(engine).basemap?.error, { timeout: 10_000 }).toBeTruthy()
    expect(city(engine).basemap).toMatchObject({ kind: 'pmtiles', isLoaded: false })
  })
})
