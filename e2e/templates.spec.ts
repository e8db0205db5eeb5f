import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { expect, type Locator, type Page, test } from '@playwright/test'
import ExcelJS from 'exceljs'
import { zipSync } from 'fflate'
import { e2eAdmin, setLanguageCookie, startSignedIn } from './support/accounts'
import { createBuildingProject, enterBuildingProject } from './support/building'
import { createCityProject, enterCityProject } from './support/city'

/**
 * The template library as a new user meets it (issue 15 acceptance): a category tree, a 2D
 * template with icon, static attributes and labels, a 3D template from a zip holding a glTF model
 * whose preview shows the model, a multi-level template, the batch-POI file of a template with
 * its columns, and every tab rule of SPEC §4 — checked in what the page shows, on the production
 * build and the real server.
 */

const duckFolder = resolve(import.meta.dirname, '../../shared/data/gltf/Duck')
const screensFolder = '/work/screens'

/** A zip holding the Duck glTF with its buffer and texture (a 3D template's model). */
async function duckZip(): Promise<Buffer> {
  const files: Record<string, Uint8Array> = {}
  for (const name of ['Duck.gltf', 'Duck0.bin', 'DuckCM.png'])
    files[`duck/${name}`] = new Uint8Array(await readFile(resolve(duckFolder, name)))
  return Buffer.from(zipSync(files))
}

/** A small PNG icon: a solid square drawn by the page's own canvas. */
async function iconPng(page: Page, colour: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((fill) => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 64
    const context = canvas.getContext('2d')!
    context.fillStyle = fill
    context.fillRect(8, 8, 48, 48)
    return canvas.toDataURL('image/png')
  }, colour)
  return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64')
}

/**
 * The share of an image's pixels that are the model: the server renders it light on a dark or
 * clear background, so a blank or failed preview has (almost) none.
 */
async function modelShare(image: Locator): Promise<number> {
  await expect(image).toBeVisible()
  await expect
    .poll(() => image.evaluate((node: HTMLImageElement) => node.naturalWidth))
    .toBeGreaterThan(0)
  return image.evaluate((node: HTMLImageElement) => {
    const canvas = document.createElement('canvas')
    canvas.width = node.naturalWidth
    canvas.height = node.naturalHeight
    const context = canvas.getContext('2d')!
    context.drawImage(node, 0, 0)
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height)
    let lit = 0
    for (let index = 0; index < data.length; index += 4) {
      const [r = 0, g = 0, b = 0, a = 0] = data.subarray(index, index + 4)
      if (a > 128 && (r + g + b) / 3 > 110) lit++
    }
    return lit / Math.max(1, data.length / 4)
  })
}

const toasts = (page: Page) => page.locator('.ts-toast')

