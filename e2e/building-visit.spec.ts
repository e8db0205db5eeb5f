import { readFile } from 'node:fs/promises'
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test'
import type { Capture } from '../contract/visit'
import { e2eAdmin, enableTestApi, hashPathOf } from './support/accounts'
import {
  buildingIsDrawn,
  buildingSnapshot,
  canvasIsNotBlank,
  createBuildingProject,
  enterBuildingProject,
  oneFloorBoxBuilding,
  openSpaceModule,
} from './support/building'
import { changedPixelShare, decodePng } from './support/png-pixels'
import {
  createEditor,
  postApi,
  sharedDataFile,
  signInThroughPage,
  chooseEnglish,
  toastMessage,
} from './project-helpers'

const house = oneFloorBoxBuilding('Visited house')

/**
 * Issue 19's visit side as people meet it: an editor walks through a building project with the
 * WASD keys (the view moves, Esc gives the orbit back), captures three views, reorders them into
 * a tour by drag and by keyboard and plays it (it lands on each view in the new order and shows
 * what was captured there), drives the embedded preview of the API demo by postMessage and
 * creates a share link; its kiosk variant with a 5-second idle time, left alone, starts the tour
 * by itself. Someone with the link opens it in a fresh browser without signing in and sees the
 * scene drawn, the project's name, "Read-only preview" and the saved views; the owner revokes the
 * links and the open preview ends on a screen that says so. Then an admin puts the project into
 * the case gallery under a new category, and a guest finds it there and opens its preview.
 */
