import { expect, type Locator, test } from '@playwright/test'
import {
  buildingSnapshot,
  buildingIsDrawn,
  canvasIsNotBlank,
  libraryModelOnPage,
  lookDownOnBuilding,
  makeSbmFiles,
  openSpaceModule,
  removeMadeFiles,
  startInNewBuildingProject,
  waitForModelsSettled,
  writeStructureManifest,
} from './support/building'
import { sharedDataFile, toastMessage } from './project-helpers'
import { expectAnimationChangesPixels, uploadAnimatedCube } from './support/library-models'

/**
 * Issue #5 as a user meets it, on the production build and the real server: a fresh editor
 * opens a new building project, uploads the structure .json and the floor SBMs through the
 * model library (made from ../shared/data with the project's own converter), sees every model
 * load, switches floors, makes the shell translucent, sees the scene drawn, picks the model at
 * the centre of the canvas and deletes a model.
 */

/** The share of an image's pixels that are drawn (not transparent), 0 before it loads. */
function drawnPixelShare(image: Locator): Promise<number> {
  return image.evaluate((element: HTMLImageElement) => {
    if (!element.complete || element.naturalWidth === 0) return 0
    const canvas = document.createElement('canvas')
    canvas.width = element.naturalWidth
    canvas.height = element.naturalHeight
    const context = canvas.getContext('2d')
    if (!context) return 0
    context.drawImage(element, 0, 0)
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
    let drawn = 0
    for (let index = 3; index < data.length; index += 4) if (data[index]! > 0) drawn += 1
    return drawn / (canvas.width * canvas.height)
  })
}

let files: Record<string, string> = {}
let structurePath = ''

test.beforeAll(async () => {
  // three converter processes at once; each is mostly tsx start-up on this machine
  test.setTimeout(120_000)
  files = await makeSbmFiles([
    { source: 'gltf/edge-cases/Box.glb', output: 'shell.sbm', role: 'shell' },
    {
      source: 'gltf/Duck/Duck.glb',
      output: '1F.sbm',
      role: 'floor',
      floors: [{ id: 'F1', name: '1F', elevation: 0 }],
    },
    {
      source: 'gltf/BoxTextured/glb/BoxTextured.glb',
      output: '2F.sbm',
      role: 'floor',
      floors: [{ id: 'F2', name: '2F', elevation: 3 }],
    },
  ])
  structurePath = await writeStructureManifest({
    name: 'E2E house',
    shell: 'shell.sbm',
    floors: [
      { id: 'F1', name: '1F', elevation: 0, model: '1F.sbm' },
      { id: 'F2', name: '2F', elevation: 3, model: '2F.sbm' },
    ],
  })
})

test.afterAll(removeMadeFiles)

