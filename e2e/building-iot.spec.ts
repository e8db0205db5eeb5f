import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { enableTestApi, setLanguageCookie } from './support/accounts'
import {
  buildingSnapshot,
  createBuildingProject,
  enterBuildingProject,
  oneFloorBoxBuilding,
} from './support/building'
import { decodePng } from './support/png-pixels'
import {
  chooseEnglish,
  createEditor,
  postApi,
  signInThroughPage,
  toastMessage,
} from './project-helpers'

/**
 * Issue 17 in the building editor, in Korean, on the production build and the real server: a
 * user provisions a device for a POI that has a device code (POI → 장치), reads its token once,
 * and the device simulator (`npm run devices:simulate`) posts through the real HTTP ingest. The
 * value appears in the device list by itself (live stream), a fire alarm (code 3) turns the
 * POI's disc red on the canvas and lists the alarm, which the user acknowledges, records an
 * inspection of (findings, a photo, resolved: listed under the alarm) and clears;
 * back to normal (code 2) the disc turns green. Nothing sleeps: every step polls what it needs.
 */

const run = promisify(execFile)
const building = oneFloorBoxBuilding('IoT house')
/** A small PNG the inspection step attaches as its photo. */
const inspectionPhoto = fileURLToPath(
  new URL('../server/resources/cases/building-cover.png', import.meta.url),
)

/** Runs the device simulator as a person would, against the e2e server. */
async function simulate(baseURL: string, token: string, ...options: string[]) {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'tools/devices-simulate.ts',
      '--url',
      baseURL,
      '--tokens',
      token,
      ...options,
    ],
    { timeout: 60_000 },
  )
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ sent: 1, statuses: [200] })
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

/**
 * Pixels of one tone in a ring around a POI on the canvas as the compositor shows it, where the
 * POI is on screen now: the status disc shows between the marker (14 px) and the disc's edge
 * (about 23 px for an alarm, 18 px otherwise; a selection ring covers 15–20 px).
 */
async function toneAroundPoi(
  page: Page,
  canvas: Locator,
  position: [number, number, number],
  isTone: (red: number, green: number, blue: number) => boolean,
  [innerPixels, outerPixels]: [number, number],
): Promise<number> {
  const at = await runEngine<{ x: number; y: number }>(page, 'building.poiToScreen', { position })
  const image = decodePng(await canvas.screenshot())
  let count = 0
  for (let dy = -24; dy <= 24; dy++) {
    for (let dx = -24; dx <= 24; dx++) {
      const distance = Math.hypot(dx, dy)
      if (distance < innerPixels || distance > outerPixels) continue
      const offset = ((Math.round(at.y) + dy) * image.width + Math.round(at.x) + dx) * 4
      const [red, green, blue] = [
        image.data[offset] ?? 0,
        image.data[offset + 1] ?? 0,
        image.data[offset + 2] ?? 0,
      ]
      if (isTone(red, green, blue)) count++
    }
  }
  return count
}

const isRed = (red: number, green: number, blue: number) => red > 170 && green < 100 && blue < 100
const isGreen = (red: number, green: number, blue: number) => green > 120 && red < 110 && blue < 110

