import { expect, type Locator, type Page, test } from '@playwright/test'
import type { RegionOption } from '../contract/region'
import { offlineMapColors } from '../src/components/map-picker/offline-style'
import {
  blockRemoteRequests,
  canvasColours,
  chooseRegions,
  createEditor,
  postApi,
  sharedDataFile,
  signInThroughPage,
  chooseEnglish,
  toastMessage,
} from './project-helpers'
import { setLanguageCookie } from './support/accounts'
import { keepScreenshot } from './support/screens'

/**
 * Issue 4 as a new user meets it, in Chromium against the production build and the real server,
 * with every request that would leave the machine refused: create a city and a building project
 * (cover, map address, region), see them in the right lists, view, edit, copy and delete them,
 * and see the map picker draw.
 */

const cityCover = sharedDataFile('gltf/Duck/DuckCM.png')
const buildingCover = sharedDataFile('gltf/BoxTextured/separate/CesiumLogoFlat.png')

/** A toast by its exact text (Radix also announces it in a live region, prefixed). */
function _toast(page: Page, text: string): Locator {
  return page.getByText(text, { exact: true })
}

function list(page: Page, kind: 'city' | 'building'): Locator {
  return page.getByTestId(`project-list-${kind}`)
}

function cardsOf(page: Page, kind: 'city' | 'building'): Locator {
  return list(page, kind).getByTestId('project-card')
}

async function expectTotal(page: Page, kind: 'city' | 'building', total: number) {
  await expect(page.getByTestId(`project-count-${kind}`)).toHaveText(`Total: ${total}`)
  await expect(cardsOf(page, kind)).toHaveCount(total)
}

/** Waits until the picker's map has drawn the offline basemap: water, land and much more. */
async function expectMapDrawn(page: Page) {
  const canvas = page.getByTestId('map-picker-map').locator('canvas.maplibregl-canvas')
  await expect(canvas).toBeVisible()
  const water = offlineMapColors.water
  const land = offlineMapColors.land
  // The GeoJSON sources load and tessellate in MapLibre's worker, so poll. A blank or
  // one-colour canvas fails: borders, place dots and labels add many more colours.
  await expect
    .poll(
      async () => {
        const seen = await canvasColours(canvas, [water, land])
        return {
          hasWater: (seen.shareOf[water] ?? 0) > 0.05,
          hasLand: (seen.shareOf[land] ?? 0) > 0.05,
          hasManyColours: seen.distinctColours > 20,
          isNotOneColour: seen.dominantShare < 0.9,
        }
      },
      { timeout: 20_000, message: 'the offline basemap drawn on the picker map' },
    )
    .toEqual({ hasWater: true, hasLand: true, hasManyColours: true, isNotOneColour: true })
  return canvas
}

