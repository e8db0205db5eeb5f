import { readFile } from 'node:fs/promises'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { zipSync } from 'fflate'
import { copyOffsets, offsetPosition } from '../src/pages/pois/copy-layouts'
import { enableTestApi, setLanguageCookie } from './support/accounts'
import {
  buildingSnapshot,
  createBuildingProject,
  enterBuildingProject,
  oneFloorBoxBuilding,
} from './support/building'
import { decodePng, type RgbaImage } from './support/png-pixels'
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
 * delete the Duck after confirming, reload and find everything where it was. The markers are
 * checked in pixels where `building.poiToScreen` says they are, on screenshots only: no frame is
 * forced, so every change must have asked the engine for its frame (render on demand).
 */

const building = oneFloorBoxBuilding('POI house')

/**
 * The canvas as the compositor shows it (the engine keeps no drawing buffer), decoded in Node.
 * No frame is forced: the engine must have drawn every change on its own (render on demand).
 */
async function canvasPixels(canvas: Locator): Promise<RgbaImage> {
  return decodePng(await canvas.screenshot())
}

/**
 * The canvas once it stopped changing (two captures in a row alike): a selection ring or a
 * hover drawn a frame later does not count as the change a step is about to make.
 */
async function settledCanvas(canvas: Locator) {
  let last = await canvasPixels(canvas)
  await expect
    .poll(async () => {
      const next = await canvasPixels(canvas)
      const isSame = Buffer.from(next.data).equals(Buffer.from(last.data))
      last = next
      return isSame
    })
    .toBe(true)
  return last
}

/** How many pixels within `radius` of (x, y) differ between two captures of the canvas. */
function changedNear(
  before: RgbaImage,
  after: RgbaImage,
  x: number,
  y: number,
  radius = 6,
): number {
  let changed = 0
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const offset = ((Math.round(y) + dy) * before.width + Math.round(x) + dx) * 4
      const difference =
        Math.abs((before.data[offset] ?? 0) - (after.data[offset] ?? 0)) +
        Math.abs((before.data[offset + 1] ?? 0) - (after.data[offset + 1] ?? 0)) +
        Math.abs((before.data[offset + 2] ?? 0) - (after.data[offset + 2] ?? 0))
      if (difference > 30) changed++
    }
  }
  return changed
}

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
  test.setTimeout(300_000)
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
  const before2d = await canvasPixels(canvas)
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
    .poll(async () => changedNear(before2d, await canvasPixels(canvas), cameraAt.x, cameraAt.y), {
      timeout: 30_000,
    })
    .toBeGreaterThan(40)

  // POIs reach the scene only once the building is open: no engine error in the status bar
  await expect(page.getByText('열린 건물이 없습니다.')).toHaveCount(0)

  // ---- place a 3D POI of the Duck template
  const before3d = await canvasPixels(canvas)
  await panel.getByTestId('bim4-poi-template').filter({ hasText: '오리 3D' }).click()
  await canvas.click({ position: spot3d })
  await expect.poll(async () => (await projectPois(page, token, projectId)).length).toBe(2)
  await panel.getByRole('button', { name: '배치 중지' }).click()
  const duck = (await projectPois(page, token, projectId)).find((poi) => poi.id !== camera!.id)!
  const duckAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: duck.position,
  })
  await expect
    .poll(async () => changedNear(before3d, await canvasPixels(canvas), duckAt.x, duckAt.y), {
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
  const beforeTurn = await settledCanvas(canvas)
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
    .poll(async () => changedNear(beforeTurn, await canvasPixels(canvas), duckAt.x, duckAt.y, 24))
    .toBeGreaterThan(60)

  // ---- altitude: its slider raises the Duck by up to 500 mm, towards the camera above
  await control.getByRole('button', { name: '고도' }).click()
  await expect(control.getByRole('slider', { name: '회전' })).toHaveCount(0)
  const altitude = control.getByRole('slider', { name: '고도' })
  await expect(altitude).toBeVisible()
  const beforeRise = await settledCanvas(canvas)
  await altitude.focus()
  await altitude.press('End')
  await expect
    .poll(
      async () =>
        (await projectPois(page, token, projectId)).find((poi) => poi.id === duck.id)!.position[1],
    )
    .toBeCloseTo(duck.position[1] + 0.5, 5)
  await expect
    .poll(async () => changedNear(beforeRise, await canvasPixels(canvas), duckAt.x, duckAt.y, 24))
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
  const beforeCopy = await settledCanvas(canvas)
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
      .poll(async () => changedNear(beforeCopy, await canvasPixels(canvas), at.x, at.y))
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

  // ---- delete the Duck with the control bar, after confirming
  await canvas.click({ position: duckAt })
  await expect.poll(async () => (await buildingSnapshot(page)).pois.selectedIds).toEqual([duck.id])
  const beforeDelete = await settledCanvas(canvas)
  await control.getByRole('button', { name: '삭제' }).click()
  const confirmation = page.getByRole('alertdialog')
  await expect(confirmation).toContainText('오리 3D')
  await confirmation.getByRole('button', { name: '삭제' }).click()
  await expect(panel.getByTestId('bim4-poi-item')).toHaveCount(24)
  await expect.poll(async () => (await projectPois(page, token, projectId)).length).toBe(24)
  await expect
    .poll(async () => changedNear(beforeDelete, await canvasPixels(canvas), duckAt.x, duckAt.y, 24))
    .toBeGreaterThan(60)

  // ---- reload: everything is where it was, drawn there, in Korean
  await page.reload()
  // the engine joins the test API once the editor mounted it, a moment after the page loaded
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect(page.getByTestId('bim4-poi-panel').getByText('이 건물의 POI')).toBeVisible({
    timeout: 30_000,
  })
  await expect(panel.getByTestId('bim4-poi-item')).toHaveCount(24, { timeout: 30_000 })
  await expect
    .poll(async () => (await buildingSnapshot(page)).pois.count, { timeout: 30_000 })
    .toBe(24)
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
      changedNear(before2d, await canvasPixels(canvas), movedAfterAt.x, movedAfterAt.y),
    )
    .toBeGreaterThan(40)
  const lastCopyAt = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', {
    position: offsetPosition(moved.position, groundCells.at(-1)!, 'building'),
  })
  expect(
    changedNear(before2d, await canvasPixels(canvas), lastCopyAt.x, lastCopyAt.y),
  ).toBeGreaterThan(40)
})
