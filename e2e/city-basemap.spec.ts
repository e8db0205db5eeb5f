import { expect, type Page, test } from '@playwright/test'
import { offlineMapColors } from '../src/components/map-picker/offline-style'
import { generateRasterBasemap } from '../tools/pmtiles/raster-basemap'
import { enableTestApi, startSignedIn } from './support/accounts'
import { citySnapshot, createCityProject, enterCityProject, openCityModule } from './support/city'
import { blockRemoteRequests, canvasColours, createEditor, useEnglish } from './project-helpers'

/**
 * Issue 7's PMTiles basemap as a user meets it, with every request that would leave the machine
 * refused: upload two PMTiles files in the basemap setting tab, see each drawn on the city map
 * (read by ranges from the server), switch between them, then back to the offline map.
 */

/** Two seeded raster archives; at the city's zoom 16 MapLibre over-zooms their zoom-6 tiles. */
const aerial = generateRasterBasemap({ seed: 11, maxZoom: 6, name: 'Harbour aerial' })
const survey = generateRasterBasemap({ seed: 12, maxZoom: 6, name: 'Harbour survey' })
const aerialColour = aerial.colorsByZoom[6]!
const surveyColour = survey.colorsByZoom[6]!

function mapCanvas(page: Page) {
  return page.getByTestId('city-map').locator('canvas.maplibregl-canvas')
}

async function expectMapDrawnIn(page: Page, colour: string, message: string): Promise<void> {
  await expect
    .poll(async () => (await canvasColours(mapCanvas(page), [colour])).shareOf[colour], {
      timeout: 30_000,
      message,
    })
    .toBeGreaterThan(0.8)
}

async function uploadPmtiles(page: Page, fileName: string, bytes: Uint8Array): Promise<void> {
  await page.getByLabel('Upload PMTiles').setInputFiles({
    name: fileName,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  })
  await expect(page.locator('.ts-upload__row', { hasText: fileName })).toHaveAttribute(
    'data-status',
    'success',
    { timeout: 30_000 },
  )
}

test('uploads PMTiles basemaps, draws and switches them, and returns to the offline map', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000)
  expect(aerialColour).not.toBe(surveyColour)
  const attemptedRemote = await blockRemoteRequests(context)
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  const archiveReads: { range: string | undefined; status: number }[] = []
  page.on('response', (response) => {
    if (response.url().includes('/web/basemaps/')) {
      archiveReads.push({ range: response.request().headers().range, status: response.status() })
    }
  })
  await useEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  const { token } = await startSignedIn(page, request, account.name, account.password)
  await createCityProject(request, token, 'Basemap city')

  await enterCityProject(page, 'Basemap city')
  await expect(mapCanvas(page)).toBeVisible({ timeout: 30_000 })
  await expectMapDrawnIn(page, offlineMapColors.land, 'the offline basemap at first')

  await openCityModule(page, 'Style')
  await expect(page.getByTestId('city-basemap-tab')).toBeVisible()
  await page.getByRole('radio', { name: 'Uploaded PMTiles' }).check()
  await expect(page.getByText('No PMTiles uploaded yet.')).toBeVisible()

  // An upload becomes the project's basemap at once.
  await uploadPmtiles(page, 'harbour-aerial.pmtiles', aerial.bytes)
  await expectMapDrawnIn(page, aerialColour, 'the uploaded aerial archive drawn')
  expect((await citySnapshot(page)).basemap).toMatchObject({ kind: 'pmtiles', error: null })
  const files = page.getByRole('list', { name: 'Uploaded PMTiles' })
  await expect(files.getByRole('listitem').filter({ hasText: 'harbour-aerial' })).toContainText(
    'in use',
  )

  await uploadPmtiles(page, 'harbour-survey.pmtiles', survey.bytes)
  await expectMapDrawnIn(page, surveyColour, 'the second archive drawn')

  // Back to the first one, picked from the list.
  await files
    .getByRole('listitem')
    .filter({ hasText: 'harbour-aerial' })
    .getByRole('button', { name: 'Use' })
    .click()
  await expectMapDrawnIn(page, aerialColour, 'the first archive drawn again')
  await expect(files.getByRole('listitem').filter({ hasText: 'harbour-survey' })).toContainText(
    'Use',
  )

  // The archives were read in byte ranges, never downloaded whole.
  expect(archiveReads.length).toBeGreaterThanOrEqual(4)
  for (const read of archiveReads) {
    expect(read.range).toMatch(/^bytes=\d+-\d+$/)
    expect(read.status).toBe(206)
  }

  await page.getByRole('radio', { name: /Offline map/ }).check()
  await expectMapDrawnIn(page, offlineMapColors.land, 'the offline basemap back')
  expect((await citySnapshot(page)).basemap?.kind).toBe('offline')
  await expect
    .poll(async () => (await canvasColours(mapCanvas(page), [aerialColour])).shareOf[aerialColour])
    .toBeLessThan(0.01)

  // The choice is the project's: a reload opens it on the offline map again.
  await page.reload()
  await expect(mapCanvas(page)).toBeVisible({ timeout: 30_000 })
  await expectMapDrawnIn(page, offlineMapColors.land, 'the saved offline choice after reload')

  expect(attemptedRemote).toEqual([])
  expect(pageErrors).toEqual([])
})
