import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import { unzipSync } from 'fflate'
import { e2eAdmin, enableTestApi } from './support/accounts'
import { createBuildingProject, openSpaceModule } from './support/building'
import { createCityProject, sharedCityData } from './support/city'
import {
  canvasColours,
  chooseEnglish,
  createEditor,
  postApi,
  signInThroughPage,
} from './project-helpers'
import { offlineMapColors } from '../src/components/map-picker/offline-style'
import { defaultStyleSetting } from '../contract/style'

/**
 * Issue 20 as a user meets it: a new editor orders watermark removal for a building project
 * from the project list, is sent to the order, pays it once an admin confirmed a recharge,
 * builds the offline package on the download page and downloads it — a real zip holding the
 * project's manifest, models list and SBM model, without the watermark — unzips it and opens
 * its `index.html` from disk with the network cut: the project's name, the building, its POI
 * and its style's sky show. A second order while the first is unpaid is refused (SPEC §8).
 * Then a city project's development trial, chosen in the same dialog: the watermarked package
 * holds its tileset and the offline map, and from disk the viewer draws the tileset on the land.
 */

const sbmFixture = new URL('../workers/sbm/fixtures/two-storeys.sbm', import.meta.url)

test('a new editor orders, pays from the balance and downloads the offline package', async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  await enableTestApi(page)
  const projectName = `Paid tower ${Date.now()}`
  const { token, projectId, dialog } = await orderForNewProject(
    { page, context, request, baseURL },
    {
      kind: 'building',
      name: projectName,
      upload: '/web/upload/uploadZip',
      file: { name: 'two-storeys.sbm', mimeType: 'model/gltf-binary', path: sbmFixture },
    },
  )

  // what the dialog should start with: the lines the server marks chosen
  const list = await postApi<{ lines: Array<{ is_check: boolean; amount: number | null }> }>(
    request,
    'orderManage/getShoppingList',
    { project_id: projectId },
    token,
  )
  const chosenTotal = list.datum.lines
    .filter((line) => line.is_check)
    .reduce((sum, line) => sum + (line.amount ?? 0), 0)
  expect(chosenTotal).toBeGreaterThan(0)

  // the metered upload is chosen, watermark removal added
  await expect(dialog.getByRole('checkbox', { name: 'Upload traffic' })).toBeChecked()
  await expect(dialog.getByText(`Total ${chosenTotal} TC`)).toBeVisible()
  await dialog.getByRole('checkbox', { name: 'Watermark removal' }).check()
  await expect(dialog.getByText(`Total ${chosenTotal + 500} TC`)).toBeVisible()
  await dialog.getByRole('button', { name: 'Order', exact: true }).click()
  await page.getByRole('button', { name: 'Go to the order centre' }).click()
  await expect(page.getByTestId('order-state')).toHaveText('Unpaid')

  // a second order while this one is unpaid is refused with SPEC §8's words, and the
  // refusal leads to the unpaid order
  await page.goto('/#/projectManage/bim?kind=space')
  await page
    .getByTestId('project-list-building')
    .getByRole('button', { name: `Order for ${projectName}` })
    .click()
  const again = page.getByRole('dialog', { name: `Order for ${projectName}` })
  await expect(again.getByText(unpaidOrderRefusal)).toBeVisible()
  await expect(again.getByRole('button', { name: 'Order', exact: true })).toBeDisabled()
  await again.getByRole('button', { name: 'Open the order' }).click()
  await expect(page.getByTestId('order-state')).toHaveText('Unpaid')

  // points: a recharge the admin confirms (through the API), then paid from the balance
  const recharge = await postApi<{ code: string }>(
    request,
    'orderManage/recharge',
    { amount: chosenTotal + 500 },
    token,
  )
  expect(recharge.code, recharge.message).toBe('0')
  const admin = await postApi<{ token: string }>(request, 'login', e2eAdmin)
  const adminToken = admin.datum.token
  const confirmed = await postApi(
    request,
    'orderManage/confirmRecharge',
    { code: recharge.datum.code },
    adminToken,
  )
  expect(confirmed.code, confirmed.message).toBe('0')
  await page.reload()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click()
  await expect(page.getByTestId('order-state')).toHaveText('Paid')

  // what the viewer must show from disk: a POI and the project's style (the milky way's night)
  const poiName = 'Lobby sensor'
  await placePoi(request, token, projectId, poiName)
  const style = await postApi(
    request,
    'globalsetting/add',
    { project_id: projectId, setting: { ...defaultStyleSetting, air_style: 3 } },
    token,
  )
  expect(style.code, style.message).toBe('0')

  // the download page of the editor: build, wait for it, download
  await page.goto('/#/projectManage/bim?kind=space')
  await page
    .getByTestId('project-list-building')
    .getByRole('button', { name: `Enter ${projectName}` })
    .first()
    .click()
  // the editor's code and engine load on first entry: slow on a busy machine
  await expect(page.getByTestId('bim4-editor')).toBeVisible({ timeout: 60_000 })
  await openSpaceModule(page, 'Download')
  await expect(
    page.getByText('This project is paid: its offline package can be built and downloaded.'),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Build the offline package' }).click()
  const link = page.getByRole('link', { name: 'Download the offline package' })
  await expect(link).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText(/The offline package is ready: .+, \d+ files\./)).toBeVisible()
  await expect(page.getByText('This package carries a watermark')).toHaveCount(0)
  const entries = await downloadPackage(page, link)
  const names = Object.keys(entries)
  expect(names[0]).toBe('manifest.json')
  expect(names).toEqual(expect.arrayContaining(['building/models.json', 'pois.json']))
  expect(names.filter((name) => name.endsWith('.sbm'))).toHaveLength(1)
  const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']))
  expect(manifest).toMatchObject({
    variant: 'full',
    watermark: false,
    project: { id: projectId, name: projectName, kind: 'building' },
  })

  await openFromDisk(browser, entries, async (disk) => {
    await expect(disk.getByRole('heading', { name: projectName })).toBeVisible()
    await expect(disk.getByText('1 model, 1 POI')).toBeVisible({ timeout: 60_000 })
    await expect(disk.locator('#poi-list')).toContainText(poiName)
    await expect(disk.locator('#watermark')).toBeHidden()
    // the building is drawn over the project's night sky: many colours, no one colour nearly
    // everywhere, dark pixels all around and none of the viewer's own light sky
    const scene = disk.locator('#scene')
    await expect
      .poll(async () => {
        const seen = await canvasColours(scene, [viewerSky, nightSky], 150)
        return (
          seen.distinctColours > 10 &&
          seen.dominantShare < 0.95 &&
          (seen.shareOf[viewerSky] ?? 1) < 0.01 &&
          (seen.shareOf[nightSky] ?? 0) > 0.3
        )
      })
      .toBe(true)
  })
})

