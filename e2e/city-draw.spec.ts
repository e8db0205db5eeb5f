import { expect, type Page, test } from '@playwright/test'
import { enableTestApi, startSignedIn } from './support/accounts'
import { citySnapshot, createCityProject } from './support/city'
import { createEditor } from './project-helpers'
import { decodePng } from './support/png-pixels'

/**
 * Area division as a new user meets it (issue 18), in the Korean UI: draw a polygon on the map
 * by clicking, read its area, name and save it, see it on the map, turn it in the geometry
 * control bar and update it, reload and find it listed and drawn.
 */

const projectName = '구역 도시'

/**
 * Pixels of the map's screenshot close to the default outline blue (#1e88e5): what a saved area
 * adds to the picture, as a person sees it.
 */
async function outlinePixels(page: Page): Promise<number> {
  const { data } = decodePng(await page.getByTestId('city-map').screenshot())
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const distance =
      Math.abs(data[index]! - 30) +
      Math.abs(data[index + 1]! - 136) +
      Math.abs(data[index + 2]! - 229)
    if (distance < 60) count++
  }
  return count
}

/** Where a place is drawn on the map (CSS pixels of the map element), via the test API. */
function toScreen(page: Page, lng: number, lat: number) {
  return page.evaluate((at) => window.__twinTest!.runEngineCommand('city.projectToScreen', at), {
    lng,
    lat,
  })
}

test('a new user draws a polygon, reads its area, saves it and finds it after a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000)
  await enableTestApi(page)
  const account = await createEditor(request)
  const { token } = await startSignedIn(page, request, account.name, account.password)
  const projectId = await createCityProject(request, token, projectName)
  await page.goto('/#/projectManage/bim')
  await page
    .getByTestId('project-list-city')
    .getByRole('button', { name: `${projectName} 들어가기` })
    .first()
    .click()
  await expect(page.getByTestId('city-editor')).toBeVisible({ timeout: 30_000 })
  await page.getByRole('tab', { name: '구역 구분' }).click()
  await expect(page.getByTestId('city-draw-tab-area')).toBeVisible()
  await expect.poll(async () => (await citySnapshot(page)).isOpen, { timeout: 60_000 }).toBe(true)

  const map = page.getByTestId('city-map')
  const box = (await map.boundingBox())!
  const bluePixelsBefore = await outlinePixels(page)
  const camera = (await citySnapshot(page)).camera
  // A square of ~0.001° around the camera's centre.
  const corners: Array<[number, number]> = [
    [camera.lng - 0.001, camera.lat - 0.0008],
    [camera.lng + 0.001, camera.lat - 0.0008],
    [camera.lng + 0.001, camera.lat + 0.0008],
    [camera.lng - 0.001, camera.lat + 0.0008],
  ]
  await page.getByRole('button', { name: '다각형' }).click()
  await expect.poll(async () => (await citySnapshot(page)).draw.activeType).toBe(4)
  for (const [index, [lng, lat]] of corners.entries()) {
    const point = await toScreen(page, lng, lat)
    const x = box.x + point.x
    const y = box.y + point.y
    await page.mouse.move(x, y)
    if (index === corners.length - 1) await page.mouse.dblclick(x, y)
    else await page.mouse.click(x, y)
    await page.waitForTimeout(150)
  }
  // Closing on the first point finishes a terra-draw polygon as well.
  if ((await citySnapshot(page)).draw.pending === null) {
    const first = await toScreen(page, corners[0]![0], corners[0]![1])
    await page.mouse.click(box.x + first.x, box.y + first.y)
  }
  await expect.poll(async () => (await citySnapshot(page)).draw.pending?.type).toBe(4)
  const pending = (await citySnapshot(page)).draw.pending!
  expect(pending.issue).toBeNull()
  const measure = page.getByTestId('draw-pending-measure')
  await expect(measure).toContainText('면적')
  await expect(measure).toContainText('m²')
  await page.getByLabel('이름').fill('북쪽 광장')
  await page.getByRole('button', { name: '저장' }).click()
  const item = page.getByTestId('draw-item').filter({ hasText: '북쪽 광장' })
  await expect(item).toBeVisible()
  await expect(item).toContainText('m²')
  // The saved area is drawn: its blue outline is on the map.
  await expect
    .poll(() => outlinePixels(page), { timeout: 30_000 })
    .toBeGreaterThan(bluePixelsBefore + 150)

  // The geometry control bar: rotate it by 45° (three steps of 15°) and update it.
  await page.getByRole('button', { name: '북쪽 광장 편집' }).click()
  const bar = page.getByTestId('draw-geometry-bar')
  await expect(bar).toBeVisible()
  await expect(bar.getByTestId('draw-edit-measure')).toContainText('m²')
  await bar.getByRole('button', { name: '회전', exact: true }).click()
  await expect.poll(async () => (await citySnapshot(page)).draw.editing?.tool).toBe('rotate')
  const slider = bar.getByRole('slider')
  await slider.focus()
  for (let step = 0; step < 3; step++) await slider.press('ArrowRight')
  await expect.poll(async () => (await citySnapshot(page)).draw.editing?.rotationDegrees).toBe(45)
  const turned = (await citySnapshot(page)).draw.editing!
  // Turning keeps the area (the server measures it again on update).
  expect(turned.areaSquareMeters / pending.areaSquareMeters).toBeGreaterThan(0.999)
  expect(turned.areaSquareMeters / pending.areaSquareMeters).toBeLessThan(1.001)
  await bar.getByRole('button', { name: '업데이트' }).click()
  await expect(bar).toBeHidden()
  await expect.poll(async () => (await citySnapshot(page)).draw.editing).toBeNull()
  // The update is on the server before the reload (the reload must not race the save).
  await expect
    .poll(async () => {
      const answer = await request.post('/web/areadraw/findall', {
        headers: { token },
        data: { project_id: projectId },
      })
      const [saved] = (await answer.json()).datum as Array<{ points: number[][] }>
      return saved?.points[0]?.[0] ?? null
    })
    .toBeCloseTo(turned.points[0]![0], 9)

  await page.reload()
  await enableTestApi(page)
  await expect(page.getByTestId('draw-item').filter({ hasText: '북쪽 광장' })).toBeVisible({
    timeout: 60_000,
  })
  await expect
    .poll(async () => (await citySnapshot(page)).draw.visibleShapeCount, { timeout: 60_000 })
    .toBe(1)
  await page.getByRole('button', { name: '북쪽 광장(으)로 이동' }).click()
  await expect
    .poll(() => outlinePixels(page), { timeout: 30_000 })
    .toBeGreaterThan(bluePixelsBefore + 150)
})
