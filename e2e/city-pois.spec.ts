import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { zipSync } from 'fflate'
import { copyOffsets, offsetPosition } from '../src/pages/pois/copy-layouts'
import { enableTestApi, startSignedIn } from './support/accounts'
import { citySnapshot, createCityProject, isMapSeenAt, sharedCityData } from './support/city'
import { type BatchRow, filledBatchFile } from './support/poi-batch-file'
import { changedNear, elementPixels, settledPixels } from './support/png-pixels'
import { createEditor, toastMessage } from './project-helpers'

/**
 * City POIs as a new user meets them (issue 16 acceptance), in the Korean UI (the default): place
 * a 2D POI on the map and a 3D POI on the oblique photography by clicking, drag one to a new
 * place and turn the other with the control bar; in the POI inventory tab hide and show a
 * template with POI classify, bulk-edit both in the multi-function table, copy one as a 4 × 3 × 2
 * multi-layer array, batch-add 200 cameras from the template's filled XLSX; reload, and find all
 * where they were — with pixel checks that the markers are drawn where `city.poiToScreen` says
 * (the selection ring around them, the batch's markers against the map without them). Then a
 * copy's device reports a fire alarm (issue 17): announced, ringed red, followed, listed under
 * POI → 경보, acknowledged and cleared.
 */

const projectName = '항구 도시'
const duckFolder = resolve(import.meta.dirname, '../../shared/data/gltf/Duck')

/** A zip holding the Duck glTF (a 3D template's model). */
async function duckZip(): Promise<Buffer> {
  const files: Record<string, Uint8Array> = {}
  for (const name of ['Duck.gltf', 'Duck0.bin', 'DuckCM.png'])
    files[`duck/${name}`] = new Uint8Array(await readFile(resolve(duckFolder, name)))
  return Buffer.from(zipSync(files))
}

interface SavedPoi {
  id: string
  name: string
  /** The template's id. */
  category_id: string
  x: number
  y: number
  z: number
  heading: number
}

/** The project's POIs as the server saved them (up to 500, the page size's limit). */
async function savedPois(page: Page, projectId: string): Promise<SavedPoi[]> {
  return page.evaluate(async (projectid) => {
    const response = await fetch('/web/poi/findPoi?pageNo=1&pageSize=500', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: localStorage.getItem('token') ?? '' },
      body: JSON.stringify({ projectid }),
    })
    const envelope = (await response.json()) as { code: string; datum: { list: SavedPoi[] } }
    if (envelope.code !== '0') throw new Error(JSON.stringify(envelope))
    return envelope.datum.list
  }, projectId)
}

/** Where positions are drawn on the map (CSS pixels of the map element), via the test API. */
async function poisToScreen(page: Page, positions: [number, number, number][]) {
  return page.evaluate(
    (list) =>
      Promise.all(
        list.map((at) => window.__twinTest!.runEngineCommand('city.poiToScreen', { position: at })),
      ),
    positions,
  )
}

/** Where a position is drawn on the map (CSS pixels of the map element), via the test API. */
async function poiToScreen(page: Page, position: [number, number, number]) {
  return (await poisToScreen(page, [position]))[0]!
}

/** Puts the map's camera over a place at once (a close view: from zoom 18 nothing clusters). */
async function viewFrom(
  page: Page,
  [lng, lat]: readonly number[],
  zoom: number,
  pitch = 0,
): Promise<void> {
  await page.evaluate((target) => window.__twinTest!.runEngineCommand('city.flyTo', target), {
    lng: lng!,
    lat: lat!,
    zoom,
    pitch,
    bearing: 0,
    durationMs: 0,
  })
}

/** The amber of the selection ring, drawn 20 px around the marker's centre. */
const selectionRing = { inner: 15, outer: 25, tone: 'amber' } as const
/** A fire alarm's status disc (issue 17): red out to 29 px, beyond the selection ring. */
const fireAlarmRing = { inner: 23, outer: 28, tone: 'red' } as const

/**
 * Pixels of a ring's tone around each of some map points, from one screenshot of the map (what
 * a person sees): the selection ring, or a status disc.
 */
