import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { enableTestApi, startSignedIn } from './support/accounts'
import {
  citySnapshot,
  createCityProject,
  sharedCityData,
  tilesetPointNearCentre,
  tilesetShareAtCentre,
} from './support/city'
import { createEditor } from './project-helpers'
import { decodePng } from './support/png-pixels'

/**
 * Area division and location as a new user meets them (issue 18), in the Korean UI: draw a
 * polygon on the map by clicking, read its area, name and save it, see it on the map, turn it in
 * the geometry control bar and update it; draw a circle, a point, a polyline and inflection
 * points and read their m² or m; draw a path, save it and navigate it (pause, resume, faster,
 * arrived); reload and find them listed and drawn. Then make it an
 * electronic fence, add a positioned walker whose reports cross it (enter and leave events, the
 * red ring while inside), and place a tileset by three anchor points with their residuals;
 * reload and find the anchors, the placed tileset, the walker, the fence and its events again.
 */

const projectName = '구역 도시'

/** Pixels of the map's screenshot close to the colour `[red, green, blue]`. */
async function pixelsNear(page: Page, [red, green, blue]: readonly number[]): Promise<number> {
  const { data } = decodePng(await page.getByTestId('city-map').screenshot())
  let count = 0
  for (let index = 0; index < data.length; index += 4) {
    const distance =
      Math.abs(data[index]! - red!) +
      Math.abs(data[index + 1]! - green!) +
      Math.abs(data[index + 2]! - blue!)
    if (distance < 60) count++
  }
  return count
}

/**
 * Pixels of the map's screenshot close to the default outline blue (#1e88e5): what a saved area
 * adds to the picture, as a person sees it.
 */
const outlinePixels = (page: Page) => pixelsNear(page, [30, 136, 229])

/** Pixels of the map's screenshot in the red of a positioned object's ring inside a fence. */
async function fenceRingPixels(page: Page): Promise<number> {
  const { data } = decodePng(await page.getByTestId('city-map').screenshot())
  let count = 0
  for (let index = 0; index < data.length; index += 4)
    if (data[index]! > 200 && data[index + 1]! < 100 && data[index + 2]! < 100) count++
  return count
}

/** Where a place is drawn on the map (CSS pixels of the map element), via the test API. */
function toScreen(page: Page, lng: number, lat: number, heightMeters = 0) {
  return page.evaluate((at) => window.__twinTest!.runEngineCommand('city.projectToScreen', at), {
    lng,
    lat,
    heightMeters,
  })
}

/** Metres east and north of a place, as longitude and latitude (small offsets). */
function offsetOf(origin: { lng: number; lat: number }, east: number, north: number) {
  const metresPerDegreeLat = 110_950
  const metresPerDegreeLng = (Math.PI / 180) * 6_378_137 * Math.cos((origin.lat * Math.PI) / 180)
  return [origin.lng + east / metresPerDegreeLng, origin.lat + north / metresPerDegreeLat] as [
    number,
    number,
  ]
}

/** Ground distance of two nearby places, metres (equirectangular: enough at 100 m). */
function metresBetween([lng1, lat1]: readonly number[], [lng2, lat2]: readonly number[]) {
  const east = (lng2! - lng1!) * (Math.PI / 180) * 6_378_137 * Math.cos((lat1! * Math.PI) / 180)
  const north = (lat2! - lat1!) * 110_950
  return Math.hypot(east, north)
}

/** A measure as the Korean UI writes it (two decimals at most). */
const koNumber = new Intl.NumberFormat('ko', { maximumFractionDigits: 2 })

/**
 * Draws a shape as a person does: its type's button in `tab`, then a click on each place; a
 * line ends with a second click on its last place, a polygon with a double click. Waits until it is finished and
 * measured, and answers it.
 */