async function choose(page: Page, scope: Locator, label: string | RegExp, option: string) {
  await scope.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

test('templates: a category tree, 2D, 3D and multi-level templates, the batch file and the tab rules', async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000)
  await setLanguageCookie(context, baseURL, 'en')
  await startSignedIn(page, request, e2eAdmin.name, e2eAdmin.password)
  await page.goto('/#/templateManage/bim')
  await expect(page.getByRole('heading', { name: 'Template list' })).toBeVisible()
  const list = page.getByTestId('template-list')
  // a new user sees the seeded library at once
  await expect(list.getByTestId('template-row').first()).toBeVisible()

  // ---- a category tree: 2D › E2E cameras › E2E domes
  await list.getByRole('button', { name: 'Category manager' }).click()
  const manager = page.getByRole('dialog', { name: 'Category manager' })
  const tree = manager.getByRole('tree', { name: 'Categories' })
  await tree.getByRole('treeitem', { name: '2D', exact: true }).click()
  await manager.getByRole('button', { name: 'Add sub-category' }).click()
  let create = page.getByRole('dialog', { name: 'Create POI category' })
  await create.getByRole('button', { name: 'Save' }).click()
  await expect(create.getByText('Please fill in the category name.')).toBeVisible()
  await create.getByLabel('Category name').fill('E2E cameras')
  await create.getByLabel('Category name').press('Enter')
  await expect(toasts(page).filter({ hasText: 'Category added.' })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: 'E2E cameras' })).toBeVisible()
  await tree.getByRole('treeitem', { name: 'E2E cameras' }).click()
  await manager.getByRole('button', { name: 'Add sub-category' }).click()
  create = page.getByRole('dialog', { name: 'Create POI category' })
  await create.getByLabel('Category name').fill('E2E domes')
  await create.getByRole('button', { name: 'Save' }).click()
  await expect(tree.getByRole('treeitem', { name: 'E2E domes' })).toBeVisible()
  await manager.getByRole('button', { name: 'Close' }).click()
  await expect(manager).toBeHidden()

  // ---- a 2D template; SPEC §4: a new template stays on basic until its first save
  await list.getByRole('button', { name: 'New template', exact: true }).click()
  let popup = page.getByRole('dialog', { name: 'New template' })
  const tab = (name: string) => popup.getByRole('tab', { name })
  await expect(tab('Basic')).toHaveAttribute('aria-selected', 'true')
  for (const name of ['Static attributes', 'Model labels', 'Events'])
    await expect(tab(name)).toBeDisabled()
  await tab('Basic').focus()
  await page.keyboard.press('ArrowRight')
  await expect(tab('Basic')).toHaveAttribute('aria-selected', 'true')
  await popup.getByRole('button', { name: 'Save' }).click()
  await expect(
    toasts(page).filter({ hasText: 'Please fill in the basic attributes.' }),
  ).toBeVisible()

  const cameraCode = `E2E-CAM-${Date.now()}`
  await popup.getByTestId('template-name').fill('E2E dome camera')
  await popup.getByTestId('template-code').fill(cameraCode)
  await choose(page, popup, 'Category level 1', '2D')
  await choose(page, popup, 'Category level 2', 'E2E cameras')
  await choose(page, popup, 'Category level 3', 'E2E domes')
  await expect(popup.getByTestId('template-type')).toHaveText('2D')
  await popup
    .getByTestId('template-icon')
    .locator('input[type="file"]')
    .setInputFiles({
      name: 'dome.png',
      mimeType: 'image/png',
      buffer: await iconPng(page, '#1e88e5'),
    })
  await expect(popup.getByText('Icon uploaded.')).toBeVisible()
  await popup.getByRole('button', { name: 'Save' }).click()
  await expect(toasts(page).filter({ hasText: 'Added successfully.' })).toBeVisible()
  // the returned id unlocks the tabs and the popup moves on to the labels
  popup = page.getByRole('dialog', { name: 'New template' })
  await expect(tab('Model labels')).toHaveAttribute('aria-selected', 'true')
  await expect(tab('Static attributes')).toBeEnabled()
  await popup.getByTestId('label-key').fill('outdoor')
  await popup.getByTestId('label-key').press('Enter')
  await expect(popup.getByTestId('label-current').getByText('outdoor')).toBeVisible()

  await tab('Static attributes').click()
  await popup.getByTestId('attribute-column').fill('brand name')
  await popup.getByTestId('attribute-des').fill('Brand')
  await popup.getByTestId('attribute-example').fill('Acme')
  await popup.getByRole('button', { name: 'Add attribute' }).click()
  await expect(
    toasts(page).filter({
      hasText: 'The English name may hold only letters, digits and underscores.',
    }),
  ).toBeVisible()
  await popup.getByTestId('attribute-column').fill('brand')
  await popup.getByRole('button', { name: 'Add attribute' }).click()
  await expect(toasts(page).filter({ hasText: 'Static attribute added.' })).toBeVisible()
  await expect(popup.getByTestId('attribute-table').getByText('Acme')).toBeVisible()

  await tab('Events').click()
  await popup.getByRole('checkbox', { name: 'Alarm' }).check()
  await popup.getByRole('button', { name: 'Save' }).click()
  await expect(toasts(page).filter({ hasText: 'Modified successfully.' }).first()).toBeVisible()
  await popup.getByRole('button', { name: 'Close' }).click()
  await list.getByTestId('template-search').fill(cameraCode)
  await list.getByRole('button', { name: 'Search', exact: true }).click()
  const cameraRow = list.getByTestId('template-row').filter({ hasText: 'E2E dome camera' })
  await expect(cameraRow).toBeVisible()
  await expect(cameraRow).toContainText('2D')
  await expect(cameraRow).toContainText(cameraCode)

  // ---- a 3D template from a zip holding a glTF model; choosing 3D clears the icon
  await list.getByRole('button', { name: 'New template', exact: true }).click()
  popup = page.getByRole('dialog', { name: 'New template' })
  await choose(page, popup, 'Category level 1', '2D')
  await popup
    .getByTestId('template-icon')
    .locator('input[type="file"]')
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: await iconPng(page, '#e53935') })
  await expect(popup.getByText('Icon uploaded.')).toBeVisible()
  await choose(page, popup, 'Category level 1', '3D')
  await expect(popup.getByTestId('template-type')).toHaveText('3D')
  await expect(popup.getByTestId('template-icon')).toHaveCount(0)
  const zipInput = popup.getByTestId('template-zip-input')
  await zipInput.setInputFiles({
    name: 'duck.glb',
    mimeType: 'model/gltf-binary',
    buffer: Buffer.from('glb'),
  })
  await expect(toasts(page).filter({ hasText: 'Only zip can be uploaded.' })).toBeVisible()
  await zipInput.setInputFiles({
    name: 'duck.zip',
    mimeType: 'application/zip',
    buffer: await duckZip(),
  })
  await expect(
    toasts(page).filter({ hasText: 'Model render prepared, format conversion succeeded.' }),
  ).toBeVisible({ timeout: 60_000 })
  const preview = popup.getByTestId('template-model-preview')
  const share = await modelShare(preview)
  expect(share).toBeGreaterThan(0.05)
  expect(share).toBeLessThan(0.9)
  await popup.getByTestId('template-name').fill('E2E duck')
  await popup.getByTestId('template-code').fill(`E2E-DUCK-${Date.now()}`)
  await popup.getByRole('button', { name: 'Save' }).click()
  await expect(tab('Model labels')).toHaveAttribute('aria-selected', 'true')
  await popup.getByRole('button', { name: 'Close' }).click()

  // ---- a multi-level template
  await list.getByRole('button', { name: 'New multi-level template' }).click()
  popup = page.getByRole('dialog', { name: 'New template' })
  await expect(popup.getByTestId('template-kind')).toContainText('Multi-level template')
  await popup.getByTestId('template-name').fill('E2E building')
  await popup.getByTestId('template-code').fill(`E2E-BLD-${Date.now()}`)
  await choose(page, popup, 'Category level 1', '2D')
  await choose(page, popup, 'Category level 2', 'E2E cameras')
  await popup.getByLabel('Level 1', { exact: true }).fill('Floor')
  await popup.getByRole('button', { name: 'Add level' }).click()
  await popup.getByLabel('Level 2', { exact: true }).fill('Room')
  await popup.getByRole('button', { name: 'Save' }).click()
  await expect(tab('Model labels')).toHaveAttribute('aria-selected', 'true')
  await popup.getByRole('button', { name: 'Close' }).click()

  // ---- the batch-POI file of the 2D template, with its columns
  await list.getByRole('button', { name: 'POI template file' }).click()
  const batch = page.getByRole('dialog', { name: 'Upload a POI template file' })
  await batch.getByRole('button', { name: 'Download the batch file' }).click()
  await expect(toasts(page).filter({ hasText: 'Select the POI category' })).toBeVisible()
  await batch.getByRole('combobox', { name: 'POI category' }).click()
  await page.getByRole('option', { name: new RegExp(cameraCode) }).click()
  const downloadEvent = page.waitForEvent('download')
  await batch.getByRole('button', { name: 'Download the batch file' }).click()
  const download = await downloadEvent
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.readFile(await download.path())
  const sheet = workbook.worksheets[0]!
  const header = (sheet.getRow(1).values as unknown[]).filter(Boolean).map(String)
  expect(header).toContain('name')
  expect(header).toContain('brand')
  expect(workbook.worksheets).toHaveLength(2)

  // a filled file with a bad row (text where numbers belong): each bad cell is listed by row and
  // column, nothing is kept
  sheet.getRow(2).values = header.map((_, index) => (index === 0 ? 'Dome 1' : 'not a number'))
  sheet.getRow(2).commit()
  const filled = Buffer.from(await workbook.xlsx.writeBuffer())
  await batch.getByTestId('batch-file-input').setInputFiles({
    name: 'filled.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: filled,
  })
  const result = batch.getByTestId('batch-file-result')
  await expect(result).toBeVisible()
  await expect(result.getByRole('columnheader', { name: 'Row' })).toBeVisible()
  await expect(result.getByRole('cell', { name: '2', exact: true }).first()).toBeVisible()
  await page.keyboard.press('Escape')
})