async function ringPixelsAroundEach(
  page: Page,
  points: readonly { x: number; y: number }[],
  { inner, outer, tone }: typeof selectionRing | typeof fireAlarmRing = selectionRing,
): Promise<number[]> {
  const { data, width } = await elementPixels(page.getByTestId('city-map'))
  return points.map(({ x, y }) => {
    let count = 0
    for (let dy = -26; dy <= 26; dy++) {
      for (let dx = -26; dx <= 26; dx++) {
        const distance = Math.hypot(dx, dy)
        if (distance < inner || distance > outer) continue
        const index = (Math.round(y + dy) * width + Math.round(x + dx)) * 4
        const [red = 0, green = 0, blue = 0] = data.subarray(index, index + 3)
        const isTone =
          tone === 'amber'
            ? red > 200 && green > 140 && green < 225 && blue < 90
            : red > 190 && green < 110 && blue < 110
        if (isTone) count++
      }
    }
    return count
  })
}

/** Pixels of a ring's tone around one map point (see {@link ringPixelsAroundEach}). */
async function ringPixelsAround(
  page: Page,
  point: { x: number; y: number },
  ring: typeof selectionRing | typeof fireAlarmRing = selectionRing,
): Promise<number> {
  return (await ringPixelsAroundEach(page, [point], ring))[0]!
}

/** The table's "clear selection", when there is a selection to clear (it is disabled otherwise). */
async function clearSelection(table: Locator): Promise<void> {
  const button = table.getByRole('button', { name: '선택 해제' })
  if (await button.isEnabled()) await button.click()
}

/** The POI the engine picks at a map point (what a click there would select), or null. */
async function pickPoi(page: Page, at: { x: number; y: number }) {
  return page.evaluate(
    (point) => window.__twinTest!.runEngineCommand('city.pickPoiAtScreenPoint', point),
    { x: at.x, y: at.y },
  )
}

/**
 * A left-button drag on the map as a person makes it: press at `from`, move in steps to `to`,
 * then release (or press Escape first, which cancels the drag).
 */
async function dragOnMap(
  page: Page,
  from: { x: number; y: number },
  to: { x: number; y: number },
  options: { cancelWithEscape?: boolean } = {},
): Promise<void> {
  const box = (await page.getByTestId('city-map').boundingBox())!
  await page.mouse.move(box.x + from.x, box.y + from.y)
  await page.mouse.down()
  const steps = 8
  for (let step = 1; step <= steps; step++) {
    await page.mouse.move(
      box.x + from.x + ((to.x - from.x) * step) / steps,
      box.y + from.y + ((to.y - from.y) * step) / steps,
    )
  }
  if (options.cancelWithEscape) await page.keyboard.press('Escape')
  await page.mouse.up()
}