test('walk, capture a tour, embed, kiosk and share a building; revoking ends the preview; a curated case opens for guests', async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(600_000)
  await chooseEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const projectName = `Visited ${Date.now()}`
  const projectId = await createBuildingProject(request, signedIn.datum.token, projectName)

  await signInThroughPage(page, account)
  await enterBuildingProject(page, projectName)
  await house.upload(page)
  await openSpaceModule(page, 'Visit')

  // the WASD walk: S walks the eye back from above the house, which comes into the lowered view;
  // Esc leaves the walk
  await page.getByRole('link', { name: 'Function expansion' }).click()
  const walkTool = page.getByRole('region', { name: 'WASD walk' })
  await walkTool.getByRole('button', { name: 'Start walking' }).click()
  await expect.poll(async () => (await buildingSnapshot(page)).walk.isWalking).toBe(true)
  const canvas = page.getByTestId('building-canvas')
  await expect(walkTool.getByRole('button', { name: 'Leave the walk (Esc)' })).toBeVisible()
  // a drag down looks down at the house the walk starts above
  const bounds = await canvas.boundingBox()
  if (!bounds) throw new Error('the scene has no canvas box')
  const middle = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 3 }
  await page.mouse.move(middle.x, middle.y)
  await page.mouse.down()
  await page.mouse.move(middle.x, middle.y + 160, { steps: 8 })
  await page.mouse.up()
  await expect.poll(async () => (await buildingSnapshot(page)).walk.pitchDegrees).toBeLessThan(-20)
  const atStart = await canvas.screenshot()
  await page.keyboard.down('KeyS')
  await expect
    .poll(async () => (await buildingSnapshot(page)).walk.distanceWalked, { timeout: 30_000 })
    .toBeGreaterThan(1.5)
  await page.keyboard.up('KeyS')
  await expect
    .poll(async () => changedPixelShare(atStart, await canvas.screenshot()))
    .toBeGreaterThan(0.02)
  await page.keyboard.press('Escape')
  await expect.poll(async () => (await buildingSnapshot(page)).walk.isWalking).toBe(false)
  await expect(walkTool.getByRole('button', { name: 'Start walking' })).toBeVisible()

  // three captures of three views (the orbit turned between them), each listed with its image
  await page.getByRole('link', { name: 'Preview' }).click()
  const captures = page.getByRole('list', { name: 'Captures' })
  for (const view of [1, 2, 3]) {
    if (view > 1) await orbit(page, canvas, 180)
    await settledPicture(canvas)
    await page.getByRole('button', { name: 'Screen capture' }).click()
    await expect
      .poll(() =>
        captures
          .getByRole('img', { name: `View ${view}` })
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
      )
      .toBe(true)
  }
  // into a tour: View 3 dragged to the top, then View 2 moved up from the keyboard
  await captures
    .getByRole('img', { name: 'View 3' })
    .dragTo(captures.getByRole('img', { name: 'View 1' }))
  await expect(captures.getByRole('listitem')).toContainText(['View 3', 'View 1', 'View 2'])
  await captures.getByRole('button', { name: 'Move View 2 up' }).focus()
  await page.keyboard.press('Enter')
  await expect(captures.getByRole('listitem')).toContainText(['View 3', 'View 2', 'View 1'])
  const saved = await postApi<Capture[]>(
    request,
    'project/findCaptureById',
    { project_id: projectId },
    signedIn.datum.token,
  )
  expect(saved.datum.map((capture) => capture.name)).toEqual(['View 3', 'View 2', 'View 1'])
  const [view3, view2] = saved.datum as [Capture, Capture, Capture]
  // View 3's picture as its thumbnail flies back to it (the list as the tour will show it)
  await captures.getByRole('button', { name: 'View 3', exact: true }).click()
  await expect.poll(() => distanceToView(page, view3), { timeout: 30_000 }).toBeLessThan(0.01)
  const atView3 = await settledPicture(canvas)
  // View 3 is given a 20-second dwell, long enough for a loaded machine's screenshots (the
  // default 5 s was once over before the picture was compared)
  const view3Dwell = captures.getByRole('spinbutton', { name: 'Dwell of View 3' })
  await view3Dwell.fill('20')
  await view3Dwell.press('Enter')
  await expect(toastMessage(page, 'Saved.')).toBeVisible()
  // turned away, then the tour keeps the new order: it lands on View 3 and shows that picture
  // for its dwell, then moves on to View 2
  await orbit(page, canvas, -240)
  await expect.poll(() => distanceToView(page, view3)).toBeGreaterThan(1)
  await page.getByRole('button', { name: 'Play tour' }).click()
  await expect.poll(() => distanceToView(page, view3), { timeout: 30_000 }).toBeLessThan(0.01)
  await expect
    .poll(async () => changedPixelShare(atView3, await canvas.screenshot()))
    .toBeLessThan(0.02)
  await expect.poll(() => distanceToView(page, view2), { timeout: 60_000 }).toBeLessThan(0.01)
  await expect
    .poll(async () => changedPixelShare(atView3, await canvas.screenshot()))
    .toBeGreaterThan(0.02)
  await page.getByRole('button', { name: 'Stop tour' }).click()

  await driveEmbeddedPreview(page)

  await page.getByRole('link', { name: 'Link browsing' }).click()
  await page.getByRole('button', { name: 'Create share link' }).click()
  const shareField = page.getByTestId('share-link')
  await expect(shareField).toHaveValue(/outPreview\?project_id=/)
  const shareLink = await shareField.inputValue()
  await expect(page.getByRole('img', { name: 'QR code of the share link' })).toBeVisible()
  await watchKioskTourStart(page, [view3, view2])

  // a visitor: a fresh browser, never signed in
  const visitorContext = await browser.newContext()
  await chooseEnglish(visitorContext, baseURL)
  const visitor = await visitorContext.newPage()
  const visitorErrors: string[] = []
  visitor.on('pageerror', (error) => visitorErrors.push(error.message))
  await visitor.goto(shareLink)
  const preview = visitor.getByTestId('preview')
  // the first visit loads the scene's chunk (the engine) on a cold cache
  await expect(preview.getByTestId('preview-title')).toHaveText(projectName, { timeout: 60_000 })
  await expect(preview.getByText('Read-only preview')).toBeVisible()
  await expect(preview.getByRole('button', { name: 'View 1' })).toBeVisible()
  await expect(preview.getByRole('button', { name: 'Play tour' })).toBeVisible()
  // no editing chrome: no sidebar, no module panel
  await expect(visitor.getByTestId('bim4-editor')).toHaveCount(0)
  // the visitor's scene loads the house on a cold cache
  await expect
    .poll(() => canvasIsNotBlank(preview.getByTestId('building-canvas')), { timeout: 30_000 })
    .toBe(true)
  expect(new URL(visitor.url()).hash).toContain('/bim4/outPreview')

  // the owner revokes every link: the open preview ends within its next check (≤ 30 s)
  const revoked = await postApi(
    request,
    'project/revokeProjectTokens',
    { id: projectId },
    signedIn.datum.token,
  )
  expect(revoked.code, revoked.message).toBe('0')
  const ended = visitor.getByTestId('preview-ended')
  await expect(ended.getByRole('heading', { name: 'This preview link has ended' })).toBeVisible({
    timeout: 45_000,
  })
  // the scene is gone, not left frozen behind the message
  await expect(visitor.getByTestId('preview')).toHaveCount(0)
  expect(visitorErrors).toEqual([])
  await visitorContext.close()

  await curateAsCase(browser, baseURL, projectName)
})

