import { expect, type Locator, type Page, test } from '@playwright/test'
import { buildingSnapshot, openSpaceModule, startInNewBuildingProject } from './support/building'
import { toastMessage } from './project-helpers'
import { postApi } from './project-helpers'

/**
 * Issue 19 as a user meets it: a new editor opens a building project, chooses the milky way
 * sky and rain in the style setting and a red directional light in the light setting, sees
 * the sky change at the top of the canvas, reloads and finds both kept; a save the server
 * refuses says 'Failed to update the sky.' and the scene goes back to the saved sky.
 */

/** The colour (0–255) of the canvas a few pixels below its top edge, in the middle. */
async function topColour(canvas: Locator): Promise<[number, number, number]> {
  const png = await canvas.screenshot()
  return canvas.page().evaluate(async (base64) => {
    const image = new Image()
    image.src = `data:image/png;base64,${base64}`
    await image.decode()
    const copy = document.createElement('canvas')
    copy.width = image.naturalWidth
    copy.height = image.naturalHeight
    const context = copy.getContext('2d')!
    context.drawImage(image, 0, 0)
    const [r = 0, g = 0, b = 0] = context.getImageData(Math.floor(copy.width / 2), 4, 1, 1).data
    return [r, g, b] as [number, number, number]
  }, png.toString('base64'))
}

const brightness = ([r, g, b]: readonly number[]) => (r ?? 0) + (g ?? 0) + (b ?? 0)

async function chooseOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option }).click()
}

test('a user styles the building scene, reloads and keeps it; a refused save goes back', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  const { token } = await startInNewBuildingProject({ page, context, request, baseURL }, 'Styled')
  await openSpaceModule(page, 'Style')
  await expect(page).toHaveURL(/#\/bim4\/style\/otherset$/)
  const canvas = page.getByTestId('building-canvas')
  // the SPEC default: a sunny (blue) sky
  await expect.poll(async () => (await buildingSnapshot(page)).style.style?.sky).toBe(1)
  const sunny = await topColour(canvas)
  expect(sunny[2]).toBeGreaterThan(sunny[0])

  await chooseOption(page, 'Sky', 'Milky way')
  await chooseOption(page, 'Weather', 'Rain')
  await expect.poll(async () => (await buildingSnapshot(page)).style.isAnimating).toBe(true)
  await expect
    .poll(async () => brightness(await topColour(canvas)), { timeout: 30_000 })
    .toBeLessThan(200)

  await page.getByRole('link', { name: 'Light setting' }).click()
  await expect(page).toHaveURL(/#\/bim4\/style\/lightset$/)
  const directional = page.getByRole('group', { name: 'Directional light colour' })
  await directional.locator('input[type="color"]').fill('#ff0000')
  await expect
    .poll(async () => (await buildingSnapshot(page)).style.style?.directionalLight.color)
    .toEqual({ r: 255, g: 0, b: 0, a: 1 })

  // saved: after a reload the project opens with it
  await expect
    .poll(async () => {
      const answer = await postApi<{
        setting: { air_style: number; weather_style: string; directional_light_color: string }
      }>(
        request,
        'globalsetting/find',
        { project_id: (await buildingSnapshot(page)).projectId },
        token,
      )
      const setting = answer.datum?.setting
      return [setting?.air_style, setting?.weather_style, setting?.directional_light_color]
    })
    // the light is saved after its own quiet time: reloading before it would lose it
    .toEqual([3, 'rain', 'rgba(255, 0, 0, 1)'])
  await page.reload()
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect
    .poll(async () => (await buildingSnapshot(page)).style.style, { timeout: 30_000 })
    .toMatchObject({ sky: 3, weather: 'rain', directionalLight: { color: { r: 255, g: 0 } } })
  await expect
    .poll(async () => brightness(await topColour(canvas)), { timeout: 30_000 })
    .toBeLessThan(200)

  // the server refuses the next save: the message says what failed, the sky goes back
  await openSpaceModule(page, 'Style')
  await page.route('**/web/globalsetting/update', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ code: '500', message: 'The database does not answer.', datum: null }),
    }),
  )
  await chooseOption(page, 'Sky', 'Rainy')
  await expect(toastMessage(page, /^Failed to update the sky\./)).toBeVisible({ timeout: 15_000 })
  await expect.poll(async () => (await buildingSnapshot(page)).style.style?.sky).toBe(3)
  await expect(page.getByRole('combobox', { name: 'Sky' })).toHaveText('Milky way')
  expect(pageErrors).toEqual([])
})