test.describe('city POIs', () => {
  // 9–11 min under a load of 30–40 on 2 cores (the upload alone up to 2 min); quiet, a fraction
  test.setTimeout(900_000)

  test('a new user places 2D and 3D POIs, drags, turns, classifies, bulk-edits, copies, reloads', async ({
    page,
    request,
  }) => {
    await enableTestApi(page)
    const account = await createEditor(request)
    const { token } = await startSignedIn(page, request, account.name, account.password)
    const projectId = await createCityProject(request, token, projectName)

    // A 3D template made from the Duck model (the 2D camera comes with the library).
    const uploaded = await request.post('/web/upload/upload3DPoi', {
      headers: { Token: token },
      multipart: {
        file: { name: 'duck.zip', mimeType: 'application/zip', buffer: await duckZip() },
      },
    })
    const model = (await uploaded.json()) as {
      code: string
      message: string
      datum: { uuid: string; rootPath: string; sbmName: string; jpgName: string; xmlName: string }
    }
    expect(model.code, model.message).toBe('0')
    const created = await request.post('/web/poi/creatPoiCategoryBasic', {
      headers: { Token: token },
      data: {
        name: '오리 캐비닛',
        poicategory_code: 'DUCK-3D',
        piddes: '2',
        category_zip_uuid: model.datum.uuid,
        file_path: model.datum.rootPath,
        glbf_name: model.datum.sbmName,
        jpg_name: model.datum.jpgName,
        xml_name: model.datum.xmlName,
        iconpath: `${model.datum.rootPath.replace(/\/?$/, '/')}${model.datum.jpgName}`,
      },
    })
    const template = (await created.json()) as { code: string; message: string }
    expect(template.code, template.message).toBe('0')

    // Enter the project (Korean UI) and upload the oblique photography.
    await page.goto('/#/projectManage/bim')
    await page
      .getByTestId('project-list-city')
      .getByRole('button', { name: `${projectName} 들어가기` })
      .first()
      .click()
    await expect(page.getByTestId('city-editor')).toBeVisible({ timeout: 30_000 })
    await page
      .getByTestId('oblique-upload-input')
      .setInputFiles(sharedCityData('zip/derived/tileset-request-volume-nested.zip'))
    await expect
      .poll(async () => (await citySnapshot(page)).tilesLoaded, { timeout: 180_000 })
      .toBeGreaterThan(0)

    // The POI module opens on "POI 관리" with its hint in Korean.
    await page
      .getByRole('navigation', { name: '도시 프로젝트' })
      .getByRole('link', { name: 'POI', exact: true })
      .click()
    await expect(page.getByRole('tab', { name: 'POI 관리' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    const manage = page.getByTestId('city-poi-manage')
    await expect(manage.getByTestId('city-poi-placing-hint')).toContainText('템플릿을 선택')

    // A 2D camera on the map, away from the buildings (the map's top-left area); the seeded
    // library's names read in the user's language, the 2D and 3D cameras apart.
    await manage.getByRole('button', { name: /카메라 \(2D\)/ }).click()
    await expect(manage.getByTestId('city-poi-placing-hint')).toContainText('배치')
    const map = page.getByTestId('city-map')
    await map.click({ position: { x: 80, y: 90 } })
    await expect.poll(async () => (await citySnapshot(page)).pois.count).toBe(1)

    // A 3D duck on the oblique photography: a city building of the tileset.
    await manage.getByRole('button', { name: /오리 캐비닛/ }).click()
    const building = {
      lng: (-1.3197004795898053 * 180) / Math.PI,
      lat: (0.6988582109 * 180) / Math.PI,
    }
    const onBuilding = await page.evaluate(
      (at) =>
        window.__twinTest!.runEngineCommand('city.projectToScreen', { ...at, heightMeters: 5 }),
      building,
    )
    const surface = await page.evaluate(
      (at) => window.__twinTest!.runEngineCommand('city.surfacePointAtScreenPoint', at),
      onBuilding,
    )
    expect(surface?.surface).toBe('tileset')
    await map.click({ position: onBuilding })
    await expect.poll(async () => (await citySnapshot(page)).pois.count).toBe(2)
    await manage.getByRole('button', { name: '배치 중지' }).click()

    // Both saved by the server (the optimistic ids replaced); the duck stands on the roof.
    await expect.poll(async () => (await savedPois(page, projectId)).length).toBe(2)
    let pois = await savedPois(page, projectId)
    const camera = pois.find((poi) => poi.name.startsWith('카메라 (2D)'))!
    const duck = pois.find((poi) => poi.name.startsWith('오리 캐비닛'))!
    expect(camera.z).toBe(0)
    expect(duck.z).toBeGreaterThan(0)

    // Select the camera by clicking it: its ring is drawn where poiToScreen says.
    const cameraAt = await poiToScreen(page, [camera.x, camera.y, camera.z])
    await map.click({ position: { x: cameraAt.x, y: cameraAt.y } })
    await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([camera.id])
    await expect.poll(() => ringPixelsAround(page, cameraAt)).toBeGreaterThan(20)

    // Move it with the control bar's move tool: press on it and drag it over the map. The map
    // does not pan meanwhile; Escape during a drag puts it back, a release saves.
    await manage.getByRole('button', { name: '이동' }).click()
    await expect(manage).toContainText('끌어 옮기세요')
    const cameraBefore = (await citySnapshot(page)).camera
    await dragOnMap(page, cameraAt, { x: 220, y: 160 }, { cancelWithEscape: true })
    await expect
      .poll(() => ringPixelsAround(page, cameraAt), { timeout: 20_000 })
      .toBeGreaterThan(20)
    expect((await savedPois(page, projectId)).find((poi) => poi.id === camera.id)?.x).toBe(camera.x)
    const dropAt = { x: 160, y: 120 }
    await dragOnMap(page, cameraAt, dropAt)
    await expect
      .poll(async () => (await savedPois(page, projectId)).find((poi) => poi.id === camera.id)?.x)
      .not.toBe(camera.x)
    const cameraAfter = (await citySnapshot(page)).camera
    expect(cameraAfter.lng).toBeCloseTo(cameraBefore.lng, 9)
    expect(cameraAfter.lat).toBeCloseTo(cameraBefore.lat, 9)
    // Saved where it was dropped: drawn (its ring) under the release point.
    const moved = (await savedPois(page, projectId)).find((poi) => poi.id === camera.id)!
    const movedAt = await poiToScreen(page, [moved.x, moved.y, moved.z])
    expect(Math.hypot(movedAt.x - dropAt.x, movedAt.y - dropAt.y)).toBeLessThan(3)
    await expect
      .poll(() => ringPixelsAround(page, movedAt), { timeout: 20_000 })
      .toBeGreaterThan(20)
    await manage.getByRole('button', { name: '이동' }).click()

    // Turn the duck: select it by clicking, rotate tool, two steps of 15°.
    const duckAt = await poiToScreen(page, [duck.x, duck.y, duck.z])
    await map.click({ position: { x: duckAt.x, y: duckAt.y } })
    await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([duck.id])
    await manage.getByRole('button', { name: '회전' }).click()
    const slider = manage.getByRole('slider')
    await slider.focus()
    await slider.press('ArrowRight')
    await slider.press('ArrowRight')
    await expect
      .poll(
        async () => (await savedPois(page, projectId)).find((poi) => poi.id === duck.id)?.heading,
      )
      .toBe(30)

    // The shared POI screens in the "POI 목록" tab: classify, the table, copy.
    await page.getByRole('tab', { name: 'POI 목록' }).click()
    const inventory = page.getByTestId('city-poi-inventory')
    await expect(inventory.getByTestId('poi-shared-screens')).toBeVisible()

    // POI classify by template: hiding "카메라 (2D)" (the seeded camera, named in Korean) takes its marker (selected: ringed) off the
    // map and out of picking; showing it again brings it back.
    await map.click({ position: movedAt })
    await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([camera.id])
    await expect
      .poll(() => ringPixelsAround(page, movedAt), { timeout: 20_000 })
      .toBeGreaterThan(20)
    const classify = inventory.getByRole('region', { name: 'POI 분류' })
    await classify.getByRole('radio', { name: '템플릿' }).check()
    const cameraGroup = classify.getByRole('checkbox', { name: /카메라 \(2D\)/ })
    await cameraGroup.uncheck()
    await expect.poll(async () => (await citySnapshot(page)).pois.hiddenGroupIds).toHaveLength(1)
    await expect.poll(() => ringPixelsAround(page, movedAt), { timeout: 30_000 }).toBeLessThan(5)
    expect(await pickPoi(page, movedAt)).toBeNull()
    await cameraGroup.check()
    await expect.poll(async () => (await citySnapshot(page)).pois.hiddenGroupIds).toEqual([])
    await expect.poll(async () => (await pickPoi(page, movedAt))?.poiId).toBe(camera.id)

    // The multi-function table: select both POIs, bulk edit their heading to 45°.
    await inventory.getByRole('button', { name: '표', exact: true }).click()
    const table = inventory.getByRole('region', { name: 'POI 다기능 표' })
    await clearSelection(table)
    await table.getByRole('checkbox', { name: `${camera.name} 선택` }).check()
    await table.getByRole('checkbox', { name: `${duck.name} 선택` }).check()
    await table.getByRole('button', { name: '선택 항목 편집' }).click()
    const bulk = page.getByRole('dialog', { name: 'POI 2개 편집' })
    await bulk.getByLabel('방향(°)').fill('45')
    await bulk.getByRole('button', { name: '수정' }).click()
    await expect(bulk).toBeHidden()
    await expect
      .poll(async () => (await savedPois(page, projectId)).map((poi) => poi.heading))
      .toEqual([45, 45])
    await expect(table.getByRole('row').filter({ hasText: '45°' })).toHaveCount(2)

    // Copy the camera as a 4 × 3 × 2 multi-layer array: rows 30 m apart to the south (a
    // negative row spacing), columns 30 m east, a second layer 10 m up. The original fills the
    // first cell, 23 copies the others: ghosts first, then one creatPoiList. Each copy stands
    // where the dialog's layout puts it; the table counts them; selected there, each is drawn
    // (ringed) where poiToScreen says, seen close up and tilted (no clustering from zoom 18).
    await clearSelection(table)
    await table.getByRole('checkbox', { name: `${camera.name} 선택` }).check()
    await inventory.getByRole('button', { name: '복사', exact: true }).click()
    const copyDialog = page.getByRole('dialog', { name: 'POI 복사' })
    await copyDialog.getByRole('radio', { name: '다층 배열' }).check()
    const layout = {
      kind: 'multiLayerArray',
      rows: 4,
      columns: 3,
      layers: 2,
      rowSpacingMeters: -30,
      columnSpacingMeters: 30,
      layerSpacingMeters: 10,
    } as const
    const fields: [string, number][] = [
      ['행', layout.rows],
      ['열', layout.columns],
      ['층', layout.layers],
      ['행 간격', layout.rowSpacingMeters],
      ['열 간격', layout.columnSpacingMeters],
      ['층 간격', layout.layerSpacingMeters],
    ]
    for (const [label, value] of fields) {
      const field = copyDialog.getByRole('spinbutton', { name: label, exact: true })
      await field.fill(String(value))
      await field.press('Tab')
    }
    await expect(copyDialog).toContainText('POI 23개를 만듭니다')
    await expect.poll(async () => (await citySnapshot(page)).pois.ghostCount).toBe(23)
    await copyDialog.getByRole('button', { name: '복사', exact: true }).click()
    await expect(copyDialog).toBeHidden()
    await expect.poll(async () => (await savedPois(page, projectId)).length).toBe(25)
    await expect.poll(async () => (await citySnapshot(page)).pois.ghostCount).toBe(0)
    const copies = (await savedPois(page, projectId)).filter((poi) =>
      poi.name.startsWith(`${camera.name}-`),
    )
    expect(copies.map((poi) => poi.name).sort()).toEqual(
      Array.from({ length: 23 }, (_, index) => `${camera.name}-${index + 1}`).sort(),
    )
    const movedPosition: [number, number, number] = [moved.x, moved.y, moved.z]
    const isAt = (poi: SavedPoi, [x, y, z]: readonly number[]) =>
      Math.abs(poi.x - x!) < 1e-7 && Math.abs(poi.y - y!) < 1e-7 && Math.abs(poi.z - z!) < 1e-3
    for (const offset of copyOffsets(layout)) {
      const cell = offsetPosition(movedPosition, offset, 'city')
      expect(
        copies.filter((copy) => isAt(copy, cell)),
        `a copy at ${cell.join(', ')}`,
      ).toHaveLength(1)
    }
    await clearSelection(table)
    await table.getByLabel('필터').fill(`${camera.name}-`)
    await expect(table.getByText('POI 25개 중 23개, 0개 선택됨')).toBeVisible()
    await table.getByRole('checkbox', { name: '표시된 POI 모두 선택' }).check()
    await expect(table.getByText('POI 25개 중 23개, 23개 선택됨')).toBeVisible()
    await expect
      .poll(async () => [...(await citySnapshot(page)).pois.selectedIds].sort())
      .toEqual(copies.map((poi) => poi.id).sort())
    const viewCopies = () =>
      viewFrom(
        page,
        offsetPosition(movedPosition, { eastMeters: 30, northMeters: -45, upMeters: 0 }, 'city'),
        18,
        40,
      )
    await viewCopies()
    const copiesAt = await poisToScreen(
      page,
      copies.map((copy) => [copy.x, copy.y, copy.z]),
    )
    for (const at of copiesAt) expect(at.isVisible).toBe(true)
    // nothing over the map hides a ring (see isMapSeenAt)
    expect(await isMapSeenAt(page, copiesAt, 25)).not.toContain(false)
    await expect
      .poll(async () => Math.min(...(await ringPixelsAroundEach(page, copiesAt))), {
        timeout: 30_000,
      })
      .toBeGreaterThan(20)

    // Batch add: 200 cameras from the camera template's filled XLSX (lng, lat, height), a 20 × 10
    // grid 8 m apart on the map north of the tiles. Seen close up first without them (pixels to
    // compare with); then the table counts them, and each is drawn where poiToScreen says.
    const batchOrigin = offsetPosition(
      [building.lng, building.lat, 0],
      { eastMeters: -76, northMeters: 420, upMeters: 0 },
      'city',
    )
    const batchRows: BatchRow[] = Array.from({ length: 200 }, (_, index) => {
      const [x = 0, y = 0] = offsetPosition(
        batchOrigin,
        { eastMeters: (index % 20) * 8, northMeters: Math.floor(index / 20) * 8, upMeters: 0 },
        'city',
      )
      return {
        name: `일괄 카메라 ${String(index + 1).padStart(3, '0')}`,
        devicecode: `CITY-BATCH-${index + 1}`,
        x: Math.round(x * 1e8) / 1e8,
        y: Math.round(y * 1e8) / 1e8,
        z: 0,
      }
    })
    const viewBatch = () =>
      viewFrom(
        page,
        offsetPosition(batchOrigin, { eastMeters: 76, northMeters: 36, upMeters: 0 }, 'city'),
        19,
      )
    /**
     * The batch in the close view: where each is drawn, and whether a person sees the map there
     * (not under the notice and status pill on top, the controls, or the upload list the oblique
     * photography's upload leaves in the bottom-right corner; above the pointer readout).
     */
    const batchOnScreen = async () => {
      await viewBatch()
      const box = (await map.boundingBox())!
      const drawnAt = await poisToScreen(
        page,
        batchRows.map((row) => [Number(row.x), Number(row.y), Number(row.z)]),
      )
      const isSeen = await isMapSeenAt(page, drawnAt, 8)
      return drawnAt.map((at, index) => ({
        x: at.x,
        y: at.y,
        isSeen: at.isVisible && isSeen[index] === true && at.y < box.height - 40,
      }))
    }
    await viewBatch()
    const beforeBatch = {
      pixels: await settledPixels(map),
      isSeen: (await batchOnScreen()).map((at) => at.isSeen),
    }
    await inventory.getByRole('button', { name: 'POI 일괄 추가' }).click()
    const batchDialog = page.getByRole('dialog', { name: 'POI 일괄 추가' })
    await batchDialog.getByRole('combobox', { name: '템플릿' }).click()
    await page.getByRole('option', { name: '카메라 (2D)', exact: true }).click()
    await batchDialog.getByLabel('작성한 일괄 파일(.xlsx 또는 .csv)').setInputFiles({
      name: 'pois.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await filledBatchFile(request, token, camera.category_id, batchRows),
    })
    await batchDialog.getByRole('button', { name: '파일 검사' }).click()
    // the server reads the sheet in a worker thread: give a loaded machine time
    await expect(
      batchDialog.getByText('모든 행이 올바릅니다. POI 200개가 추가됩니다.'),
    ).toBeVisible({
      timeout: 60_000,
    })
    await batchDialog.getByRole('button', { name: '추가', exact: true }).click()
    await expect(batchDialog).toBeHidden({ timeout: 60_000 })
    await expect.poll(async () => (await citySnapshot(page)).pois.count).toBe(225)
    await clearSelection(table)
    await table.getByLabel('필터').fill('일괄 카메라')
    await expect(table.getByText('POI 225개 중 200개, 0개 선택됨')).toBeVisible()
    const batchSaved = (await savedPois(page, projectId)).filter((poi) =>
      poi.name.startsWith('일괄 카메라 '),
    )
    expect(batchSaved.map((poi) => [poi.name, poi.x, poi.y, poi.z]).sort()).toEqual(
      batchRows.map((row) => [row.name, row.x, row.y, row.z]).sort(),
    )
    /** The batch in the close view: every whole marker drawn where poiToScreen says. */
    const expectBatchDrawn = async (before: typeof beforeBatch) => {
      // 10 markers under the upload list were drawn, just not seen: only where the map was seen
      // both without the batch and now is a marker looked for
      const inView = (await batchOnScreen()).filter(
        (at, index) => at.isSeen && before.isSeen[index],
      )
      expect(inView.length).toBeGreaterThanOrEqual(12)
      await expect
        .poll(
          async () => {
            const after = await elementPixels(map)
            return inView.filter((at) => changedNear(before.pixels, after, at.x, at.y) <= 40).length
          },
          { timeout: 30_000 },
        )
        .toBe(0)
    }
    await expectBatchDrawn(beforeBatch)

    // Reload: all come back where they were. The dragged camera and the duck are drawn (ringed
    // when clicked) there; each copy is picked where it is drawn (or its cell's other layer,
    // right above it); the batch's markers are drawn where they were.
    pois = await savedPois(page, projectId)
    expect(pois).toHaveLength(225)
    await page.reload()
    await expect(page.getByTestId('city-editor')).toBeVisible({ timeout: 30_000 })
    await expect
      .poll(async () => (await citySnapshot(page)).pois.count, { timeout: 60_000 })
      .toBe(225)
    await page.getByRole('tab', { name: 'POI 관리' }).click()
    // The view settles on the tileset again before positions are read.
    await expect
      .poll(async () => (await citySnapshot(page)).tilesLoaded, { timeout: 60_000 })
      .toBeGreaterThan(0)
    for (const poi of pois.filter((saved) => saved.id === camera.id || saved.id === duck.id)) {
      // Close and tilted: the reloaded view frames the tileset at a zoom where the camera and its
      // 23 copies (30 m apart) cluster into one mark, and its copy 10 m up sits right above it.
      await viewFrom(page, [poi.x, poi.y], 18, 40)
      // The camera may still be settling: wait until the POI is in view.
      await expect
        .poll(async () => (await poiToScreen(page, [poi.x, poi.y, poi.z])).isVisible, {
          timeout: 30_000,
        })
        .toBe(true)
      const at = await poiToScreen(page, [poi.x, poi.y, poi.z])
      // A click where poiToScreen says picks that POI: the marker is drawn there (the dragged
      // camera at its new place), and its selection ring appears around it.
      await map.click({ position: { x: at.x, y: at.y } })
      await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([poi.id])
      await expect.poll(() => ringPixelsAround(page, at), { timeout: 20_000 }).toBeGreaterThan(20)
      await expect(page.getByTestId('city-poi-selected')).toContainText(poi.name)
    }
    await map.click({ position: { x: 5, y: 400 } })
    await expect(page.getByText('POI를 클릭하여 선택')).toBeVisible()
    await viewCopies()
    const layered = [moved, ...copies]
    for (const copy of copies) {
      const picked = await pickPoi(page, await poiToScreen(page, [copy.x, copy.y, copy.z]))
      const cell = layered.filter((poi) => poi.x === copy.x && poi.y === copy.y)
      expect(
        cell.map((poi) => poi.id),
        copy.name,
      ).toContain(picked?.poiId)
    }
    await expectBatchDrawn(beforeBatch)
    await viewCopies()

    // Issue 17 in the city: a copy gets a device, which reports a fire alarm. The city editor
    // hears it on the live stream as the building editor does: the alarm is announced, and the
    // POI's disc turns red and grows around its marker.
    const sensor = copies[0]!
    const renamed = await request.post('/web/poi/updataPoi', {
      headers: { Token: token },
      data: { id: sensor.id, devicecode: 'CITY-SENSOR-1' },
    })
    expect(((await renamed.json()) as { code: string }).code).toBe('0')
    const provisioned = await request.post('/web/iot/provisionDevice', {
      headers: { Token: token },
      data: { poi_id: sensor.id },
    })
    const device = (await provisioned.json()) as { code: string; datum: { token: string } }
    expect(device.code).toBe('0')
    const sent = await request.post(`/api/v1/${device.datum.token}/telemetry`, {
      data: { status: 3, temperature: 81 },
    })
    expect(sent.status()).toBe(200)
    await expect
      .poll(async () => (await citySnapshot(page)).poiStatuses.alarmPoiIds, { timeout: 20_000 })
      .toEqual([sensor.id])
    // named by its device (or its code, for a device provisioned after the editor loaded)
    await expect(toastMessage(page, /^화재 경보: /)).toBeVisible()
    await expect
      .poll(
        async () =>
          ringPixelsAround(
            page,
            await poiToScreen(page, [sensor.x, sensor.y, sensor.z]),
            fireAlarmRing,
          ),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(20)
    // "새 경보 위치로 이동" (fly to new alarms) is on by default: the alarm selected its POI.
    await expect
      .poll(async () => (await citySnapshot(page)).pois.selectedIds, { timeout: 20_000 })
      .toEqual([sensor.id])

    // POI → 경보: the city editor lists the project's alarms as the building editor does. The
    // user moves away, jumps back to the alarm's POI from the list, acknowledges and clears it.
    await page.getByRole('tab', { name: '경보', exact: true }).click()
    const alarm = page
      .getByTestId('iot-alarms')
      .locator('[data-testid="iot-alarm"][data-devicecode="CITY-SENSOR-1"]')
    await expect(alarm).toContainText('화재 경보')
    await expect(alarm).toContainText('활성')
    await map.click({ position: { x: 5, y: 400 } })
    await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([])
    await alarm.getByRole('button', { name: '장면에서 보기' }).click()
    await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([sensor.id])
    await alarm.getByRole('button', { name: '확인', exact: true }).click()
    await expect(alarm).toContainText('확인됨')
    await expect(alarm).toContainText(`${account.name} 님이 확인`)
    await alarm.getByRole('button', { name: '경보 해제' }).click()
    await expect(page.getByTestId('iot-alarms').getByTestId('iot-alarm')).toHaveCount(0)
  })
})
