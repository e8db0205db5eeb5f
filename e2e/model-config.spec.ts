import { readFile } from 'node:fs/promises'
import { expect, type Locator, test } from '@playwright/test'
import { enableTestApi } from './support/accounts'
import {
  buildingIsDrawn,
  buildingSnapshot,
  createBuildingProject,
  sharedData,
  waitForModelsSettled,
} from './support/building'
import {
  createEditor,
  postApi,
  signInThroughPage,
  chooseEnglish,
  toastMessage,
} from './project-helpers'
import { decodePng } from './support/png-pixels'

/** Canvas pixels clearly of one colour (the test material), as a person sees the canvas. */
async function pixelCount(canvas: Locator, colour: 'green' | 'red' = 'green'): Promise<number> {
  const { data } = decodePng(await canvas.screenshot())
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const [red, green, blue] = [data[index] ?? 0, data[index + 1] ?? 0, data[index + 2] ?? 0]
    const [main, other] = colour === 'green' ? [green, red] : [red, green]
    if (main > other + 60 && main > blue + 60) count++
  }
  return count
}

const greenPixelCount = (canvas: Locator) => pixelCount(canvas, 'green')

/**
 * Model config → structure merge (SPEC §2 `/modelConfig/merge`, §5), as a new user does it:
 * the form names every missing input, the sample parts of ../shared/data merge with a moving
 * progress bar and a list of steps, and the result opens in the building editor, drawn. Then
 * (issue 21 item 4) a library material is assigned to a mesh picked in that building: the mesh
 * turns green on screen, and stays green after a reload; its edit form turns it red at once.
 * Last, structure add (`/modelConfig/add`): a third floor, shown in the result before saving,
 * then opened in the editor with the others.
 */