/** Two slabs 10 × 10 m at 0 and 3 m and a column: concrete grey, nothing yellow. */
const twoStoreysSbm = new URL('../workers/sbm/fixtures/two-storeys.sbm', import.meta.url)

/**
 * Pixels of the Duck's yellow in a PNG, lit or shaded (red and green high, blue low), which
 * nothing else of this scene is (the rule of the offline viewer's test).
 */
function duckYellowPixels(png: Uint8Array): number {
  const { data } = decodePng(png)
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const [red, green, blue] = [data[index]!, data[index + 1]!, data[index + 2]!]
    if (red > 120 && green > 80 && blue < 70 && red - blue > 100) count++
  }
  return count
}

/**
 * The public preview draws the building's model library where the editor placed it: a building
 * and a Duck on its upper slab, put in through the API as the editor's uploads do, and a visitor
 * with the share link sees the Duck's yellow in the scene.
 */
test("a visitor's preview draws the building's library models", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const token = signedIn.datum.token
  const projectName = `Duck house ${Date.now()}`
  const projectId = await createBuildingProject(request, token, projectName)
  const building = await request.post('/web/upload/uploadZip', {
    headers: { Token: token },
    multipart: {
      project_id: projectId,
      file: {
        name: 'two-storeys.sbm',
        mimeType: 'application/octet-stream',
        buffer: await readFile(twoStoreysSbm),
      },
    },
  })
  const built = (await building.json()) as { code: string; message: string }
  expect(built.code, built.message).toBe('0')
  // on the upper slab (its top at 3.1 m), in the middle of the view the preview opens with
  const duck = await request.post('/web/cityModel/upload', {
    headers: { Token: token },
    multipart: {
      project_id: projectId,
      x: '0',
      y: '3.1',
      z: '0',
      heading: '30',
      scale: '2',
      file: {
        name: 'Duck.glb',
        mimeType: 'model/gltf-binary',
        buffer: await readFile(sharedDataFile('gltf/Duck/Duck.glb')),
      },
    },
  })
  const placed = (await duck.json()) as { code: string; message: string }
  expect(placed.code, placed.message).toBe('0')
  const share = await postApi<{ url: string }>(
    request,
    'project/projectShareUrl',
    { id: projectId },
    token,
  )
  expect(share.code, share.message).toBe('0')

  const visitorContext = await browser.newContext()
  await chooseEnglish(visitorContext, baseURL)
  const visitor = await visitorContext.newPage()
  await enableTestApi(visitor)
  const visitorErrors: string[] = []
  visitor.on('pageerror', (error) => visitorErrors.push(error.message))
  await visitor.goto(new URL(share.datum.url, baseURL).href)
  const preview = visitor.getByTestId('preview')
  await expect(preview.getByTestId('preview-title')).toHaveText(projectName, { timeout: 60_000 })
  await expect
    .poll(
      async () => (await buildingSnapshot(visitor)).libraryModels.map((model) => model.loadState),
      { timeout: 60_000, message: 'the library model loads in the preview' },
    )
    .toEqual(['success'])
  const canvas = preview.getByTestId('building-canvas')
  await expect
    .poll(async () => duckYellowPixels(await canvas.screenshot()), {
      timeout: 30_000,
      message: "the Duck's yellow is drawn",
    })
    .toBeGreaterThan(1_000)
  expect(visitorErrors).toEqual([])
  await visitorContext.close()
})

