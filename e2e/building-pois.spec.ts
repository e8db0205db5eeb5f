import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import { zipSync } from 'fflate'
import { copyOffsets, offsetPosition } from '../src/pages/pois/copy-layouts'
import { enableTestApi, setLanguageCookie } from './support/accounts'
import {
  buildingSnapshot,
  createBuildingProject,
  enterBuildingProject,
  oneFloorBoxBuilding,
} from './support/building'
import { type BatchRow, filledBatchFile } from './support/poi-batch-file'
import { changedNear, elementPixels, type RgbaImage, settledPixels } from './support/png-pixels'
import {
  createEditor,
  postApi,
  sharedDataFile,
  signInThroughPage,
  chooseEnglish,
} from './project-helpers'

/**
 * Issue 16 in the building editor as a new user meets it, in Korean (the default language), on
 * the production build and the real server: place a 2D POI (a library template) and a 3D POI (a
 * template made from the Duck) by clicking on the model, move one by dragging along the surface,
 * rotate and raise the Duck with the control bar's sliders, copy the camera as a 4 × 3 × 2
 * multi-layer array through the copy dialog, bulk-edit every POI in the multi-function table,
 * batch-add 200 cameras from the template's filled XLSX (a bad row refused first), filter the
 * table down to them and bulk-edit their heading and a custom property, delete the Duck after
 * confirming, reload and find everything where it was. The markers are
 * checked in pixels where `building.poiToScreen` says they are, on screenshots only: no frame is
 * forced, so every change must have asked the engine for its frame (render on demand).
 */

const building = oneFloorBoxBuilding('POI house')

function runEngine<Result>(page: Page, name: string, args?: unknown): Promise<Result> {
  return page.evaluate(
    ([commandName, commandArgs]) =>
      (
        window.__twinTest as unknown as {
          runEngineCommand(name: string, args?: unknown): Promise<unknown>
        }
      ).runEngineCommand(commandName as string, commandArgs),
    [name, args] as const,
  ) as Promise<Result>
}

/** The project's POIs as the scene loads them (ids and positions). */
async function projectPois(page: Page, token: string, projectId: string) {
  const answer = await postApi<{
    ids: string[]
    names: string[]
    positions: number[]
    heading: number[]
    templates: { id: string }[]
    template: number[]
    floors: string[]
    floor: number[]
  }>(page.request, 'poi/findProjectPoiDetail', { projectid: projectId }, token)
  expect(answer.code, answer.message).toBe('0')
  return answer.datum.ids.map((id, index) => ({
    id,
    name: answer.datum.names[index]!,
    position: answer.datum.positions.slice(index * 3, index * 3 + 3) as [number, number, number],
    heading: answer.datum.heading[index]!,
    templateId: answer.datum.templates[answer.datum.template[index]!]!.id,
    floorId: answer.datum.floors[answer.datum.floor[index]!] ?? '',
  }))
}