async function drawByClicks(
  page: Page,
  tab: Locator,
  typeName: string,
  type: 1 | 2 | 3 | 4 | 5,
  places: ReadonlyArray<readonly [number, number]>,
) {
  await tab.getByRole('button', { name: typeName, exact: true }).click()
  await expect.poll(async () => (await citySnapshot(page)).draw.activeType).toBe(type)
  const box = (await page.getByTestId('city-map').boundingBox())!
  for (const [index, [lng, lat]] of places.entries()) {
    const point = await toScreen(page, lng, lat)
    const x = box.x + point.x
    const y = box.y + point.y
    const isLast = index === places.length - 1
    await page.mouse.move(x, y)
    // A polygon ends with a double click on its last corner (the area's edit refits the map
    // after the zoom a double click also makes).
    if (isLast && type === 4) await page.mouse.dblclick(x, y)
    else await page.mouse.click(x, y)
    await page.waitForTimeout(150)
    // A second click on a line's last place ends it. Not a double click: the map would zoom in
    // once terra-draw has finished, and the next shape's places would move.
    if (isLast && (type === 3 || type === 5)) {
      await page.mouse.click(x, y)
      await page.waitForTimeout(150)
    }
  }
  if (type === 4 && (await citySnapshot(page)).draw.pending === null) {
    // Closing on the first point finishes a terra-draw polygon as well.
    const first = await toScreen(page, places[0]![0], places[0]![1])
    await page.mouse.click(box.x + first.x, box.y + first.y)
  }
  await expect.poll(async () => (await citySnapshot(page)).draw.pending?.type).toBe(type)
  const pending = (await citySnapshot(page)).draw.pending!
  expect(pending.issue, `type ${type}`).toBeNull()
  return pending
}

/** Names the shape in hand and saves it; answers its line in the list. */
async function saveDrawing(page: Page, tab: Locator, name: string) {
  await tab.getByLabel('이름').fill(name)
  await tab.getByRole('button', { name: '저장' }).click()
  const item = tab.getByTestId('draw-item').filter({ hasText: name })
  await expect(item).toBeVisible()
  await expect.poll(async () => (await citySnapshot(page)).draw.pending).toBeNull()
  return item
}