test('a user provisions a POI’s device, the simulator’s value and fire alarm show live, the alarm is acknowledged, inspected and cleared', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000)
  await enableTestApi(page)
  await chooseEnglish(context, baseURL)
  const account = await createEditor(request)
  const token = (await postApi<{ token: string }>(request, 'login', account)).datum.token
  const projectName = `IoT house ${Date.now()}`
  const projectId = await createBuildingProject(request, token, projectName)
  await signInThroughPage(page, account)
  await enterBuildingProject(page, projectName)
  await building.upload(page)
  const floorId = (await buildingSnapshot(page)).floors[0]!.id
  // a sensor POI with a device code on the box (the library's 2D camera template)
  const templates = await postApi<{ list: { id: string; poicategory_code: string }[] }>(
    request,
    'poi/selectPoiTemplatePage',
    { keyword: 'CAM-2D' },
    token,
  )
  const template = templates.datum.list.find((entry) => entry.poicategory_code === 'CAM-2D')!
  // beside the (red) box, so from above the POI's disc is seen against the grey background
  const position: [number, number, number] = [1.5, 0.5, 0]
  const made = await postApi<{ id: string }>(
    request,
    'poi/creatPoi',
    {
      projectid: projectId,
      name: '로비 센서',
      category_id: template.id,
      x: position[0],
      y: position[1],
      z: position[2],
      floor_id: floorId,
      devicecode: 'LOBBY-1',
    },
    token,
  )
  expect(made.code, made.message).toBe('0')
  // a camera POI playing the product's HLS sample, away from the sensor
  const cameraPoi = await postApi<{ id: string }>(
    request,
    'poi/creatPoi',
    {
      projectid: projectId,
      name: '로비 카메라',
      category_id: template.id,
      x: -1.5,
      y: -0.5,
      z: 0,
      floor_id: floorId,
      customs: [{ property_column: 'stream_url', column_value: '/samples/hls/master.m3u8' }],
    },
    token,
  )
  expect(cameraPoi.code, cameraPoi.message).toBe('0')

  // ---- in Korean, POI → IoT 장치: provision the sensor's device; its token is shown once
  await setLanguageCookie(context, baseURL, 'ko')
  await page.evaluate(() => {
    window.location.hash = '#/bim4/poi'
  })
  await page.reload()
  await page.waitForFunction(() => typeof window.__twinTest?.getEngineSnapshot === 'function')
  await expect
    .poll(async () => (await buildingSnapshot(page)).models.map((entry) => entry.loadState), {
      timeout: 60_000,
    })
    .toEqual(['success'])
  await expect.poll(async () => (await buildingSnapshot(page)).pois.count).toBe(2)

  // ---- POI → 이벤트 연동: the sensor's alarm opens the camera (tab "POI 연동")
  await page.getByRole('link', { name: '이벤트 연동', exact: true }).click()
  const linkage = page.getByTestId('event-linkage')
  await linkage.getByRole('combobox', { name: '원본 POI' }).click()
  await page.getByRole('option', { name: '로비 센서', exact: true }).click()
  await linkage.getByRole('tab', { name: 'POI 연동' }).click()
  await linkage.getByRole('button', { name: '로비 카메라 연동', exact: true }).click()
  await expect(linkage.getByTestId('linkage-linked')).toContainText('로비 카메라')

  await page.getByRole('link', { name: 'IoT 장치', exact: true }).click()
  const panel = page.getByTestId('iot-devices')
  await expect(panel.getByTestId('iot-live')).toHaveText('실시간')
  await expect(panel.getByText('아직 장치가 없습니다.')).toBeVisible()
  await panel.getByRole('combobox', { name: '장치 코드가 있는 POI' }).click()
  await page.getByRole('option', { name: '로비 센서 (LOBBY-1)' }).click()
  await panel.getByRole('button', { name: '장치 등록' }).click()
  const dialog = page.getByRole('dialog', { name: '장치 토큰' })
  await expect(dialog.getByText('이번 한 번만 표시됩니다', { exact: false })).toBeVisible()
  const deviceToken = await dialog.getByRole('textbox', { name: '로비 센서의 토큰' }).inputValue()
  expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
  await dialog.getByRole('button', { name: '완료' }).click()
  await expect(dialog).toHaveCount(0)
  const device = panel.getByTestId('iot-device').filter({ hasText: 'LOBBY-1' })
  await expect(device.getByTestId('iot-device-status')).toHaveText('아직 상태 없음')

  // the camera looks down at the box; the POI has no status disc yet
  await runEngine(page, 'building.setCamera', { position: [0.01, 6, 0.01], target: [0, 0, 0] })
  const canvas = page.getByTestId('building-canvas')
  const alarmRing: [number, number] = [20.5, 23]
  const redBefore = await toneAroundPoi(page, canvas, position, isRed, alarmRing)

  // ---- the simulator sends a value through the real ingest: it appears by itself
  await simulate(baseURL!, deviceToken, '--values', 'temperature=21.5')
  await expect(device.getByTestId('iot-device-values')).toHaveText('temperature 21.5')

  // ---- a fire alarm: status text, a red disc around the POI, the alarm listed
  await simulate(baseURL!, deviceToken, '--status', '3', '--values', 'temperature=68.5')
  await expect(device.getByTestId('iot-device-status')).toHaveText('화재 경보')
  await expect(device.getByTestId('iot-device-values')).toHaveText('temperature 68.5')
  await expect
    .poll(async () => (await buildingSnapshot(page)).poiStatuses.alarmPoiIds)
    .toEqual([made.datum.id])
  await expect
    .poll(async () => (await toneAroundPoi(page, canvas, position, isRed, alarmRing)) - redBefore, {
      timeout: 30_000,
    })
    .toBeGreaterThan(40)
  // the linkage: the new alarm selected its POI (and the camera flew there), and the linked
  // camera plays the sample over the stage: its time advances and a frame is not black
  expect((await buildingSnapshot(page)).pois.selectedIds).toEqual([made.datum.id])
  const linked = page.getByTestId('linked-videos')
  const video = linked.getByTestId('video-player').locator('video')
  await expect(video).toBeVisible()
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), {
      timeout: 30_000,
    })
    .toBeGreaterThan(0.5)
  const brightness = await video.evaluate((element: HTMLVideoElement) => {
    const board = document.createElement('canvas')
    board.width = 32
    board.height = 18
    const context2d = board.getContext('2d')!
    context2d.drawImage(element, 0, 0, board.width, board.height)
    const { data } = context2d.getImageData(0, 0, board.width, board.height)
    let sum = 0
    for (let index = 0; index < data.length; index += 4)
      sum += data[index]! + data[index + 1]! + data[index + 2]!
    return sum / (data.length / 4) / 3
  })
  expect(brightness).toBeGreaterThan(10)
  await linked.getByRole('button', { name: '연동 닫기' }).click()
  await expect(linked).toHaveCount(0)

  // the new device is open below the list, with its chart of the rollups
  await expect(device).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('iot-device-chart').locator('canvas')).toBeVisible()

  // ---- POI → 경보: acknowledge, then clear
  await page.getByRole('link', { name: '경보', exact: true }).click()
  const alarms = page.getByTestId('iot-alarms')
  const alarm = alarms.getByTestId('iot-alarm').filter({ hasText: '로비 센서' })
  await expect(alarm).toContainText('화재 경보')
  await expect(alarm).toContainText('활성')
  await alarm.getByRole('button', { name: '확인', exact: true }).click()
  await expect(alarm).toContainText('확인됨')
  await expect(alarm).toContainText(`${account.name} 님이 확인`)
  // an inspection of the alarm, with a photo, listed under it (issue 17 item 7)
  await alarm.getByRole('button', { name: '점검 추가' }).click()
  const inspection = alarm.getByTestId('inspection-form')
  await inspection.getByLabel('점검 결과').fill('주방 토스터의 연기. 감지기를 청소했습니다.')
  await inspection.getByLabel('사진 추가').setInputFiles(inspectionPhoto)
  await expect(inspection.getByRole('img', { name: '첨부 1' })).toBeVisible()
  await inspection.getByRole('combobox', { name: '상태' }).click()
  await page.getByRole('option', { name: '해결됨' }).click()
  await inspection.getByRole('button', { name: '점검 기록' }).click()
  await expect(toastMessage(page, '점검을 기록했습니다.')).toBeVisible()
  const inspections = alarm.getByTestId('inspections')
  await expect(inspections).toContainText('점검 (1)')
  await expect(inspections).toContainText('주방 토스터의 연기. 감지기를 청소했습니다.')
  await expect(inspections).toContainText('해결됨')
  const thumbnail = inspections.getByRole('img', { name: '첨부 1' })
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0)
  const recorded = await postApi<{
    list: { alarm_id: string; state: string; photos: unknown[] }[]
  }>(request, 'investigation/find', { projectid: projectId }, token)
  expect(recorded.datum.list).toMatchObject([{ state: 'resolved', photos: [{}] }])
  await alarm.getByRole('button', { name: '경보 해제' }).click()
  await expect(toastMessage(page, '경보를 해제했습니다.')).toBeVisible()
  // the open list no longer has it; the server recorded who cleared it
  await expect(alarms.getByTestId('iot-alarm')).toHaveCount(0)
  const cleared = await postApi<{ list: { state: string; cleared_by: string }[] }>(
    request,
    'alarmrecord/find',
    { projectid: projectId },
    token,
  )
  expect(cleared.datum.list).toMatchObject([{ state: 'cleared', cleared_by: account.name }])

  // ---- back to normal: the disc turns green (the selection ring, which would cover the
  // smaller disc of a normal status, is taken off first)
  await runEngine(page, 'building.selectPois', { ids: [] })
  await simulate(baseURL!, deviceToken, '--status', '2')
  await expect.poll(async () => (await buildingSnapshot(page)).poiStatuses.alarmPoiIds).toEqual([])
  await expect(page.getByTestId('iot-alarms')).toBeVisible()
  await expect
    .poll(async () => toneAroundPoi(page, canvas, position, isGreen, [15, 18]), {
      timeout: 30_000,
    })
    .toBeGreaterThan(40)

  // ---- 방문 → 기능 확장: a simulated fault goes through the same alarm path
  await page.getByRole('link', { name: '방문', exact: true }).click()
  await page.getByRole('link', { name: '기능 확장' }).click()
  const simulator = page.getByRole('region', { name: '경보 시뮬레이션' })
  await simulator.getByRole('combobox', { name: '장치' }).click()
  await page.getByRole('option', { name: '로비 센서' }).click()
  await simulator.getByRole('combobox', { name: '경보' }).click()
  await page.getByRole('option', { name: '고장' }).click()
  await simulator.getByRole('button', { name: '경보 발생' }).click()
  await expect(toastMessage(page, /^경보가 발생했습니다\./)).toBeVisible()
  await expect
    .poll(async () => (await buildingSnapshot(page)).poiStatuses.alarmPoiIds)
    .toEqual([made.datum.id])
  const raised = await postApi<{ list: { state: string; code: number }[] }>(
    request,
    'alarmrecord/find',
    { projectid: projectId, state: 'active' },
    token,
  )
  expect(raised.datum.list).toMatchObject([{ state: 'active', code: 11 }])
})