/**
 * Function expansion's API demo: the live example embeds the project's preview in an iframe;
 * its buttons post messages the preview obeys. The preview says it is ready (with its floors),
 * "Start tour" flies the embedded view to the saved view (its picture changes) and reports the
 * tour, "1F" selects that floor in the embedded scene, and "Stop tour" ends the tour.
 */
async function driveEmbeddedPreview(page: Page) {
  await page.getByRole('link', { name: 'Function expansion' }).click()
  const demo = page.getByRole('region', { name: 'API demo' })
  await demo.getByRole('button', { name: 'Open the live example' }).click()
  const messages = demo.getByRole('list', { name: 'Messages from the preview' })
  await expect(messages.getByText('"event":"ready"').first()).toBeVisible({ timeout: 60_000 })
  const frameElement = demo.getByTestId('embed-frame')
  const frame = await (await frameElement.elementHandle())?.contentFrame()
  if (!frame) throw new Error('the live example has no frame')
  const embedded = () =>
    frame.evaluate(() => {
      const building = window.__twinTest?.getEngineSnapshot().building
      return {
        isLoaded: building?.models.every((model) => model.loadState === 'success') ?? false,
        selectedFloorId: building?.selectedFloorId ?? null,
      }
    })
  await expect.poll(async () => (await embedded()).isLoaded, { timeout: 60_000 }).toBe(true)
  const embeddedCanvas = frame.getByTestId('building-canvas')
  // the embedded view settled (two pictures alike) before the tour moves it
  const before = await settledPicture(embeddedCanvas)

  await demo.getByRole('button', { name: 'Start tour' }).click()
  await expect(messages.getByText('"isPlaying":true').first()).toBeVisible()
  await expect
    .poll(async () => changedPixelShare(before, await embeddedCanvas.screenshot()), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0.02)
  await demo.getByRole('button', { name: 'Stop tour' }).click()
  await expect(messages.getByText('"isPlaying":false').first()).toBeVisible()

  await demo.getByRole('button', { name: '1F', exact: true }).click()
  await expect.poll(async () => (await embedded()).selectedFloorId).not.toBeNull()
}

/** A picture of the canvas once two in a row are alike (the view stopped moving). */
async function settledPicture(canvas: Locator): Promise<Buffer> {
  let picture = await canvas.screenshot()
  await expect
    .poll(async () => {
      const next = await canvas.screenshot()
      const share = changedPixelShare(picture, next)
      picture = next
      return share
    })
    .toBe(0)
  return picture
}

/** Turns the orbit by a horizontal drag across the middle of the canvas. */
async function orbit(page: Page, canvas: Locator, pixels: number): Promise<void> {
  const bounds = await canvas.boundingBox()
  if (!bounds) throw new Error('the scene has no canvas box')
  const middle = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 }
  await page.mouse.move(middle.x, middle.y)
  await page.mouse.down()
  await page.mouse.move(middle.x + pixels, middle.y, { steps: 8 })
  await page.mouse.up()
}

/** How far the page's building camera stands from where a capture was taken (metres). */
async function distanceToView(page: Page, capture: Capture): Promise<number> {
  const { position } = (await buildingSnapshot(page)).camera
  return Math.hypot(...position.map((value, axis) => value - capture.camera.position[axis]!))
}

/**
 * Link browsing's kiosk link with the idle time set to 5 seconds: the kiosk opens without chrome,
 * draws the building and, left alone, starts the tour by itself at its first views in order.
 */
