import type { APIRequestContext, Page } from '@playwright/test'
import type { CitySnapshot } from '../../engine/api/city-snapshot'
import { offlineMapColors } from '../../src/components/map-picker/offline-style'
import { decodePng } from './png-pixels'
import { createSampleProject, enterProject, openEditorModule, sharedData } from './project-api'
import { isCanvasSeenAt } from './screens'

/**
 * Steps of the city-editor spec: create a city project through the API, open it the way a user
 * does, and read the city engine through `window.__twinTest`.
 */

/** A file of the shared test data (../shared/data). */
export const sharedCityData = sharedData

/** Creates a city project owned by the token's user (see createProjectThroughApi). */
export function createCityProject(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  return createSampleProject(request, token, 'city', name)
}

/** Enters a city project from the project home, as a user does; lands on /home/map. */
export function enterCityProject(page: Page, projectName: string): Promise<void> {
  return enterProject(page, 'city', projectName)
}

/** Opens a module of the city sidebar by its label. */
export function openCityModule(page: Page, label: string): Promise<void> {
  return openEditorModule(page, 'city', label)
}

/** The engine's city snapshot, read through the test API. */
export async function citySnapshot(page: Page): Promise<CitySnapshot> {
  return page.evaluate(() => {
    const snapshot = window.__twinTest?.getEngineSnapshot()
    if (!snapshot) throw new Error('the test API is not enabled')
    return snapshot.city
  })
}

/** The offline basemap's colours as RGB triples: what is not a tileset on the map. */
const basemapRgb = Object.values(offlineMapColors).map((hex) => {
  const value = Number.parseInt(hex.slice(1), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255] as const
})

/** The map's screenshot decoded here, with whether each pixel is a tileset's (not basemap). */
async function mapTilesetPixels(page: Page) {
  const image = decodePng(await page.getByTestId('city-map').screenshot())
  const isTileset = (x: number, y: number) => {
    const index = (y * image.width + x) * 4
    const [red, green, blue] = [image.data[index]!, image.data[index + 1]!, image.data[index + 2]!]
    return !basemapRgb.some(
      ([r, g, b]) => Math.abs(red - r) + Math.abs(green - g) + Math.abs(blue - b) < 30,
    )
  }
  return { width: image.width, height: image.height, isTileset }
}

/**
 * The share of the map's central area drawn in colours the offline basemap does not use: what
 * the tilesets put on screen. Read from a screenshot (what the compositor shows, as a person
 * sees it), the middle half of the map in each direction.
 */
export async function tilesetShareAtCentre(page: Page): Promise<number> {
  const { width, height, isTileset } = await mapTilesetPixels(page)
  let drawn = 0
  let count = 0
  for (let y = Math.floor(height / 4); y < Math.floor((3 * height) / 4); y++)
    for (let x = Math.floor(width / 4); x < Math.floor((3 * width) / 4); x++) {
      count++
      if (isTileset(x, y)) drawn++
    }
  return drawn / Math.max(1, count)
}

/**
 * A point of the map (CSS pixels of the map element) well inside what a tileset draws: the one
 * nearest the map's centre whose 9 × 9 neighbourhood is all tileset, so a click there lands on
 * its surface and not on an edge. Null when the tilesets draw no such patch.
 */
export async function tilesetPointNearCentre(page: Page): Promise<{ x: number; y: number } | null> {
  const { width, height, isTileset } = await mapTilesetPixels(page)
  const box = (await page.getByTestId('city-map').boundingBox())!
  const [cx, cy] = [width / 2, height / 2]
  let best: { x: number; y: number; distance: number } | null = null
  for (let y = 4; y < height - 4; y += 2)
    for (let x = 4; x < width - 4; x += 2) {
      const distance = Math.hypot(x - cx, y - cy)
      if (best && distance >= best.distance) continue
      let isInside = true
      for (let dy = -4; dy <= 4 && isInside; dy++)
        for (let dx = -4; dx <= 4 && isInside; dx++) isInside = isTileset(x + dx, y + dy)
      if (isInside) best = { x, y, distance }
    }
  if (!best) return null
  return { x: (best.x * box.width) / width, y: (best.y * box.height) / height }
}

/** Records every text the map's status note shows while a project opens, however briefly. */
export async function recordMapStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as unknown as { mapStatusSeen: string[] }).mapStatusSeen = seen
    const read = () => {
      const note = document.querySelector('[data-testid="city-map-status"]')
      const text = note?.textContent ?? ''
      if (text && seen.at(-1) !== text) seen.push(text)
    }
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    })
  })
}

/** The texts {@link recordMapStatus} saw. */
export function mapStatusSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { mapStatusSeen: string[] }).mapStatusSeen)
}

/**
 * Whether a person sees the map around each of these map points (CSS pixels of the map
 * element): see {@link isCanvasSeenAt}. The pointer readout at the bottom lets the pointer pass,
 * so callers keep clear of it by a margin.
 */
export function isMapSeenAt(
  page: Page,
  points: readonly { x: number; y: number }[],
  radius: number,
): Promise<boolean[]> {
  return isCanvasSeenAt(page, 'city-map', points, radius)
}