test.describe('projects', () => {
  // ~60 s on a quiet machine; SwiftShader shares two cores with everything else running
  test.setTimeout(120_000)
  // the map picker opens over the browser locale's region (locale-region.ts): China here
  test.use({ locale: 'zh-CN' })

  test('a new user creates, lists, views, edits, copies and deletes projects offline', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const attemptedRemote = await blockRemoteRequests(context)
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await chooseEnglish(context, baseURL)
    const account = await createEditor(request)

    await signInThroughPage(page, account)
    await expect(page.getByRole('heading', { name: 'Project list' })).toBeVisible()
    await expectTotal(page, 'city', 0)
    await expectTotal(page, 'building', 0)

    // --- a city project: the address from the search box, the region down to a street
    await page.getByTestId('project-create-city').click()
    let form = page.getByRole('dialog', { name: 'Create project' })
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(toastMessage(page, 'Please fill out the form.')).toBeVisible()

    await form.getByTestId('project-form-name').fill('Wuhan riverside')
    await form.locator('input[type="file"]').setInputFiles(cityCover)
    await expect(form.getByRole('img', { name: 'Preview' })).toBeVisible()
    await form.getByLabel(/^Description/).fill('Offices along the Yangtze.')
    await chooseRegions(form, ['湖北省', '武汉市', '江岸区', '大智街道'])

    await form.getByTestId('project-form-pick').click()
    const picker = page.getByRole('dialog', { name: 'Pick an address on the map' })
    const ok = picker.getByRole('button', { name: 'OK', exact: true })
    await expect(ok).toBeDisabled()
    await expect(
      picker.getByText('Select an address: search for a place or click on the map.'),
    ).toBeVisible()
    await expectMapDrawn(page)
    await picker.getByTestId('map-picker-search').fill('Wuhan')
    await picker
      .getByRole('button', { name: /^Wuhan/ })
      .first()
      .click()
    await expect(picker.getByTestId('map-picker-address')).toContainText('Wuhan')
    await ok.click()
    await expect(picker).toBeHidden()
    await expect(form.getByTestId('project-form-address')).toHaveValue(/Wuhan/)
    await expect(form.getByText(/^Location: 30\.\d+, 114\.\d+$/)).toBeVisible()

    await form.getByRole('button', { name: 'Save' }).click()
    await expect(toastMessage(page, 'Added successfully.')).toBeVisible()
    await expect(form).toBeHidden()
    await expectTotal(page, 'city', 1)
    await expectTotal(page, 'building', 0)

    // --- a building project: the address from a click on the map
    await page.getByTestId('project-create-building').click()
    form = page.getByRole('dialog', { name: 'Create project' })
    await form.getByTestId('project-form-name').fill('Pudong tower')
    await form.locator('input[type="file"]').setInputFiles(buildingCover)
    await form.getByLabel(/^Description/).fill('Forty floors of offices.')
    await chooseRegions(form, ['上海市', '市辖区'])
    await form.getByTestId('project-form-address').fill('Pudong')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(toastMessage(page, 'Please select an address on the map first.')).toBeVisible()

    await form.getByTestId('project-form-pick').click()
    const canvas = await expectMapDrawn(page)
    // a zh-CN browser's picker opens over China: its centre is on land
    await canvas.click()
    await expect(picker.getByTestId('map-picker-address')).toContainText('China')
    await expect(ok).toBeEnabled()
    await ok.click()
    await expect(form.getByTestId('project-form-address')).toHaveValue(/China/)
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(toastMessage(page, 'Added successfully.')).toBeVisible()
    await expectTotal(page, 'city', 1)
    await expectTotal(page, 'building', 1)
    await expect(cardsOf(page, 'building')).toContainText('Pudong tower')
    await expect(cardsOf(page, 'city')).toContainText('Wuhan riverside')

    // --- the info viewer
    await page.getByRole('button', { name: 'Info of Wuhan riverside' }).click()
    const info = page.getByRole('dialog', { name: 'Project info' })
    const cityId = await cardsOf(page, 'city').first().getAttribute('data-project-id')
    await expect(info.getByTestId('project-info')).toContainText(cityId ?? 'no id')
    await expect(info).toContainText('湖北省 / 武汉市 / 江岸区 / 大智街道')
    await expect(info).toContainText('Offices along the Yangtze.')
    const cover = info.getByRole('img', { name: 'Wuhan riverside' })
    await expect
      .poll(() => cover.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0)
    await page.keyboard.press('Escape')
    await expect(info).toBeHidden()

    // --- edit: the form opens filled, in edit mode
    await page.getByRole('button', { name: 'Edit Wuhan riverside' }).click()
    form = page.getByRole('dialog', { name: 'Edit project' })
    await expect(form.getByTestId('project-form-name')).toHaveValue('Wuhan riverside')
    await expect(form.getByRole('combobox', { name: 'Street', exact: true })).toContainText(
      '大智街道',
    )
    await form.getByTestId('project-form-name').fill('Wuhan riverside offices')
    await form.getByRole('button', { name: 'Modify' }).click()
    await expect(toastMessage(page, 'Modified successfully.')).toBeVisible()
    await expect(cardsOf(page, 'city')).toContainText('Wuhan riverside offices')
    await expectTotal(page, 'city', 1)

    // --- copy: asks first (Cancel changes nothing), the copy named "<name> (copy)"
    const copyButton = page.getByRole('button', { name: 'Copy Wuhan riverside offices' })
    await copyButton.click()
    const copyDialog = page.getByRole('alertdialog', { name: 'Copy project' })
    await expect(copyDialog).toContainText(
      'Make a copy of “Wuhan riverside offices”? The copy will be named “Wuhan riverside offices (copy)”.',
    )
    await keepScreenshot(copyDialog, 'shell-copy-dialog-en')
    await expect(copyDialog.getByRole('button', { name: 'Copy', exact: true })).toBeFocused()
    // Escape changes nothing (even with a toast shown after the dialog opened: the dialog, not
    // the newest layer, owns the keys while focus is in it)
    await page.keyboard.press('Escape')
    await expect(copyDialog).toBeHidden()
    await expectTotal(page, 'city', 1)
    await copyButton.click()
    await expect(copyDialog.getByRole('button', { name: 'Copy', exact: true })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(toastMessage(page, 'Copied as “Wuhan riverside offices (copy)”.')).toBeVisible()
    await expectTotal(page, 'city', 2)
    await expectTotal(page, 'building', 1)
    const copyCard = list(page, 'city').locator(
      `[data-testid="project-card"]:not([data-project-id="${cityId}"])`,
    )
    await expect(copyCard).toHaveCount(1)
    await expect(copyCard.getByRole('heading')).toHaveText('Wuhan riverside offices (copy)')
    const copyId = await copyCard.getAttribute('data-project-id')

    // --- delete, asking first: Cancel keeps the copy, Delete removes it
    await copyCard.getByRole('button', { name: /^Delete / }).click()
    const confirmation = page.getByRole('alertdialog')
    await expect(confirmation).toContainText('This cannot be undone.')
    await confirmation.getByRole('button', { name: 'Cancel' }).click()
    await expectTotal(page, 'city', 2)
    await copyCard.getByRole('button', { name: /^Delete / }).click()
    await confirmation.getByRole('button', { name: 'Delete' }).click()
    await expect(toastMessage(page, 'Deleted.')).toBeVisible()
    await expectTotal(page, 'city', 1)
    await expect(cardsOf(page, 'city')).toHaveAttribute('data-project-id', cityId ?? '')
    expect(copyId).not.toBe(cityId)

    // the lists survive a reload: they are the server's, not the page's memory
    await page.reload()
    await expectTotal(page, 'city', 1)
    await expectTotal(page, 'building', 1)

    // --- the copy's name and the question in Korean and Chinese
    await setLanguageCookie(context, baseURL, 'ko')
    await page.reload()
    await page.getByRole('button', { name: 'Wuhan riverside offices 복사' }).click()
    const koDialog = page.getByRole('alertdialog', { name: '프로젝트 복사' })
    await expect(koDialog).toContainText('“Wuhan riverside offices (사본)”')
    await keepScreenshot(koDialog, 'shell-copy-dialog-ko')
    await koDialog.getByRole('button', { name: '취소' }).click()
    await expect(koDialog).toBeHidden()
    await setLanguageCookie(context, baseURL, 'zh')
    await page.reload()
    await page.getByRole('button', { name: '复制 Wuhan riverside offices' }).click()
    const zhDialog = page.getByRole('alertdialog', { name: '复制项目' })
    await expect(zhDialog).toContainText('“Wuhan riverside offices (副本)”')
    await keepScreenshot(zhDialog, 'shell-copy-dialog-zh')
    await expect(zhDialog.getByRole('button', { name: '复制', exact: true })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(cardsOf(page, 'city')).toHaveCount(2)
    await expect(
      cardsOf(page, 'city').getByRole('heading', { name: 'Wuhan riverside offices (副本)' }),
    ).toBeVisible()

    expect(attemptedRemote).toEqual([])
    expect(pageErrors).toEqual([])
  })

  test('findAreaJson walks from the root to a street in four calls', async ({ request }) => {
    const walk: RegionOption[] = []
    let code = '0'
    for (const name of ['广东省', '深圳市', '南山区']) {
      const answer = await postApi<RegionOption[]>(request, 'publicselect/findAreaJson', {
        codeid: code,
      })
      const region = answer.datum.find((option) => option.name === name)
      expect(region, `${name} under ${code}`).toBeDefined()
      walk.push(region as RegionOption)
      code = (region as RegionOption).codeid
    }
    const streets = await postApi<RegionOption[]>(request, 'publicselect/findAreaJson', {
      codeid: code,
    })
    expect(walk.map((region) => [region.codeid, region.level])).toEqual([
      ['44', 1],
      ['4403', 2],
      ['440305', 3],
    ])
    const shekou = streets.datum.find((street) => street.name === '蛇口街道')
    expect(shekou).toMatchObject({ level: 4, children: false })
    expect(shekou?.codeid).toMatch(/^440305\d{3}$/)
  })
})
