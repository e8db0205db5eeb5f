import type { APIRequestContext, Page } from '@playwright/test'
import type { CitySnapshot } from '../../engine/api/city-snapshot'
import { offlineMapColors } from '../../src/components/map-picker/offline-style'
import { createSampleProject, enterProject, openEditorModule, sharedData } from './project-api'

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

/**
 * The share of the map's central area drawn in colours the offline basemap does not use: what
 * the tilesets put on screen. Read from a screenshot (what the compositor shows, as a person
 * sees it), the middle half of the map in each direction.
 */
export async function tilesetShareAtCentre(page: Page): Promise<number> {
  const map = page.getByTestId('city-map')
  const png = await map.screenshot()
  return page.evaluate(
    async ({ base64, basemapColours }) => {
      const image = new Image()
      image.src = `data:image/png;base64,${base64}`
      await image.decode()
      const copy = document.createElement('canvas')
      copy.width = image.naturalWidth
      copy.height = image.naturalHeight
      const context = copy.getContext('2d')
      if (!context) return 0
      context.drawImage(image, 0, 0)
      const [x, y] = [Math.floor(copy.width / 4), Math.floor(copy.height / 4)]
      const { data } = context.getImageData(x, y, copy.width / 2, copy.height / 2)
      const references = basemapColours.map((hex) => {
        const value = Number.parseInt(hex.slice(1), 16)
        return [(value >> 16) & 255, (value >> 8) & 255, value & 255] as const
      })
      let drawn = 0
      for (let index = 0; index < data.length; index += 4) {
        const [red, green, blue] = [data[index]!, data[index + 1]!, data[index + 2]!]
        const isBasemap = references.some(
          ([r, g, b]) => Math.abs(red - r) + Math.abs(green - g) + Math.abs(blue - b) < 30,
        )
        if (!isBasemap) drawn++
      }
      return drawn / Math.max(1, data.length / 4)
    },
    { base64: png.toString('base64'), basemapColours: Object.values(offlineMapColors) },
  )
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
