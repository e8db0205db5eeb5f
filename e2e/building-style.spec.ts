import { expect, type Locator, type Page, test } from '@playwright/test'
import { buildingSnapshot, openSpaceModule, startInNewBuildingProject } from './support/building'
import { toastMessage } from './project-helpers'
import { postApi } from './project-helpers'
import {
  chooseMagentaFog,
  type DepthBands,
  expectFarThingsInFog,
  magentaFog,
  magentaOfBands,
} from './support/style-fog'

/**
 * Issue 19 as a user meets it: a new editor opens a building project, chooses the milky way
 * sky and rain in the style setting and a red directional light in the light setting, and sees
 * the sky change at the top of the canvas; a save the server refuses says 'Failed to update the
 * sky.' and the scene goes back to the saved sky. Then a grass ground and a magenta fog: the far
 * ground turns magenta, the near ground does not. One reload then finds every setting kept and
 * drawn so again (one reload for all: each costs the editor's whole opening).
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
  test.setTimeout(360_000)
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

  // saved before anything else is changed (the light is saved after its own quiet time: the
  // refusal below would otherwise catch it)
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
    .toEqual([3, 'rain', 'rgba(255, 0, 0, 1)'])

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

  // the fog: with grass to the horizon, the far ground fades into the fog's colour and the near
  // ground keeps its own
  await page.unroute('**/web/globalsetting/update')
  await chooseOption(page, 'Ground', 'Grassland')
  await expect
    .poll(async () => (await buildingSnapshot(page)).style.style?.ground)
    .toBe('grassland')
  await lookAlongTheGround(page)
  expect((await magentaOfBands(canvas, groundBands)).far).toBeLessThan(40)
  await chooseMagentaFog(page, 0.6)
  const fog = { isOn: true, color: magentaFog.color, density: 0.6 }
  await expect.poll(async () => (await buildingSnapshot(page)).style.style?.fog).toEqual(fog)
  await expectFarThingsInFog(canvas, groundBands, () => lookAlongTheGround(page))

  // everything saved; one reload opens the project with all of it, drawn so again
  await expect
    .poll(async () => {
      const answer = await postApi<{
        setting: {
          air_style: number
          weather_style: string
          directional_light_color: string
          ground_style: string
          fog_is_on: boolean
          fog_color: string
          fog_density: number
        }
      }>(
        request,
        'globalsetting/find',
        { project_id: (await buildingSnapshot(page)).projectId },
        token,
      )
      const setting = answer.datum?.setting
      return [
        setting?.air_style,
        setting?.weather_style,
        setting?.directional_light_color,
        setting?.ground_style,
        setting?.fog_is_on,
        setting?.fog_color,
        setting?.fog_density,
      ]
    })
    .toEqual([3, 'rain', 'rgba(255, 0, 0, 1)', 'grassland', true, magentaFog.saved, 0.6])
  await page.reload()
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect
    .poll(
      async () => {
        const building = await buildingSnapshot(page)
        return { isOpen: building.isOpen, style: building.style.style }
      },
      { timeout: 30_000 },
    )
    .toMatchObject({
      isOpen: true,
      style: {
        sky: 3,
        weather: 'rain',
        directionalLight: { color: { r: 255, g: 0 } },
        ground: 'grassland',
        fog,
      },
    })
  await expect
    .poll(async () => brightness(await topColour(canvas)), { timeout: 30_000 })
    .toBeLessThan(200)
  await expectFarThingsInFog(canvas, groundBands, () => lookAlongTheGround(page))
  expect(pageErrors).toEqual([])
})

/**
 * Puts the camera 4 m over the (empty) scene's ground, looking 60 m ahead: the grass reaches from
 * the bottom of the view, a few metres away, to near the horizon.
 */
async function lookAlongTheGround(page: Page) {
  await page.evaluate(() =>
    window.__twinTest?.runEngineCommand('building.setCamera', {
      position: [0, 4, 60],
      target: [0, 0, 0],
    }),
  )
}

/**
 * The ground some 40–90 m away (just below the horizon) and a few metres away (the bottom), left
 * of the empty building's hint in the middle of the canvas.
 */
const groundBands: DepthBands = {
  far: { left: 0.03, right: 0.25, top: 0.48, bottom: 0.53 },
  near: { left: 0.03, right: 0.25, top: 0.9, bottom: 0.97 },
}