test('a user uploads a building, switches floors, picks a model, deletes one, then drops common models', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  // the library model step (upload, place, play, reload) adds a minute or two to the walk
  test.setTimeout(300_000)
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  await startInNewBuildingProject({ page, context, request, baseURL }, 'House')
  await openSpaceModule(page, 'Model')
  await expect(page).toHaveURL(/#\/bim4\/model\/library$/)
  await expect(page.getByText('No models yet')).toBeVisible()

  // Floors first (three SBMs in one request), then the structure that names them.
  await page
    .getByTestId('floor-file-input')
    .setInputFiles([files['shell.sbm'], files['1F.sbm'], files['2F.sbm']].map(String))
  const uploadList = page.getByRole('region', { name: 'upload list' })
  await expect(uploadList.locator('[data-status="success"]')).toHaveCount(3, { timeout: 30_000 })
  await page.getByTestId('shell-file-input').setInputFiles(structurePath)
  await expect(uploadList.locator('[data-status="success"]')).toHaveCount(4, { timeout: 30_000 })
  await expect(uploadList.getByText('uploaded (4/4)')).toBeVisible()

  // Every model of the library reaches "loaded".
  const items = page.getByTestId('model-item')
  await expect(items).toHaveCount(3, { timeout: 30_000 })
  await expect(items.locator('[data-load-state="success"]')).toHaveCount(3, { timeout: 45_000 })
  await expect(page.getByTestId('model-count')).toHaveText('3 models: 1 shell, 2 floors, 0 other')

  let building = await buildingSnapshot(page)
  expect(building.floors.map((floor) => floor.name)).toEqual(['1F', '2F'])
  expect(building.shell.modelId).not.toBeNull()
  const floor1 = building.floors.find((floor) => floor.name === '1F')!
  const floor2 = building.floors.find((floor) => floor.name === '2F')!
  const duck = building.models.find((model) => model.floorId === floor1.id)!
  const topBox = building.models.find((model) => model.floorId === floor2.id)!

  const canvas = page.getByTestId('building-canvas')
  await expect.poll(() => canvasIsNotBlank(canvas), { timeout: 20_000 }).toBe(true)
  await expect.poll(() => buildingIsDrawn(page), { timeout: 20_000 }).toBe(true)

  // Floor select: 1F keeps itself, 2F (above) hides; "All floors" brings it back.
  await page.getByRole('radio', { name: '1F' }).click()
  await expect.poll(async () => (await buildingSnapshot(page)).selectedFloorId).toBe(floor1.id)
  building = await buildingSnapshot(page)
  expect(building.floors.find((floor) => floor.id === floor2.id)?.isShown).toBe(false)
  expect(building.floors.find((floor) => floor.id === floor1.id)?.isShown).toBe(true)
  await page.getByRole('radio', { name: 'All floors' }).click()
  await expect
    .poll(async () => (await buildingSnapshot(page)).floors.every((floor) => floor.isShown))
    .toBe(true)

  // Translucent shell: ten steps of 5 % down from opaque.
  const opacity = page.getByRole('slider', { name: 'Shell opacity' })
  await opacity.focus()
  for (let step = 0; step < 10; step += 1) await opacity.press('ArrowLeft')
  await expect.poll(async () => (await buildingSnapshot(page)).shell.opacity).toBeCloseTo(0.5)
  await expect.poll(() => canvasIsNotBlank(canvas), { timeout: 20_000 }).toBe(true)
  await expect.poll(() => buildingIsDrawn(page), { timeout: 20_000 }).toBe(true)

  // Pick: only the duck shown and filling the view, a click at the centre hits it.
  await page.getByRole('checkbox', { name: 'Show the shell' }).click()
  await page.getByRole('radio', { name: '1F' }).click()
  await expect.poll(async () => (await buildingSnapshot(page)).shell.isShown).toBe(false)
  await page
    .locator(`[data-model-id="${duck.id}"]`)
    .getByRole('button', { name: /^Show / })
    .click()
  const box = await canvas.boundingBox()
  if (!box) throw new Error('the canvas has no box')
  await canvas.click({ position: { x: box.width / 2, y: box.height / 2 } })
  await expect(page.getByTestId('pick-info')).toBeVisible()
  await expect.poll(async () => (await buildingSnapshot(page)).lastPick).not.toBeNull()
  const pick = (await buildingSnapshot(page)).lastPick
  expect(pick).toMatchObject({ modelId: duck.id, floorId: floor1.id })
  // The Duck's only mesh node is unnamed, so the pick falls back to its glTF mesh's name.
  expect(pick?.meshName).toBe('LOD3spShape')
  await expect(page.getByTestId('pick-mesh')).toHaveText('LOD3spShape')
  expect(pick?.distance).toBeGreaterThan(0)
  await expect(page.getByTestId('pick-model')).toHaveText(duck.name)
  await expect(page.getByTestId('pick-floor')).toHaveText('1F')

  // Delete the top floor's model, after confirming.
  await page
    .locator(`[data-model-id="${topBox.id}"]`)
    .getByRole('button', { name: /^Delete / })
    .click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(items).toHaveCount(2, { timeout: 20_000 })
  await expect
    .poll(async () => (await buildingSnapshot(page)).models.map((model) => model.id).sort())
    .toEqual([building.shell.modelId, duck.id].sort())

  // A new user's start: common models dropped on the floor upload are converted and stacked.
  const textFile = sharedDataFile('README.md')
  await page.getByTestId('floor-file-input').setInputFiles(textFile)
  await expect(toastMessage(page, /README\.md cannot be used here/)).toBeVisible()
  await page
    .getByTestId('floor-file-input')
    .setInputFiles([sharedDataFile('gltf/Duck/Duck.glb'), sharedDataFile('fbx/box.fbx')])
  // ('converting…' shows while they convert, but a quiet machine may finish before a look)
  await expect(items.filter({ hasText: 'Duck' })).toHaveCount(1, { timeout: 45_000 })
  await expect(items.filter({ hasText: 'box' }).getByText('box', { exact: true })).toBeVisible()
  await expect(items.locator('[data-load-state="success"]')).toHaveCount(4, { timeout: 45_000 })
  // Each converted row shows its model's own thumbnail, not the generic icon, with pixels drawn.
  for (const name of ['Duck', 'box']) {
    const thumbnail = items.filter({ hasText: name }).locator('.ts-bim4-model__preview img')
    await expect(thumbnail).toBeVisible()
    await expect.poll(() => drawnPixelShare(thumbnail)).toBeGreaterThan(0.05)
  }
  // Stacked: each new floor one storey (3 m) above the highest (1F 0, 2F 3, Duck 6, box 9).
  await expect(page.getByRole('spinbutton', { name: 'Elevation of box' })).toHaveValue(/^9/)
  // Choosing a floor isolates it.
  await page.getByRole('radio', { name: 'box' }).click()
  await expect
    .poll(async () =>
      (await buildingSnapshot(page)).floors.filter((floor) => floor.isShown).map((f) => f.name),
    )
    .toEqual(['box'])

  // Issue 21: a glTF with an animation from the model library, placed in the building by a
  // click. The view is fixed first, looking down on the building, so the click meets a model or
  // the ground, never the sky. The model is drawn where the engine says it stands (the pixels
  // there change as its clip plays), and after a reload it is there and plays again.
  await page.getByRole('radio', { name: 'All floors' }).click()
  // a pick box left open (with the model's details) would stand over part of the view
  const pickInfo = page.getByTestId('pick-info')
  if (await pickInfo.isVisible()) await pickInfo.getByRole('button', { name: 'Close' }).click()
  await expect(pickInfo).toBeHidden()
  await page.getByRole('link', { name: 'Placed models' }).click()
  const library = await uploadAnimatedCube(page, 'building')
  await lookDownOnBuilding(page)
  await library.getByRole('button', { name: 'Place in the building' }).click()
  const placing = page.waitForResponse((answer) => answer.url().endsWith('/web/cityModel/update'))
  const stage = await canvas.boundingBox()
  if (!stage) throw new Error('the canvas has no box')
  // left of the middle: the finished upload list stays over the bottom right of the view
  await canvas.click({ position: { x: stage.width * 0.3, y: stage.height * 0.65 } })
  const placed = await placing
  expect(placed.ok()).toBe(true)
  const { datum: where } = (await placed.json()) as { datum: { x: number; y: number; z: number } }
  const placementForm = page.getByRole('form', { name: 'Placement of AnimatedMorphCube' })
  await expect(placementForm.getByText(/^Position x /)).toBeVisible()
  await placementForm.getByRole('spinbutton', { name: 'Scale' }).fill('2')
  await placementForm.getByRole('button', { name: 'Save' }).click()
  await expect(toastMessage(page, 'Saved.')).toBeVisible()
  await expect
    .poll(async () => (await buildingSnapshot(page)).libraryModels[0]?.position)
    .toEqual([where.x, where.y, where.z])

  const clockSeconds = async () =>
    (await buildingSnapshot(page)).libraryModels[0]?.animation.timeSeconds ?? 0
  await page.getByRole('link', { name: 'Model animation' }).click()
  const animationTab = page.getByTestId('building-model-animation')
  await expect(animationTab.getByRole('button', { name: 'Pause' })).toBeVisible({
    timeout: 30_000,
  })
  await expectAnimationChangesPixels(
    page,
    animationTab,
    await libraryModelOnPage(page),
    clockSeconds,
  )

  // Saved with the project: after a reload it stands in the same place and plays again.
  await page.reload()
  await waitForModelsSettled(page, 4)
  await expect
    .poll(async () => (await buildingSnapshot(page)).libraryModels[0]?.loadState, {
      timeout: 60_000,
      message: 'the model loaded again',
    })
    .toBe('success')
  expect((await buildingSnapshot(page)).libraryModels[0]?.position).toEqual([
    where.x,
    where.y,
    where.z,
  ])
  await openSpaceModule(page, 'Model')
  await page.getByRole('link', { name: 'Model animation' }).click()
  const animationTabAgain = page.getByTestId('building-model-animation')
  await expect(animationTabAgain.getByRole('button', { name: 'Pause' })).toBeVisible({
    timeout: 30_000,
  })
  await lookDownOnBuilding(page)
  await expectAnimationChangesPixels(
    page,
    animationTabAgain,
    await libraryModelOnPage(page),
    clockSeconds,
  )

  expect(pageErrors).toEqual([])
})