test("a city project's trial package opens from disk with its tileset on the map", async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  const projectName = `Trial city ${Date.now()}`
  // the dragon: an Earth-centred tileset at Cesium's test site in Pennsylvania
  const { projectId, dialog } = await orderForNewProject(
    { page, context, request, baseURL },
    {
      kind: 'city',
      name: projectName,
      upload: '/web/upload/uploadTiltModel',
      file: {
        name: 'dragon.zip',
        mimeType: 'application/zip',
        path: sharedCityData('zip/derived/tileset-discrete-lod-root.zip'),
      },
    },
  )

  // the development trial locks every other line and leaves only the direct download
  await dialog.getByRole('checkbox', { name: 'Development trial' }).check()
  await expect(dialog.getByRole('checkbox', { name: 'Watermark removal' })).toBeDisabled()
  await dialog.getByRole('button', { name: 'Direct download' }).click()

  const offlinePackage = page.getByRole('dialog', { name: `Offline package of ${projectName}` })
  await offlinePackage.getByRole('button', { name: 'Build the trial package' }).click()
  const link = offlinePackage.getByRole('link', { name: 'Download the offline package' })
  await expect(link).toBeVisible({ timeout: 60_000 })
  await expect(
    offlinePackage.getByText('This package carries a watermark (watermark removal is not paid).'),
  ).toBeVisible()
  const entries = await downloadPackage(page, link)
  const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']))
  expect(manifest).toMatchObject({
    variant: 'trial',
    watermark: true,
    project: { id: projectId, name: projectName, kind: 'city' },
    contents: { basemap: { countries: 'basemap/countries.geojson' } },
  })
  expect(manifest.contents.tilesets).toHaveLength(1)

  await openFromDisk(browser, entries, async (disk) => {
    await expect(disk.getByRole('heading', { name: projectName })).toBeVisible()
    await expect(disk.getByText('1 tileset, 0 POIs')).toBeVisible({ timeout: 90_000 })
    // an empty POI list says so instead of leaving a blank strip
    await expect(disk.locator('#poi-list')).toHaveText('This project has no POIs.')
    await expect(disk.getByText('Twinscape trial')).toBeVisible()
    // the offline style's land under the dragon, and the dragon's tiles: pixels that are
    // neither that land nor the viewer's sky
    const scene = disk.locator('#scene')
    const seen = await canvasColours(scene, [offlineLand, viewerSky], 24)
    const land = seen.shareOf[offlineLand] ?? 0
    expect(land).toBeGreaterThan(0.2)
    expect(1 - land - (seen.shareOf[viewerSky] ?? 0)).toBeGreaterThan(0.01)
  })
})

/**
 * The opening both flows share: in English, a new editor's project of the kind holding one
 * uploaded file, the editor signed in through the page and the project's order dialog opened
 * from the project list. Answers the editor's token, the project and the dialog.
 */
