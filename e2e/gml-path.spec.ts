import { expect, test } from '@playwright/test'
import {
  buildingSnapshot,
  openSpaceModule,
  sharedData,
  startInNewBuildingProject,
} from './support/building'
import { toastMessage } from './project-helpers'
import { screenColours } from './support/screen-colours'

/**
 * Issue #6 as a user meets it: upload the FJK-Haus IndoorGML file to a building project, see
 * its network, switch the display modes, and find the shortest path between two States on
 * different floors. The expected route comes from ../shared/data/README.md §4: R10 → R21 =
 * R10 R3 R12 R23 R21, 13.367 long along the Transition lines.
 */

const fjkHaus = sharedData('indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml')

test('a user uploads a GML path, changes its display and finds a route across floors', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await startInNewBuildingProject({ page, context, request, baseURL }, 'GML house')
  await openSpaceModule(page, 'GML path')
  await expect(page).toHaveURL(/#\/bim4\/gml\/path$/)
  await expect(page.getByText('There is no GML file.')).toBeVisible()

  // Routing before any network says so.
  await page.getByRole('button', { name: 'Find route' }).click()
  await expect(toastMessage(page, 'Load the GML path first.')).toBeVisible()

  await page.getByTestId('gml-file-input').setInputFiles(fjkHaus)
  const uploadList = page.getByRole('region', { name: 'upload list' })
  await expect(uploadList.locator('[data-status="success"]')).toHaveCount(1, { timeout: 30_000 })
  await expect(page.getByTestId('gml-file-name')).toHaveText(
    'FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml',
  )
  await expect(page.getByTestId('gml-network')).toContainText('14 spaces', { timeout: 30_000 })
  let gml = (await buildingSnapshot(page)).gml
  expect(gml).toMatchObject({ isLoaded: true, stateCount: 14 })
  expect(gml.storeys.length).toBe(3)

  // Display modes 0–3 (SPEC §9).
  for (const [label, mode] of [
    ['Node only', 2],
    ['Path only', 3],
    ['Hide all', 0],
    ['Node and path', 1],
  ] as const) {
    await page.getByRole('radio', { name: label, exact: true }).click()
    await expect.poll(async () => (await buildingSnapshot(page)).gml.displayMode).toBe(mode)
  }

  // The spec's messages for incomplete requests.
  await page.getByRole('button', { name: 'Find route' }).click()
  await expect(toastMessage(page, 'Not selected paths')).toBeVisible()
  await page.getByRole('button', { name: 'Clear route' }).click()
  await expect(toastMessage(page, 'Draw the shortest path first, please.')).toBeVisible()

  // R10 on the ground floor to R21 on the second floor, chosen from the State list.
  await page.getByLabel('Start', { exact: true }).selectOption('R10')
  await page.getByRole('button', { name: 'Find route' }).click()
  await expect(toastMessage(page, 'Re-select the start point or the end point.')).toBeVisible()
  await page.getByLabel('End', { exact: true }).selectOption('R21')
  await page.getByRole('button', { name: 'Find route' }).click()

  await expect(page.getByTestId('route-length')).toHaveText('Total length: 13.37 m', {
    timeout: 20_000,
  })
  // The route is on screen, in its colour (#ff3b30), where the fitted placement puts it.
  await expect
    .poll(
      async () =>
        (await screenColours(page.getByTestId('building-canvas'), ['#ff3b30']))['#ff3b30'],
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThan(0.0005)
  gml = (await buildingSnapshot(page)).gml
  expect(gml.route?.stateIds).toEqual(['R10', 'R3', 'R12', 'R23', 'R21'])
  expect(gml.route?.lengthMeters).toBeCloseTo(13.367, 2)
  expect(gml.route?.floorChanges.length).toBeGreaterThan(0)
  const steps = page.getByTestId('route-result').locator('li[data-state-id]')
  await expect(steps).toHaveCount(5)
  await expect(steps.first()).toHaveAttribute('data-state-id', 'R10')
  await expect(steps.last()).toHaveAttribute('data-state-id', 'R21')

  await page.getByRole('button', { name: 'Clear route' }).click()
  await expect.poll(async () => (await buildingSnapshot(page)).gml.route).toBeNull()

  expect(pageErrors).toEqual([])
})