async function watchKioskTourStart(page: Page, firstViews: readonly [Capture, Capture]) {
  await page.getByRole('spinbutton', { name: 'Kiosk tour after idle time' }).fill('5')
  await page.keyboard.press('Enter')
  const opened = page.context().waitForEvent('page')
  await page.getByRole('link', { name: 'Open kiosk mode' }).click()
  const kiosk = await opened
  const kioskErrors: string[] = []
  kiosk.on('pageerror', (error) => kioskErrors.push(error.message))
  expect(kiosk.url()).toContain('&kiosk=1&idle=5')
  // the engine's test API comes with the scene's lazy chunk
  await buildingSnapshot(kiosk)
  await expect.poll(() => buildingIsDrawn(kiosk).catch(() => false), { timeout: 60_000 }).toBe(true)
  await expect(kiosk.getByTestId('preview')).toBeVisible()
  await expect(kiosk.getByTestId('preview-title')).toHaveCount(0)
  await expect(kiosk.getByRole('button', { name: 'Play tour' })).toHaveCount(0)
  for (const view of firstViews) {
    await expect.poll(() => distanceToView(kiosk, view), { timeout: 30_000 }).toBeLessThan(0.01)
  }
  await expect.poll(() => buildingIsDrawn(kiosk)).toBe(true)
  expect(kioskErrors).toEqual([])
  await kiosk.close()
}

/**
 * `/case` curation: the admin adds a category and the project to the gallery (found by its name)
 * and files it under the category; a guest sees it there, enters it and opens its preview from
 * Visit → More cases, which shows the building drawn without signing in as its owner.
 */
async function curateAsCase(browser: Browser, baseURL: string | undefined, projectName: string) {
  const adminContext = await browser.newContext()
  await chooseEnglish(adminContext, baseURL)
  const admin = await adminContext.newPage()
  await signInThroughPage(admin, e2eAdmin)
  await expect.poll(() => hashPathOf(admin)).not.toBe('/login')
  await admin.goto('/#/projectCase')
  const curation = admin.getByRole('region', { name: 'Curate the cases' })
  const category = `Visits ${Date.now()}`
  await curation.getByRole('textbox', { name: 'New category' }).fill(category)
  await curation.getByRole('button', { name: 'Add category' }).click()
  await expect(toastMessage(admin, 'Saved.')).toBeVisible()
  await expect(curation.getByRole('textbox', { name: 'Category name' }).last()).toHaveValue(
    category,
  )
  await curation.getByRole('searchbox', { name: 'Find a project' }).fill(projectName)
  await curation.getByRole('combobox', { name: 'Project' }).click()
  await admin.getByRole('option', { name: projectName }).click()
  await curation.getByRole('button', { name: 'Add to the gallery' }).click()
  const row = curation
    .getByTestId('case-row')
    .filter({ has: admin.getByRole('button', { name: `Remove ${projectName} from the gallery` }) })
  await expect(row).toBeVisible()
  await row.getByRole('combobox', { name: 'Category' }).click()
  await admin.getByRole('option', { name: category }).click()
  await expect(
    admin
      .getByRole('region', { name: category })
      .getByRole('button', { name: `Enter ${projectName}` })
      .first(),
  ).toBeVisible()
  await adminContext.close()

  const guestContext = await browser.newContext()
  await chooseEnglish(guestContext, baseURL)
  const guest = await guestContext.newPage()
  await guest.goto('/#/login')
  await guest.getByRole('button', { name: 'Continue as guest' }).click()
  await expect.poll(() => hashPathOf(guest)).toBe('/projectManage/bim')
  await guest.goto('/#/projectCase')
  await guest
    .getByRole('region', { name: category })
    .getByRole('button', { name: `Enter ${projectName}` })
    .first()
    .click()
  await expect(guest.getByTestId('bim4-editor')).toBeVisible({ timeout: 30_000 })
  await openSpaceModule(guest, 'Visit')
  await guest.getByRole('link', { name: 'More cases' }).click()
  const listed = guest
    .getByRole('listitem')
    .filter({ hasText: projectName })
    .filter({ has: guest.getByRole('button', { name: 'Open preview' }) })
  const opened = guestContext.waitForEvent('page')
  await listed.getByRole('button', { name: 'Open preview' }).click()
  const preview = await opened
  await expect(preview.getByTestId('preview-title')).toHaveText(projectName, { timeout: 60_000 })
  await expect.poll(() => canvasIsNotBlank(preview.getByTestId('building-canvas'))).toBe(true)
  await guestContext.close()
}