async function orderForNewProject(
  fixtures: { page: Page; context: BrowserContext; request: APIRequestContext; baseURL?: string },
  project: NewProject,
): Promise<{ token: string; projectId: string; dialog: Locator }> {
  const { page, context, request, baseURL } = fixtures
  test.setTimeout(180_000)
  await chooseEnglish(context, baseURL)
  const { account, token, projectId } = await newEditorsProject(request, project)
  await signInThroughPage(page, account)
  const listKind = project.kind === 'city' ? 'city' : 'space'
  await page.goto(`/#/projectManage/bim?kind=${listKind}`)
  await page
    .getByTestId(`project-list-${project.kind}`)
    .getByRole('button', { name: `Order for ${project.name}` })
    .click()
  const dialog = page.getByRole('dialog', { name: `Order for ${project.name}` })
  return { token, projectId, dialog }
}

/** A project of the kind, named, holding one file uploaded through `upload`. */
interface NewProject {
  kind: 'building' | 'city'
  name: string
  upload: string
  file: { name: string; mimeType: string; path: string | URL }
}

/** A new editor's project of the kind holding one uploaded file; answers who and what. */
async function newEditorsProject(
  request: APIRequestContext,
  project: NewProject,
): Promise<{ account: { name: string; password: string }; token: string; projectId: string }> {
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const token = signedIn.datum.token
  const projectId =
    project.kind === 'city'
      ? await createCityProject(request, token, project.name)
      : await createBuildingProject(request, token, project.name)
  const { name, mimeType, path } = project.file
  const uploaded = await request.post(project.upload, {
    headers: { Token: token },
    multipart: { project_id: projectId, file: { name, mimeType, buffer: await readFile(path) } },
  })
  const answer = (await uploaded.json()) as { code: string; message: string }
  expect(answer.code, answer.message).toBe('0')
  return { account, token, projectId }
}

/** The offline style's land (offline-style.ts) and the viewer's sky (engine/offline-viewer). */
const offlineLand = offlineMapColors.land
const viewerSky = '#dfe6ee'
/** Near black: the milky way's night sky (SPEC §9 sky 3; every channel far below 90). */
const nightSky = '#101018'

/** SPEC §8: the refusal of a new order while one is unpaid. */
const unpaidOrderRefusal =
  'You cannot generate a new order due to an uncompleted order! Please go to the order center to pay or delete the order!'

/** Places a POI of the first 2D template on the project's first floor. */
async function placePoi(
  request: APIRequestContext,
  token: string,
  projectId: string,
  name: string,
): Promise<void> {
  const templates = await postApi<{ list: { id: string }[] }>(
    request,
    'poi/selectPoiTemplatePage?pageSize=2',
    { type: '2D' },
    token,
  )
  const info = await postApi<{ structure: { floors: { id: string }[] } }>(
    request,
    'model/findModelInfo',
    { project_id: projectId },
    token,
  )
  const template = templates.datum.list[0]
  const floor = info.datum.structure.floors[0]
  expect(template, 'a seeded 2D template').toBeDefined()
  expect(floor, 'a floor of the uploaded building').toBeDefined()
  const poi = await postApi(
    request,
    'poi/creatPoi',
    {
      projectid: projectId,
      name,
      category_id: template!.id,
      floor_id: floor!.id,
      x: 1,
      y: 2,
      z: 1,
    },
    token,
  )
  expect(poi.code, poi.message).toBe('0')
}

/** Downloads the ready package through its link: a real zip, answered as its entries. */
async function downloadPackage(page: Page, link: Locator): Promise<Record<string, Uint8Array>> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  expect(download.suggestedFilename()).toMatch(/^[0-9a-f-]{36}\.zip$/)
  const bytes = await readFile((await download.path())!)
  expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04])
  return unzipSync(new Uint8Array(bytes))
}

/**
 * Unzips the package into a folder and opens its `index.html` from disk as a person would,
 * with the network cut; `check` reads the page; no page error may occur meanwhile.
 */
async function openFromDisk(
  browser: Browser,
  entries: Record<string, Uint8Array>,
  check: (disk: Page) => Promise<void>,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'orders-offline-package-'))
  const offline = await browser.newContext({ locale: 'en-US', offline: true })
  try {
    for (const [name, content] of Object.entries(entries)) {
      if (name.endsWith('/')) continue
      await mkdir(dirname(join(folder, name)), { recursive: true })
      await writeFile(join(folder, name), content)
    }
    const disk = await offline.newPage()
    const errors: string[] = []
    disk.on('pageerror', (error) => errors.push(error.message))
    await disk.goto(pathToFileURL(join(folder, 'index.html')).href)
    await check(disk)
    expect(errors).toEqual([])
  } finally {
    await offline.close()
    await rm(folder, { recursive: true, force: true })
  }
}
