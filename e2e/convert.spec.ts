import { readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { unzipSync } from 'fflate'
import { enableTestApi } from './support/accounts'
import { buildingIsDrawn, canvasIsNotBlank, sharedData } from './support/building'
import { createEditor, signInThroughPage, chooseEnglish } from './project-helpers'

/**
 * Model config → format conversion (SPEC §2, §5, §8): a DAE and an FBX convert on the server,
 * the page says 'model render prepared, format conversion succeeded' and renders the result; a
 * broken file shows the server's reason and offers no render.
 */

const successText = 'model render prepared, format conversion succeeded'

async function convertAndRender(page: Page, file: string) {
  await page.getByTestId('conversion-file-input').setInputFiles(file)
  await page.getByRole('button', { name: 'Convert', exact: true }).click()
  const result = page.getByTestId('conversion-result')
  await expect(result.getByText(successText)).toBeVisible({ timeout: 45_000 })
  await result.getByRole('button', { name: 'Render' }).click()
  const canvas = page.getByTestId('conversion-preview').getByTestId('building-canvas')
  await expect(canvas).toBeVisible()
  await expect
    .poll(
      () =>
        page.evaluate(
          () => window.__twinTest?.getEngineSnapshot().building.models[0]?.loadState ?? null,
        ),
      { timeout: 30_000 },
    )
    .toBe('success')
  await expect.poll(() => canvasIsNotBlank(canvas), { timeout: 20_000 }).toBe(true)
  await expect.poll(() => buildingIsDrawn(page), { timeout: 20_000 }).toBe(true)
}

test('DAE and FBX convert and render; a broken file shows the reason and no render', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await chooseEnglish(context, baseURL)
  await enableTestApi(page)
  const account = await createEditor(request)
  await signInThroughPage(page, account)
  await expect(page).toHaveURL(/#\/projectManage\/bim/)

  await page.goto('/#/modelConfig/conversion')
  await expect(page.getByRole('heading', { name: 'Format conversion' })).toBeVisible()

  await convertAndRender(page, sharedData('dae/duck.dae'))
  await convertAndRender(page, sharedData('fbx/box.fbx'))

  const broken = join(tmpdir(), `broken-${Date.now()}.fbx`)
  await writeFile(broken, 'this is not an FBX file, only text with the right extension\n')
  await page.getByTestId('conversion-file-input').setInputFiles(broken)
  await page.getByRole('button', { name: 'Convert', exact: true }).click()
  const failure = page.getByTestId('conversion-error')
  await expect(failure).toBeVisible({ timeout: 30_000 })
  await expect(failure.getByText('Conversion failed')).toBeVisible()
  // the server's own reason, not a generic text
  await expect(failure.locator('.ts-state__description')).not.toHaveText('')
  await expect(failure).not.toContainText('Something went wrong')
  await expect(page.getByRole('button', { name: 'Render' })).toHaveCount(0)
  await expect(page.getByTestId('conversion-result')).toHaveCount(0)
  await rm(broken, { force: true })
})

test('a batch of five models converts one by one and downloads as one ZIP', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000)
  await chooseEnglish(context, baseURL)
  const account = await createEditor(request)
  await signInThroughPage(page, account)
  await expect(page).toHaveURL(/#\/projectManage\/bim/)
  await page.goto('/#/modelConfig/conversion')
  const batch = page.getByTestId('batch-conversion')
  await expect(batch.getByRole('heading', { name: 'Batch conversion' })).toBeVisible()

  const broken = join(tmpdir(), `batch-broken-${Date.now()}.fbx`)
  await writeFile(broken, 'not an FBX file\n')
  await page
    .getByTestId('batch-file-input')
    .setInputFiles([
      sharedData('dae/duck.dae'),
      sharedData('dae/cube_triangulate.dae'),
      sharedData('fbx/box.fbx'),
      sharedData('fbx/phong_cube.fbx'),
      sharedData('gltf/Duck/Duck.glb'),
      broken,
    ])
  const rows = batch.getByTestId('batch-row')
  await expect(rows).toHaveCount(6)
  await expect(batch.getByTestId('batch-count')).toHaveText('Processed 6 of 6', {
    timeout: 150_000,
  })
  await expect(batch.locator('[data-testid="batch-row"][data-state="succeeded"]')).toHaveCount(5)
  // the broken file fails alone, with the server's reason, and can be tried again
  const failed = batch.locator('[data-testid="batch-row"][data-state="failed"]')
  await expect(failed).toHaveCount(1)
  await expect(failed.getByRole('alert')).not.toHaveText('')
  await batch.getByTestId('batch-retry-all').click()
  await expect(failed).toHaveCount(1, { timeout: 30_000 })

  const downloading = page.waitForEvent('download')
  await batch.getByTestId('batch-download-all').click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe('converted-models.zip')
  const zip = unzipSync(new Uint8Array(await readFile(await download.path())))
  expect(Object.keys(zip).sort()).toEqual(
    ['Duck (2).sbm', 'box.sbm', 'cube_triangulate.sbm', 'duck.sbm', 'phong_cube.sbm'].sort(),
  )
  await rm(broken, { force: true })
})