test('a user merges a building from its parts and opens it in the building editor', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000)
  await chooseEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const projectName = `Merged tower ${Date.now()}`
  await createBuildingProject(request, signedIn.datum.token, projectName)
  await signInThroughPage(page, account)
  await expect(page).toHaveURL(/#\/projectManage\/bim/)

  await page.goto('/#/modelConfig/merge')
  await expect(page.getByRole('heading', { name: 'Structure merge' })).toBeVisible()

  // Nothing chosen: every missing input is named beside its field
  await page.getByTestId('merge-start').click()
  for (const text of [
    'Add the shell model.',
    'Add the shell maps.',
    'Add the floor models.',
    'Add the floor maps.',
    'Add a preview image.',
    'Enter an output file name.',
  ]) {
    await expect(page.getByRole('alert').filter({ hasText: text }).first()).toBeVisible()
  }

  const png = await readFile(sharedData('gltf/Duck/DuckCM.png'))
  await page.getByTestId('merge-input-shell').setInputFiles(sharedData('dae/duck.dae'))
  await page.getByTestId('merge-input-shell_maps').setInputFiles(sharedData('dae/duckCM.tga'))
  // given top floor first: the merge stacks them by name
  await page.getByTestId('merge-input-floors').setInputFiles([
    {
      name: '2F.fbx',
      mimeType: 'application/octet-stream',
      buffer: await readFile(sharedData('fbx/phong_cube.fbx')),
    },
    {
      name: '1F.fbx',
      mimeType: 'application/octet-stream',
      buffer: await readFile(sharedData('fbx/box.fbx')),
    },
  ])
  await page
    .getByTestId('merge-input-floor_maps')
    .setInputFiles([{ name: 'wall.png', mimeType: 'image/png', buffer: png }])
  await page
    .getByTestId('merge-input-preview')
    .setInputFiles([{ name: 'preview.png', mimeType: 'image/png', buffer: png }])
  await page.getByRole('textbox', { name: 'Output file name' }).fill('Tower A')
  await page.getByRole('combobox', { name: 'Install the result into a building project' }).click()
  await page.getByRole('option', { name: projectName }).click()
  await page.getByTestId('merge-start').click()

  // the progress bar and the steps, then the result
  const progress = page.getByTestId('merge-progress').or(page.getByTestId('merge-result'))
  await expect(progress.first()).toBeVisible({ timeout: 30_000 })
  const result = page.getByTestId('merge-result')
  await expect(result).toBeVisible({ timeout: 150_000 })
  await expect(result.getByText('The structure was merged: a shell and 2 floors')).toBeVisible()
  await expect(result.getByText('1F — 0 m')).toBeVisible()
  await expect(result.getByText('2F — 3 m')).toBeVisible()
  await expect(page.getByTestId('merge-warnings')).toContainText(
    'No model refers to the map wall.png; the merge went on without it.',
  )
  await expect(result.getByRole('link', { name: 'Download the structure (ZIP)' })).toHaveAttribute(
    'href',
    /^\/web\/modelConfig\/files\/.+\.zip$/,
  )

  // the building editor opens the installed structure as it is, and draws it
  await result.getByRole('button', { name: 'Open in the building editor' }).click()
  await expect(page).toHaveURL(/#\/bim4\/poi/)
  const states = await waitForModelsSettled(page, 3)
  expect(Object.values(states)).toEqual(['success', 'success', 'success'])
  const building = await buildingSnapshot(page)
  expect(building.floors.map((floor) => floor.name)).toEqual(['1F', '2F'])
  expect(building.shell.modelId).not.toBeNull()
  await expect.poll(() => buildingIsDrawn(page), { timeout: 30_000 }).toBe(true)

  // Model → Materials: pick the building, make a green material, assign it to the picked mesh
  await page.goto('/#/bim4/model/materials')
  const panel = page.getByTestId('materials-panel')
  await expect(panel).toBeVisible()
  const canvas = page.getByTestId('building-canvas')
  await expect.poll(() => buildingIsDrawn(page), { timeout: 30_000 }).toBe(true)
  const greenBefore = await greenPixelCount(canvas)
  const box = await canvas.boundingBox()
  if (!box) throw new Error('the canvas has no box')
  await canvas.click({ position: { x: box.width / 2, y: box.height / 2 } })
  await expect(panel.getByTestId('materials-picked')).toBeVisible({ timeout: 30_000 })
  const meshName = (await panel.getByTestId('materials-picked').textContent()) ?? ''
  await panel.getByRole('textbox', { name: 'Name' }).fill('Green paint')
  await panel.getByLabel('Base colour', { exact: true }).fill('#00ff00')
  await panel.getByRole('button', { name: 'Add material' }).click()
  await expect(toastMessage(page, 'Material saved.')).toBeVisible()
  await panel.getByRole('button', { name: 'Assign to picked mesh' }).click()
  await expect(panel.getByTestId('materials-assignments')).toContainText(
    `${meshName} — Green paint`,
  )
  // seen on screen: far more green than before
  await expect
    .poll(() => greenPixelCount(canvas), { timeout: 30_000 })
    .toBeGreaterThan(greenBefore + 500)

  // after a reload the assignment is loaded with the building and drawn again
  await page.reload()
  await waitForModelsSettled(page, 3)
  // a reload lands on /bim4/poi (SPEC §2 navigation guard): the overrides are drawn in every
  // module, the list is in Model → Materials
  await expect
    .poll(() => greenPixelCount(page.getByTestId('building-canvas')), { timeout: 30_000 })
    .toBeGreaterThan(greenBefore + 500)
  await page
    .getByRole('navigation', { name: 'Space project' })
    .getByRole('link', { name: 'Model' })
    .click()
  await page.getByRole('link', { name: 'Materials' }).click()
  await expect(page.getByTestId('materials-assignments')).toContainText(`${meshName} — Green paint`)

  // the material's edit form: the same material turns red on screen, at once
  const buildingCanvas = page.getByTestId('building-canvas')
  const redBefore = await pixelCount(buildingCanvas, 'red')
  await page.getByRole('button', { name: 'Edit Green paint' }).click()
  const form = page.getByTestId('materials-form')
  await expect(form.getByText('Edit material: Green paint')).toBeVisible()
  await form.getByLabel('Base colour', { exact: true }).fill('#ff0000')
  await form.getByRole('button', { name: 'Save changes' }).click()
  await expect
    .poll(() => pixelCount(buildingCanvas, 'red'), { timeout: 30_000 })
    .toBeGreaterThan(redBefore + 500)

  // Model config → structure add: a third floor, seen in the result before it is saved
  await page.goto('/#/modelConfig/add')
  await expect(page.getByRole('heading', { name: 'Structure add' })).toBeVisible()
  await page.getByRole('combobox', { name: 'Building project' }).click()
  await page.getByRole('option', { name: projectName }).click()
  const planned = page.getByTestId('add-preview')
  await expect(planned).toContainText('Result before saving: Tower A')
  await page.getByTestId('merge-input-floors').setInputFiles([
    {
      name: '3F.dae',
      mimeType: 'application/octet-stream',
      buffer: await readFile(sharedData('dae/cube_triangulate.dae')),
    },
  ])
  const newFloor = planned.locator('tr[data-change="added"]')
  await expect(newFloor).toContainText('3F.sbm (from 3F.dae)')
  await expect(newFloor).toContainText('New')
  await page.getByTestId('add-save').click()
  const added = page.getByTestId('add-result')
  await expect(added).toBeVisible({ timeout: 150_000 })
  await expect(added.getByText('Saved: 1 floors added, 0 replaced.')).toBeVisible()
  await page.getByTestId('add-open-project').click()
  await expect(page).toHaveURL(/#\/bim4\/poi/)
  await waitForModelsSettled(page, 4)
  expect((await buildingSnapshot(page)).floors.map((floor) => floor.name)).toEqual([
    '1F',
    '2F',
    '3F',
  ])
})
