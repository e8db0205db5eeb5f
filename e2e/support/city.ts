import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import type { CitySnapshot } from '../../engine/api/city-snapshot'

/**
 * Steps of the city-editor spec: create a city project through the API, open it the way a user
 * does, and read the city engine through `window.__twinTest`.
 */

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A file of the shared test data (../shared/data). */
export function sharedCityData(relativePath: string): string {
  return resolve(repositoryRoot, '..', 'shared', 'data', relativePath)
}

interface Envelope<Datum> {
  code: string
  message: string
  datum: Datum
}

/**
 * Creates a city project owned by the token's user at the SPEC §9 default centre, with a cover
 * uploaded through `/web/upload/uploadJpg` (a project needs one, SPEC §5); answers its id.
 */
export async function createCityProject(
  request: APIRequestContext,
  token: string,
  name: string,
): Promise<string> {
  const cover = await readFile(sharedCityData('gltf/Duck/DuckCM.png'))
  const uploaded = await request.post('/web/upload/uploadJpg', {
    headers: { Token: token },
    multipart: {
      purpose: 'project-cover',
      file: { name: 'cover.png', mimeType: 'image/png', buffer: cover },
    },
  })
  const coverEnvelope = (await uploaded.json()) as Envelope<{ uuid: string }>
  expect(coverEnvelope.code, coverEnvelope.message).toBe('0')
  const created = await request.post('/web/project/addProject', {
    headers: { Token: token },
    data: {
      kind: 'city',
      name,
      detailedaddress: 'Harbour road 1',
      description: 'A city for the e2e specs',
      prewiewpath_uuid: coverEnvelope.datum.uuid,
      project_center: { lng: 121.6, lat: 31.2 },
    },
  })
  const projectEnvelope = (await created.json()) as Envelope<{ id: string }>
  expect(projectEnvelope.code, projectEnvelope.message).toBe('0')
  return projectEnvelope.datum.id
}

/** Enters a city project from the project home, as a user does; lands on /home/map. */
export async function enterCityProject(page: Page, projectName: string): Promise<void> {
  await page.goto('/#/projectManage/bim')
  await page
    .getByTestId('project-list-city')
    .getByRole('button', { name: `Enter ${projectName}` })
    .first()
    .click()
  await expect(page.getByTestId('city-editor')).toBeVisible()
}

/** Opens a module of the city sidebar by its label. */
export async function openCityModule(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'City project' })
    .getByRole('link', { name: label, exact: true })
    .click()
}

/** The engine's city snapshot, read through the test API. */
export async function citySnapshot(page: Page): Promise<CitySnapshot> {
  return page.evaluate(() => {
    const snapshot = window.__twinTest?.getEngineSnapshot()
    if (!snapshot) throw new Error('the test API is not enabled')
    return snapshot.city
  })
}