test('a new user places 2D and 3D POIs on the building, moves, rotates, raises, copies, bulk-edits and deletes them and finds them after a reload', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(480_000)
  await enableTestApi(page)
  // Signing in and entering the project with the shared (English) helpers; then Korean.
  await chooseEnglish(context, baseURL)
  const account = await createEditor(request)
  const signedIn = await postApi<{ token: string }>(request, 'login', account)
  const token = signedIn.datum.token
  const projectName = `POI house ${Date.now()}`
  const projectId = await createBuildingProject(request, token, projectName)

  // A 3D template of the user's own, made from the Duck (the upload the template form makes).
  const zip: Record<string, Uint8Array> = {}
  for (const name of ['Duck.gltf', 'Duck0.bin', 'DuckCM.png']) {
    zip[`duck/${name}`] = new Uint8Array(await readFile(sharedDataFile(`gltf/Duck/${name}`)))
  }
  const uploaded = await request.post('/web/upload/upload3DPoi', {
    headers: { Token: token },
    multipart: {
      file: { name: 'duck.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync(zip)) },
    },
  })
  const model = (await uploaded.json()) as {
    code: string
    message: string
    datum: { uuid: string; rootPath: string; jpgName: string; xmlName: string; sbmName: string }
  }
  expect(model.code, model.message).toBe('0')
  const duckTemplate = await postApi(
    request,
    'poi/creatPoiCategoryBasic',
    {
      name: '오리 3D',
      poicategory_code: `E2E-DUCK-${Date.now()}`,
      piddes: '2',
      category_zip_uuid: model.datum.uuid,
      // a 3D template's picture is its model's preview, as the template form sets it
      iconpath: `${model.datum.rootPath.replace(/\/?$/, '/')}${model.datum.jpgName}`,
      file_path: model.datum.rootPath,
      jpg_name: model.datum.jpgName,
      xml_name: model.datum.xmlName,
      glbf_name: model.datum.sbmName,
    },
    token,
  )
  expect(duckTemplate.code, duckTemplate.message).toBe('0')

  await signInThroughPage(page, account)
  await enterBuildingProject(page, projectName)
  // The model, through the model library as a user uploads it.
  await building.upload(page)

  await setLanguageCookie(context, baseURL, 'ko')
  await page.evaluate(() => {
    window.location.hash = '#/bim4/poi'
  })
  await page.reload()
  // the engine joins the test API once the editor mounted it, a moment after the page loaded
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect
    .poll(async () => (await buildingSnapshot(page)).models.map((entry) => entry.loadState), {
      timeout: 60_000,
    })
    .toEqual(['success'])
  const panel = page.getByTestId('bim4-poi-panel')
  await expect(panel.getByText('템플릿 선택')).toBeVisible()
  await expect(
    panel.getByText('아직 POI가 없습니다. 템플릿을 선택하고 모델을 클릭하세요.'),
  ).toBeVisible()
  await runEngine(page, 'building.setCamera', { position: [0.01, 6, 0.01], target: [0, 0, 0] })

  const canvas = page.getByTestId('building-canvas')
  const box = (await canvas.boundingBox())!
  const spot2d = { x: box.width * 0.4, y: box.height * 0.5 }
  const spot3d = { x: box.width * 0.6, y: box.height * 0.5 }

  // ---- place a 2D POI: choose the library camera, click on the model
  const before2d = await elementPixels(canvas)
  await panel.getByTestId('bim4-poi-template').filter({ hasText: '카메라 (2D)' }).click()
  await expect(panel.getByText('모델을 클릭하여 “카메라 (2D)”을(를) 배치하세요.')).toBeVisible()
  await canvas.click({ position: spot2d })
  await expect(panel.getByTestId('bim4-poi-item')).toHaveCount(1)
  await expect.poll(async () => (await buildingSnapshot(page)).pois.count).toBe(1)
  await expect.poll(async () => (await projectPois(page, token, projectId)).length).toBe(1)
  const [camera] = await projectPois(page, token, projectId)
  const cameraAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: camera!.position,
  })
  expect(Math.abs(cameraAt.x - spot2d.x)).toBeLessThan(2)
  await expect
    .poll(async () => changedNear(before2d, await elementPixels(canvas), cameraAt.x, cameraAt.y), {
      timeout: 30_000,
    })
    .toBeGreaterThan(40)

  // POIs reach the scene only once the building is open: no engine error in the status bar
  await expect(page.getByText('열린 건물이 없습니다.')).toHaveCount(0)

  // ---- place a 3D POI of the Duck template
  const before3d = await elementPixels(canvas)
  await panel.getByTestId('bim4-poi-template').filter({ hasText: '오리 3D' }).click()
  await canvas.click({ position: spot3d })
  await expect.poll(async () => (await projectPois(page, token, projectId)).length).toBe(2)
  await panel.getByRole('button', { name: '배치 중지' }).click()
  const duck = (await projectPois(page, token, projectId)).find((poi) => poi.id !== camera!.id)!
  const duckAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: duck.position,
  })
  await expect
    .poll(async () => changedNear(before3d, await elementPixels(canvas), duckAt.x, duckAt.y), {
      timeout: 30_000,
    })
    .toBeGreaterThan(40)

  // ---- select the camera by clicking it, move it by dragging, rotate it one step
  await canvas.click({ position: cameraAt })
  await expect.poll(async () => (await buildingSnapshot(page)).pois.selectedIds).toHaveLength(1)
  const control = page.getByRole('toolbar', { name: 'POI 컨트롤' })
  await control.getByRole('button', { name: '이동' }).click()
  const to = { x: box.x + box.width * 0.45, y: box.y + box.height * 0.35 }
  await page.mouse.move(box.x + cameraAt.x, box.y + cameraAt.y)
  await page.mouse.down()
  await page.mouse.move((box.x + cameraAt.x + to.x) / 2, (box.y + cameraAt.y + to.y) / 2, {
    steps: 4,
  })
  await page.mouse.move(to.x, to.y, { steps: 4 })
  await page.mouse.up()
  await expect
    .poll(async () => {
      const moved = (await projectPois(page, token, projectId)).find(
        (poi) => poi.id === camera!.id,
      )!
      return Math.hypot(
        moved.position[0] - camera!.position[0],
        moved.position[2] - camera!.position[2],
      )
    })
    .toBeGreaterThan(0.1)
  // ---- rotate: after the move the rotate tool opens its slider (SPEC §4, §5)
  await control.getByRole('button', { name: '회전' }).click()
  await expect(control.getByRole('button', { name: '회전' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await expect(control.getByRole('slider', { name: '회전' })).toBeVisible()
  await expect(control.getByRole('button', { name: '이동' })).toHaveAttribute(
    'aria-pressed',
    'false',
  )
  // The rotate tool stays while another POI is chosen: the Duck, whose model shows its turn.
  await canvas.click({ position: duckAt })
  await expect.poll(async () => (await buildingSnapshot(page)).pois.selectedIds).toEqual([duck.id])
  const beforeTurn = await settledPixels(canvas)
  const rotation = control.getByRole('slider', { name: '회전' })
  await rotation.focus()
  await rotation.press('PageUp') // ten steps of 15°: a quarter turn and more
  expect(duck.heading).toBe(0) // placed on the top face: facing nowhere in particular
  await expect
    .poll(
      async () =>
        (await projectPois(page, token, projectId)).find((poi) => poi.id === duck.id)!.heading,
    )
    .toBe(150)
  await expect
    .poll(async () => changedNear(beforeTurn, await elementPixels(canvas), duckAt.x, duckAt.y, 24))
    .toBeGreaterThan(60)

  // ---- altitude: its slider raises the Duck by up to 500 mm, towards the camera above
  await control.getByRole('button', { name: '고도' }).click()
  await expect(control.getByRole('slider', { name: '회전' })).toHaveCount(0)
  const altitude = control.getByRole('slider', { name: '고도' })
  await expect(altitude).toBeVisible()
  const beforeRise = await settledPixels(canvas)
  await altitude.focus()
  await altitude.press('End')
  await expect
    .poll(
      async () =>
        (await projectPois(page, token, projectId)).find((poi) => poi.id === duck.id)!.position[1],
    )
    .toBeCloseTo(duck.position[1] + 0.5, 5)
  await expect
    .poll(async () => changedNear(beforeRise, await elementPixels(canvas), duckAt.x, duckAt.y, 24))
    .toBeGreaterThan(60)
  // closing the bar clears the tool and the selection
  await control.getByRole('button', { name: 'POI 컨트롤 닫기' }).click()
  await expect(control).toHaveCount(0)

  // ---- copy the camera as a 4 × 3 × 2 multi-layer array: 24 POIs, the original and 23 copies
  const moved = (await projectPois(page, token, projectId)).find((poi) => poi.id === camera!.id)!
  const movedAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: moved.position,
  })
  await canvas.click({ position: movedAt })
  await expect
    .poll(async () => (await buildingSnapshot(page)).pois.selectedIds)
    .toEqual([camera!.id])
  await control.getByRole('button', { name: 'POI 컨트롤 닫기' }).waitFor()
  const beforeCopy = await settledPixels(canvas)
  await panel.getByRole('button', { name: '복사', exact: true }).click()
  const copyDialog = page.getByRole('dialog', { name: 'POI 복사' })
  await copyDialog.getByRole('radio', { name: '다층 배열' }).check()
  const numbers: [string, string][] = [
    ['행', '4'],
    ['열', '3'],
    ['층', '2'],
    ['행 간격', '0.4'],
    ['열 간격', '0.4'],
    ['층 간격', '0.5'],
  ]
  for (const [label, value] of numbers) {
    const field = copyDialog.getByRole('spinbutton', { name: label, exact: true })
    await field.fill(value)
    await field.press('Tab')
  }
  await expect(copyDialog.getByText('POI 23개를 만듭니다(장면에서 미리 보기).')).toBeVisible()
  // the copies are previewed as ghosts before anything is created
  await expect.poll(async () => (await buildingSnapshot(page)).pois.ghostCount).toBe(23)
  await copyDialog.getByRole('button', { name: '복사', exact: true }).click()
  await expect(copyDialog).toHaveCount(0)
  await expect(panel.getByTestId('bim4-poi-item')).toHaveCount(25)
  await expect(panel.getByText('POI 25개').first()).toBeVisible()
  const offsets = copyOffsets({
    kind: 'multiLayerArray',
    rows: 4,
    columns: 3,
    layers: 2,
    rowSpacingMeters: 0.4,
    columnSpacingMeters: 0.4,
    layerSpacingMeters: 0.5,
  })
  expect(offsets).toHaveLength(23)
  const copies = (await projectPois(page, token, projectId)).filter(
    (poi) => poi.id !== camera!.id && poi.id !== duck.id,
  )
  expect(copies).toHaveLength(23)
  // every cell of the ground layer got its marker (the upper layer's stands right above it)
  const groundCells = offsets.filter((offset) => offset.upMeters === 0)
  for (const offset of groundCells) {
    const position = offsetPosition(moved.position, offset, 'building')
    const copy = copies.find((poi) =>
      poi.position.every((value, axis) => Math.abs(value - position[axis]!) < 1e-6),
    )
    expect(copy, `a copy at ${position.join(', ')}`).toBeDefined()
    const at = await runEngine<{ x: number; y: number; isVisible: boolean }>(
      page,
      'building.poiToScreen',
      { position },
    )
    expect(at.isVisible).toBe(true)
    await expect
      .poll(async () => changedNear(beforeCopy, await elementPixels(canvas), at.x, at.y))
      .toBeGreaterThan(40)
  }

  // ---- bulk edit in the multi-function table: every POI shown turns to face 90°
  await panel.getByRole('button', { name: '표', exact: true }).click()
  const table = panel.getByRole('region', { name: 'POI 다기능 표' })
  await table.getByRole('checkbox', { name: '표시된 POI 모두 선택' }).check()
  await table.getByRole('button', { name: '선택 항목 편집' }).click()
  const bulk = page.getByRole('dialog', { name: 'POI 25개 편집' })
  await bulk.getByRole('textbox', { name: '방향(°)' }).fill('90')
  await bulk.getByRole('button', { name: '수정' }).click()
  await expect(bulk).toHaveCount(0)
  await expect
    .poll(async () => (await projectPois(page, token, projectId)).map((poi) => poi.heading))
    .toEqual(new Array(25).fill(90))
  await panel.getByRole('button', { name: '표', exact: true }).click()

  // ---- batch add: 200 cameras from the template's filled XLSX, a 20 × 10 grid 30 cm apart
  // beside the box, on its floor. Seen close up from above first, without them (pixels to
  // compare with), then after the add and after the reload.
  const batchRows: BatchRow[] = Array.from({ length: 200 }, (_, index) => ({
    name: `일괄 카메라 ${String(index + 1).padStart(3, '0')}`,
    devicecode: `BATCH-${index + 1}`,
    x: Math.round((3 + (index % 20) * 0.3) * 100) / 100,
    y: Math.round(camera!.position[1] * 1000) / 1000,
    z: Math.round((-1.35 + Math.floor(index / 20) * 0.3) * 100) / 100,
    floor_id: camera!.floorId,
  }))
  const batchPositionOf = (row: BatchRow): [number, number, number] => [
    Number(row.x),
    Number(row.y),
    Number(row.z),
  ]
  const closeUp = {
    position: [3.61, camera!.position[1] + 2.5, -0.74],
    target: [3.6, camera!.position[1], -0.75],
  }
  const overview = { position: [0.01, 6, 0.01], target: [0, 0, 0] }
  await runEngine(page, 'building.setCamera', closeUp)
  const beforeBatch = await settledPixels(canvas)
  await runEngine(page, 'building.setCamera', overview)
  await panel.getByRole('button', { name: 'POI 일괄 추가' }).click()
  const batchDialog = page.getByRole('dialog', { name: 'POI 일괄 추가' })
  await batchDialog.getByRole('combobox', { name: '템플릿' }).click()
  await page.getByRole('option', { name: '카메라 (2D)', exact: true }).click()
  const batchInput = batchDialog.getByLabel('작성한 일괄 파일(.xlsx 또는 .csv)')
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  // a row with text for its X: refused by row and column before anything is created
  const badRows = batchRows.map((row, index) => (index === 41 ? { ...row, x: '삼' } : row))
  await batchInput.setInputFiles({
    name: 'pois-bad.xlsx',
    mimeType: xlsx,
    buffer: await filledBatchFile(request, token, camera!.templateId, badRows),
  })
  await batchDialog.getByRole('button', { name: '파일 검사' }).click()
  const refusal = batchDialog.getByRole('alert')
  // the server reads the sheet in a worker thread: give a loaded machine time
  await expect(refusal).toContainText('아무것도 추가되지 않았습니다.', { timeout: 60_000 })
  // the header is row 1: the 42nd POI is on row 43
  await expect(refusal.getByRole('row').filter({ hasText: '43' })).toContainText('x')
  expect(await projectPois(page, token, projectId)).toHaveLength(25)
  await batchInput.setInputFiles({
    name: 'pois.xlsx',
    mimeType: xlsx,
    buffer: await filledBatchFile(request, token, camera!.templateId, batchRows),
  })
  await batchDialog.getByRole('button', { name: '파일 검사' }).click()
  await expect(batchDialog.getByText('모든 행이 올바릅니다. POI 200개가 추가됩니다.')).toBeVisible({
    timeout: 60_000,
  })
  await batchDialog.getByRole('button', { name: '추가', exact: true }).click()
  await expect(batchDialog).toHaveCount(0, { timeout: 60_000 })
  await expect(panel.getByText('POI 225개').first()).toBeVisible()
  await expect.poll(async () => (await buildingSnapshot(page)).pois.count).toBe(225)
  const batchSaved = (await projectPois(page, token, projectId)).filter((poi) =>
    poi.name.startsWith('일괄 카메라 '),
  )
  expect(batchSaved.map((poi) => [poi.name, ...poi.position, poi.floorId]).sort()).toEqual(
    batchRows.map((row) => [row.name, ...batchPositionOf(row), camera!.floorId]).sort(),
  )

  /** A POI's custom property `zone` holds this value (the server's record). */
  const expectZone = async (id: string, value: string) => {
    const detail = await postApi<{ customs: { property_column: string; column_value: string }[] }>(
      page.request,
      'poi/findPoiDetail',
      { id },
      token,
    )
    expect(detail.code, detail.message).toBe('0')
    expect(detail.datum.customs).toContainEqual(
      expect.objectContaining({ property_column: 'zone', column_value: value }),
    )
  }

  /** The batch's markers in the close-up: each visible one drawn where poiToScreen says. */
  const expectBatchDrawn = async (before: RgbaImage) => {
    await runEngine(page, 'building.setCamera', closeUp)
    let checked = 0
    for (const row of batchRows) {
      const at = await runEngine<{ x: number; y: number; isVisible: boolean }>(
        page,
        'building.poiToScreen',
        { position: batchPositionOf(row) },
      )
      // whole markers only (14 px half size), not those cut by the canvas edge
      if (
        !at.isVisible ||
        at.x < 14 ||
        at.y < 14 ||
        at.x > box.width - 14 ||
        at.y > box.height - 14
      )
        continue
      checked++
      await expect
        .poll(async () => changedNear(before, await elementPixels(canvas), at.x, at.y), {
          message: `${row.name} drawn at ${Math.round(at.x)}, ${Math.round(at.y)}`,
        })
        .toBeGreaterThan(40)
    }
    expect(checked).toBeGreaterThanOrEqual(12)
    await runEngine(page, 'building.setCamera', overview)
  }
  await expectBatchDrawn(beforeBatch)

  // ---- filter the table down to the batch and bulk-edit its heading and a custom property
  await panel.getByRole('button', { name: '표', exact: true }).click()
  const clearSelection = table.getByRole('button', { name: '선택 해제' })
  if (await clearSelection.isEnabled()) await clearSelection.click()
  await table.getByLabel('필터').fill('일괄 카메라')
  await expect(table.getByText('POI 225개 중 200개, 0개 선택됨')).toBeVisible()
  await table.getByRole('checkbox', { name: '표시된 POI 모두 선택' }).check()
  await expect(table.getByText('POI 225개 중 200개, 200개 선택됨')).toBeVisible()
  await table.getByRole('button', { name: '선택 항목 편집' }).click()
  const batchBulk = page.getByRole('dialog', { name: 'POI 200개 편집' })
  await batchBulk.getByRole('textbox', { name: '방향(°)' }).fill('-45')
  await batchBulk.getByRole('textbox', { name: '사용자 정의 속성 이름' }).fill('zone')
  await batchBulk.getByRole('textbox', { name: '사용자 정의 속성 값' }).fill('B동 1층')
  await batchBulk.getByRole('button', { name: '수정' }).click()
  await expect(batchBulk).toHaveCount(0)
  // the batch faces −45°, the POIs the filter hid keep their 90°
  await expect
    .poll(async () =>
      (await projectPois(page, token, projectId))
        .map((poi) => [poi.name.startsWith('일괄 카메라 '), poi.heading])
        .filter(([isBatch, heading]) => heading !== (isBatch ? -45 : 90)),
    )
    .toEqual([])
  await expectZone(batchSaved[0]!.id, 'B동 1층')
  await expectZone(batchSaved.at(-1)!.id, 'B동 1층')
  await table.getByLabel('필터').fill('')
  await panel.getByRole('button', { name: '표', exact: true }).click()

  // ---- delete the Duck with the control bar, after confirming
  await canvas.click({ position: duckAt })
  await expect.poll(async () => (await buildingSnapshot(page)).pois.selectedIds).toEqual([duck.id])
  const beforeDelete = await settledPixels(canvas)
  await control.getByRole('button', { name: '삭제' }).click()
  const confirmation = page.getByRole('alertdialog')
  await expect(confirmation).toContainText('오리 3D')
  await confirmation.getByRole('button', { name: '삭제' }).click()
  // the panel lists the first 200 by name; its count says all of them
  await expect(panel.getByText('POI 224개').first()).toBeVisible()
  await expect.poll(async () => (await projectPois(page, token, projectId)).length).toBe(224)
  await expect
    .poll(async () =>
      changedNear(beforeDelete, await elementPixels(canvas), duckAt.x, duckAt.y, 24),
    )
    .toBeGreaterThan(60)

  // ---- reload: everything is where it was, drawn there, in Korean
  await page.reload()
  // the engine joins the test API once the editor mounted it, a moment after the page loaded
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect(page.getByTestId('bim4-poi-panel').getByText('이 건물의 POI')).toBeVisible({
    timeout: 30_000,
  })
  await expect(panel.getByText('POI 224개').first()).toBeVisible({ timeout: 30_000 })
  await expect(panel.getByTestId('bim4-poi-item')).toHaveCount(200)
  await expect
    .poll(async () => (await buildingSnapshot(page)).pois.count, { timeout: 30_000 })
    .toBe(224)
  await runEngine(page, 'building.setCamera', { position: [0.01, 6, 0.01], target: [0, 0, 0] })
  const after = await projectPois(page, token, projectId)
  expect(after.find((poi) => poi.id === camera!.id)!.position).toEqual(moved.position)
  expect(after.find((poi) => poi.id === duck.id)).toBeUndefined()
  // drawn where they are, against the empty model the test began with; the Duck is gone
  const movedAfterAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: moved.position,
  })
  await expect
    .poll(async () =>
      changedNear(before2d, await elementPixels(canvas), movedAfterAt.x, movedAfterAt.y),
    )
    .toBeGreaterThan(40)
  const lastCopyAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: offsetPosition(moved.position, groundCells.at(-1)!, 'building'),
  })
  expect(
    changedNear(before2d, await elementPixels(canvas), lastCopyAt.x, lastCopyAt.y),
  ).toBeGreaterThan(40)
  // the batch: where the file put it, with its edits, drawn there
  const batchAfter = after.filter((poi) => poi.name.startsWith('일괄 카메라 '))
  expect(batchAfter.map((poi) => [poi.name, ...poi.position, poi.heading]).sort()).toEqual(
    batchRows.map((row) => [row.name, ...batchPositionOf(row), -45]).sort(),
  )
  await expectZone(batchAfter[100]!.id, 'B동 1층')
  await expectBatchDrawn(beforeBatch)
})