test("the template manager in ko, zh and en, and the editors' Template module", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const { token } = await startSignedIn(page, request, e2eAdmin.name, e2eAdmin.password)
  const texts = {
    ko: { title: '템플릿 목록', edit: '편집', tabs: ['기본', '정적 속성', '모델 라벨', '이벤트'] },
    zh: { title: '模板列表', edit: '编辑', tabs: ['基本', '静态属性', '模型标签', '事件'] },
    en: {
      title: 'Template list',
      edit: 'Edit',
      tabs: ['Basic', 'Static attributes', 'Model labels', 'Events'],
    },
  } as const
  for (const language of ['ko', 'zh', 'en'] as const) {
    await setLanguageCookie(context, baseURL, language)
    await page.goto('/#/templateManage/bim')
    await page.reload()
    const text = texts[language]
    await expect(page.getByRole('heading', { name: text.title })).toBeVisible()
    // a seeded library template, filled in: an admin may edit it in place
    await page
      .getByTestId('template-row')
      .first()
      .getByRole('button', { name: text.edit })
      .first()
      .click()
    const popup = page.getByRole('dialog')
    for (const name of text.tabs) await expect(popup.getByRole('tab', { name })).toBeEnabled()
    await expect(popup.getByTestId('template-name')).not.toHaveValue('')
    await popup.screenshot({ path: `${screensFolder}/templates-${language}.png` })
    await page.keyboard.press('Escape')
  }

  // the Template module of both editors lists the same library, and its popup opens there
  await setLanguageCookie(context, baseURL, 'en')
  const cityName = `Templates city ${Date.now()}`
  const buildingName = `Templates building ${Date.now()}`
  await createCityProject(request, token, cityName)
  await createBuildingProject(request, token, buildingName)
  for (const [enter, name, path, shot] of [
    [enterCityProject, cityName, '/home/template/list', 'city'],
    [enterBuildingProject, buildingName, '/bim4/template', 'building'],
  ] as const) {
    await enter(page, name)
    await page.goto(`/#${path}`)
    const module = page.getByTestId('template-list')
    await expect(module.getByTestId('template-row').first()).toBeVisible()
    await module.getByRole('button', { name: 'New template', exact: true }).click()
    await expect(page.getByRole('dialog', { name: 'New template' })).toBeVisible()
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
    await page
      .locator('.ts-side-panel')
      .first()
      .screenshot({ path: `${screensFolder}/templates-editor-${shot}.png` })
  }
})
