import { type APIRequestContext, expect, type Page } from '@playwright/test'
import type { CitySnapshot } from '../../engine/api/city-snapshot'
import { createProjectThroughApi, sharedData } from './project-api'

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
  return createProjectThroughApi(request, token, {
    kind: 'city',
    name,
    detailedaddress: 'Harbour road 1',
    description: 'A city for the e2e specs',
  })
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