test('a new user draws a polygon, reloads and finds it, makes it a fence a walker crosses, places a tileset by three anchors, and finds it all after a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(720_000)
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
  const bluePixelsBefore = await outlinePixels(page)
  const camera = (await citySnapshot(page)).camera
  // A square of ~0.001° around the camera's centre.
  const corners: Array<[number, number]> = [
    [camera.lng - 0.001, camera.lat - 0.0008],
    [camera.lng + 0.001, camera.lat - 0.0008],
    [camera.lng + 0.001, camera.lat + 0.0008],
    [camera.lng - 0.001, camera.lat + 0.0008],
  ]
  const areaTab = page.getByTestId('city-draw-tab-area')
  const pending = await drawByClicks(page, areaTab, '다각형', 4, corners)
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

  // The square's middle (its turned corners' mean): where the other shapes, the walker and the
  // anchors go.
  const square = {
    lng: turned.points.reduce((sum, point) => sum + point[0]!, 0) / turned.points.length,
    lat: turned.points.reduce((sum, point) => sum + point[1]!, 0) / turned.points.length,
  }
  const at = (east: number, north: number) => offsetOf(square, east, north)

  // One of each other type inside the square (the camera still frames it): a circle, a point,
  // a polyline and inflection points, each read (m² or m) before it is saved, and drawn.
  const bluePixelsBeforeShapes = await outlinePixels(page)
  const circle = await drawByClicks(page, areaTab, '원', 1, [at(-35, 35), at(-10, 35)])
  const areaMeasure = areaTab.getByTestId('draw-pending-measure')
  await expect(areaMeasure).toContainText('면적')
  await expect(areaMeasure).toContainText(`${koNumber.format(circle.areaSquareMeters)} m²`)
  // Its area is the one of the circle clicked: radius 25 m (a click is a pixel, ~0.4 m).
  const clickedRadius = metresBetween(circle.points[0]!, circle.points[1]!)
  expect(clickedRadius).toBeGreaterThan(22)
  expect(clickedRadius).toBeLessThan(28)
  expect(circle.areaSquareMeters / (Math.PI * clickedRadius ** 2)).toBeCloseTo(1, 2)
  await expect(await saveDrawing(page, areaTab, '분수 원')).toContainText('m²')

  const point = await drawByClicks(page, areaTab, '지점', 2, [at(30, 45)])
  expect(point.points).toHaveLength(1)
  await saveDrawing(page, areaTab, '안내 지점')

  for (const [typeName, type, name, places] of [
    ['폴리라인', 3, '산책로', [at(-60, -10), at(-30, -45), at(5, -60)]],
    ['변곡점', 5, '꺾인 길', [at(20, -15), at(55, -25), at(45, 15)]],
  ] as const) {
    const line = await drawByClicks(page, areaTab, typeName, type, places)
    expect(line.points).toHaveLength(3)
    await expect(areaMeasure).toContainText('길이')
    await expect(areaMeasure).toContainText(`${koNumber.format(line.lengthMeters)} m`)
    // Its length is the one of the places clicked.
    const clicked =
      metresBetween(line.points[0]!, line.points[1]!) +
      metresBetween(line.points[1]!, line.points[2]!)
    expect(line.lengthMeters / clicked).toBeCloseTo(1, 2)
    expect(line.lengthMeters).toBeGreaterThan(60)
    const saved = await saveDrawing(page, areaTab, name)
    await expect(saved).toContainText(' m')
    await expect(saved).not.toContainText('m²')
  }
  await expect.poll(async () => (await citySnapshot(page)).draw.visibleShapeCount).toBe(5)
  await expect
    .poll(() => outlinePixels(page), { timeout: 30_000, message: 'the four shapes drawn' })
    .toBeGreaterThan(bluePixelsBeforeShapes + 300)

  // Path programming: a path with its length, saved and drawn.
  const sidebar = page.getByRole('navigation', { name: '도시 프로젝트' })
  await sidebar.getByRole('link', { name: '경로', exact: true }).click()
  await page.getByRole('tab', { name: '경로 계획' }).click()
  const pathTab = page.getByTestId('city-draw-tab-path')
  await expect(pathTab).toBeVisible()
  const bluePixelsBeforePath = await outlinePixels(page)
  const path = await drawByClicks(page, pathTab, '폴리라인', 3, [
    at(-65, 5),
    at(-20, 15),
    at(30, 5),
    at(65, 15),
  ])
  await expect(pathTab.getByTestId('draw-pending-measure')).toContainText(
    `${koNumber.format(path.lengthMeters)} m`,
  )
  expect(path.lengthMeters).toBeGreaterThan(100)
  await expect(await saveDrawing(page, pathTab, '순찰로')).toContainText(' m')
  await expect
    .poll(() => outlinePixels(page), { timeout: 30_000, message: 'the path drawn' })
    .toBeGreaterThan(bluePixelsBeforePath + 150)

  // The path edit dialog in modify mode: a new path colour is the colour it is drawn in.
  const magenta = [255, 0, 255] as const
  const magentaBefore = await pixelsNear(page, magenta)
  await pathTab.getByRole('button', { name: '순찰로 수정' }).click()
  const modify = pathTab.getByTestId('draw-modify')
  await modify
    .getByRole('group', { name: '경로 색상' })
    .locator('input[type="color"]')
    .fill('#ff00ff')
  await modify.getByRole('button', { name: '수정', exact: true }).click()
  await expect(modify).toBeHidden()
  await expect
    .poll(() => pixelsNear(page, magenta), {
      timeout: 30_000,
      message: 'the path drawn in its new colour',
    })
    .toBeGreaterThan(magentaBefore + 100)

  // Path navigation: the camera flies along it slowly, pauses, resumes, goes fast ×5 and
  // arrives at its end.
  await page.getByRole('tab', { name: '경로 내비게이션' }).click()
  const navigationTab = page.getByTestId('city-navigation-tab')
  await expect(
    navigationTab.getByTestId('navigation-item').filter({ hasText: '순찰로' }),
  ).toContainText(' m')
  await navigationTab.getByRole('button', { name: '순찰로 내비게이션' }).click()
  const navigation = async () => (await citySnapshot(page)).navigation
  await expect.poll(async () => (await navigation()).status).toBe('flying')
  await navigationTab.getByRole('button', { name: '일시 정지' }).click()
  await expect.poll(async () => (await navigation()).status).toBe('paused')
  expect((await navigation()).meters).toBeLessThan(path.lengthMeters)
  await navigationTab.getByRole('button', { name: '계속' }).click()
  await navigationTab.getByRole('button', { name: '빠르게' }).click()
  await navigationTab.getByRole('button', { name: '×5' }).click()
  await expect.poll(async () => (await navigation()).status, { timeout: 60_000 }).toBe('done')
  await expect(navigationTab.getByTestId('navigation-progress')).toContainText('도착')
  const end = path.points[path.points.length - 1]!
  await expect.poll(async () => (await citySnapshot(page)).camera.lng).toBeCloseTo(end[0]!, 4)
  expect((await citySnapshot(page)).camera.lat).toBeCloseTo(end[1]!, 4)

  // Back to the area division tab (the reload below comes back to it).
  await sidebar.getByRole('link', { name: '지도', exact: true }).click()
  await page.getByRole('tab', { name: '구역 구분' }).click()
  await expect(areaTab).toBeVisible()

  // A tileset to place by anchor points below (it keeps its own georeference, far away).
  const tilesetUpload = await request.post('/web/upload/uploadTiltModel', {
    headers: { Token: token },
    multipart: {
      project_id: projectId,
      file: {
        name: 'tileset.zip',
        mimeType: 'application/zip',
        buffer: await readFile(sharedCityData('zip/derived/tileset-request-volume-nested.zip')),
      },
    },
  })
  const tileset = (await tilesetUpload.json()) as { code: string; datum: { id: string } }
  expect(tileset.code).toBe('0')

  await page.reload()
  await enableTestApi(page)
  await expect(page.getByTestId('draw-item').filter({ hasText: '북쪽 광장' })).toBeVisible({
    timeout: 60_000,
  })
  await expect
    .poll(async () => (await citySnapshot(page)).draw.visibleShapeCount, { timeout: 60_000 })
    .toBe(6)
  await page.getByRole('button', { name: '북쪽 광장(으)로 이동' }).click()
  await expect
    .poll(() => outlinePixels(page), { timeout: 30_000 })
    .toBeGreaterThan(bluePixelsBefore + 150)

  // Electronic fence: the square becomes one.
  await page
    .getByRole('navigation', { name: '도시 프로젝트' })
    .getByRole('link', { name: '위치', exact: true })
    .click()
  await page.getByRole('tab', { name: '전자 펜스' }).click()
  const fence = page.getByRole('button', { name: '펜스: 북쪽 광장' })
  await fence.click()
  await expect(fence).toHaveAttribute('aria-pressed', 'true')

  // GPS positioning: a walker, its device token shown once with the address it reports to.
  await page.getByRole('tab', { name: 'GPS 위치' }).click()
  const gps = page.getByTestId('city-gps-tab')
  await gps.getByRole('textbox', { name: /^이름/ }).fill('보행자')
  await gps.getByRole('textbox', { name: /^분류/ }).fill('person')
  await gps.getByRole('button', { name: '추가', exact: true }).click()
  const address = ((await page.getByTestId('tracked-token').locator('code').textContent()) ?? '')
    .replace(/^POST /, '')
    .trim()
  expect(address).toMatch(/\/api\/v1\/.+\/position$/)
  const report = async (lng: number, lat: number, at: number) => {
    const answer = await request.post(address, { data: { lng, lat, heading: 90, ts: at } })
    expect(answer.status(), await answer.text()).toBe(200)
  }
  const start = Date.now() - 30_000
  const ringBefore = await fenceRingPixels(page)
  // From west of the square into its middle: inside, with the red ring on the map.
  await report(square.lng - 0.003, square.lat, start)
  await report(square.lng, square.lat, start + 10_000)
  await expect(gps.getByTestId('tracked-inside')).toBeVisible({ timeout: 30_000 })
  await expect
    .poll(() => fenceRingPixels(page), { timeout: 60_000, message: 'the red ring drawn' })
    .toBeGreaterThan(ringBefore + 20)
  // And out east: the fence tab lists both crossings by name.
  await report(square.lng + 0.003, square.lat, start + 20_000)
  await page.getByRole('tab', { name: '전자 펜스' }).click()
  const events = page.getByTestId('fence-event')
  await expect(events.filter({ hasText: '보행자이(가) 북쪽 광장에 들어감' })).toBeVisible({
    timeout: 30_000,
  })
  await expect(events.filter({ hasText: '보행자이(가) 북쪽 광장에서 나감' })).toBeVisible()

  // Anchor points: three model points paired with places 1.5 km east of the square place the
  // tileset there (model x east, y north, metres), each with its residual. Away from the square,
  // the tileset is all that is drawn there besides the basemap.
  await page.getByRole('tab', { name: '앵커 포인트 설정' }).click()
  const anchorTab = page.getByTestId('city-anchor-tab')
  await expect(anchorTab.getByRole('alert')).toHaveText('먼저 앵커 포인트를 추가하세요.')
  const metresPerDegree = {
    lng: (Math.PI / 180) * 6_378_137 * Math.cos((square.lat * Math.PI) / 180),
    lat: 110_950,
  }
  for (const [name, x, y] of [
    ['서쪽', 0, 0],
    ['동쪽', 80, 0],
    ['북쪽', 0, 60],
  ] as const) {
    await anchorTab.getByRole('textbox', { name: /^이름/ }).fill(name)
    await anchorTab.getByRole('spinbutton', { name: /^모델 x/ }).fill(String(x))
    await anchorTab.getByRole('spinbutton', { name: /^모델 y/ }).fill(String(y))
    await anchorTab
      .getByRole('spinbutton', { name: /^경도/ })
      .fill((square.lng + (1_500 + x) / metresPerDegree.lng).toFixed(8))
    await anchorTab
      .getByRole('spinbutton', { name: /^위도/ })
      .fill((square.lat + y / metresPerDegree.lat).toFixed(8))
    await anchorTab.getByRole('button', { name: '앵커 포인트 추가' }).click()
    await expect(anchorTab.getByTestId('anchor-item').filter({ hasText: name })).toBeVisible()
  }
  await expect(anchorTab.getByTestId('anchor-residual')).toHaveCount(3)
  expect(
    Number.parseFloat((await anchorTab.getByTestId('anchor-rms').textContent()) ?? ''),
  ).toBeLessThan(1)
  // Saved for this tileset, not only shown.
  const saved = await request.post('/web/poi/getLocationMapping', {
    headers: { token },
    data: { project_id: projectId, target: tileset.datum.id },
  })
  expect(((await saved.json()).datum as unknown[]).length).toBe(3)
  await anchorTab.getByRole('button', { name: '타일셋 배치' }).click()
  await expect
    .poll(async () => (await citySnapshot(page)).camera.lng, { timeout: 30_000 })
    .toBeCloseTo(square.lng + 1_500 / metresPerDegree.lng, 2)
  await expect
    .poll(() => tilesetShareAtCentre(page), { timeout: 60_000, message: 'placed tileset drawn' })
    .toBeGreaterThan(0.002)

  // A real click on the drawn tileset picks an anchor's model point on its surface: the form
  // gets the point's own coordinates, the test API finds the same point above the ground there,
  // and that point is drawn where the click was.
  const onTiles = await tilesetPointNearCentre(page)
  expect(onTiles, 'a patch of the tileset to click').not.toBeNull()
  // the button says "cancel picking" while it picks: one locator for both of its names
  const pickInTileset = anchorTab.getByRole('button', { name: /^(타일셋에서 선택|선택 취소)$/ })
  await pickInTileset.click()
  await expect(pickInTileset).toHaveAttribute('aria-pressed', 'true')
  const mapBox = (await map.boundingBox())!
  await page.mouse.click(mapBox.x + onTiles!.x, mapBox.y + onTiles!.y)
  await expect(pickInTileset).toHaveAttribute('aria-pressed', 'false', { timeout: 30_000 })
  const picked = await page.evaluate(
    (at) => window.__twinTest!.runEngineCommand('city.pickTilesetPoint', at),
    onTiles!,
  )
  expect(picked?.tilesetId).toBe(tileset.datum.id)
  expect(picked!.position.heightMeters, 'on the tiles, above the flat ground').toBeGreaterThan(0.5)
  const drawnAt = await toScreen(
    page,
    picked!.position.lng,
    picked!.position.lat,
    picked!.position.heightMeters,
  )
  expect(Math.hypot(drawnAt.x - onTiles!.x, drawnAt.y - onTiles!.y)).toBeLessThan(3)
  for (const [axis, value] of [
    ['x', picked!.local.x],
    ['y', picked!.local.y],
  ] as const) {
    const field = anchorTab.getByRole('spinbutton', { name: new RegExp(`^모델 ${axis}`) })
    expect(Number(await field.inputValue()), axis).toBeCloseTo(value, 1)
  }

  // Reload: all of it is still there — the anchors and the tileset where they placed it, the
  // walker with its last position, the fence and both crossings.
  await page.reload()
  await enableTestApi(page)
  const anchorsAgain = page.getByTestId('city-anchor-tab')
  await expect(anchorsAgain.getByTestId('anchor-item')).toHaveCount(3, { timeout: 60_000 })
  await expect(anchorsAgain.getByTestId('anchor-residual')).toHaveCount(3)
  await expect
    .poll(async () => (await citySnapshot(page)).tilesets[0]?.placementInForce?.lng ?? 0, {
      timeout: 60_000,
    })
    .toBeCloseTo(square.lng + 1_500 / metresPerDegree.lng, 3)
  await page.getByRole('tab', { name: 'GPS 위치' }).click()
  const walkerAgain = page.getByTestId('tracked-item').filter({ hasText: '보행자' })
  await expect(walkerAgain).toBeVisible({ timeout: 30_000 })
  await expect(walkerAgain).toContainText('마지막 위치')
  await page.getByRole('tab', { name: '전자 펜스' }).click()
  await expect(page.getByRole('button', { name: '펜스: 북쪽 광장' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(events.filter({ hasText: '보행자이(가) 북쪽 광장에 들어감' })).toBeVisible({
    timeout: 30_000,
  })
  await expect(events.filter({ hasText: '보행자이(가) 북쪽 광장에서 나감' })).toBeVisible()
})
