import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { zipSync } from 'fflate'
import { enableTestApi, startSignedIn } from './support/accounts'
import { citySnapshot, createCityProject, sharedCityData } from './support/city'
import { createEditor } from './project-helpers'

/**
 * City POIs as a new user meets them (issue 16 acceptance), in the Korean UI (the default): place
 * a 2D POI on the map and a 3D POI on the oblique photography by clicking, move one and turn
 * the other with the control bar, reload, and find both where they were — with pixel checks
 * that the markers are drawn where `city.poiToScreen` says (the selection ring around them).
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
  x: number
  y: number
  z: number
  heading: number
}

/** The project's POIs as the server saved them. */
async function savedPois(page: Page, projectId: string): Promise<SavedPoi[]> {
  return page.evaluate(async (projectid) => {
    const response = await fetch('/web/poi/findPoi?pageNo=1&pageSize=100', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: localStorage.getItem('token') ?? '' },
      body: JSON.stringify({ projectid }),
    })
    const envelope = (await response.json()) as { code: string; datum: { list: SavedPoi[] } }
    if (envelope.code !== '0') throw new Error(JSON.stringify(envelope))
    return envelope.datum.list
  }, projectId)
}

/** Where a position is drawn on the map (CSS pixels of the map element), via the test API. */
async function poiToScreen(page: Page, position: [number, number, number]) {
  return page.evaluate(
    (at) => window.__twinTest!.runEngineCommand('city.poiToScreen', { position: at }),
    position,
  )
}

/**
 * Pixels of the selection ring (amber) around a map point, from a screenshot of the map (what a
 * person sees): the ring is drawn 20 px around the marker's centre.
 */
async function ringPixelsAround(page: Page, point: { x: number; y: number }): Promise<number> {
  const map = page.getByTestId('city-map')
  const png = await map.screenshot()
  return page.evaluate(
    async ({ base64, x, y }) => {
      const image = new Image()
      image.src = `data:image/png;base64,${base64}`
      await image.decode()
      const canvas = document.createElement('canvas')
      canvas.width = image.naturalWidth
      canvas.height = image.naturalHeight
      const context = canvas.getContext('2d')!
      context.drawImage(image, 0, 0)
      const { data, width } = context.getImageData(0, 0, canvas.width, canvas.height)
      let count = 0
      for (let dy = -26; dy <= 26; dy++) {
        for (let dx = -26; dx <= 26; dx++) {
          const distance = Math.hypot(dx, dy)
          if (distance < 15 || distance > 25) continue
          const index = (Math.round(y + dy) * width + Math.round(x + dx)) * 4
          const [red = 0, green = 0, blue = 0] = data.subarray(index, index + 3)
          if (red > 200 && green > 140 && green < 225 && blue < 90) count++
        }
      }
      return count
    },
    { base64: png.toString('base64'), x: point.x, y: point.y },
  )
}

test.describe('city POIs', () => {
  test.setTimeout(300_000)

  test('a new user places 2D and 3D POIs on the map and the oblique photography, moves, turns, reloads', async ({
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
      .poll(async () => (await citySnapshot(page)).tilesLoaded, { timeout: 90_000 })
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

    // Move it with the control bar's move tool: a click puts it there.
    await manage.getByRole('button', { name: '이동' }).click()
    await map.click({ position: { x: 160, y: 120 } })
    await expect
      .poll(async () => (await savedPois(page, projectId)).find((poi) => poi.id === camera.id)?.x)
      .not.toBe(camera.x)
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

    // Reload: both come back where they were, drawn there.
    pois = await savedPois(page, projectId)
    await page.reload()
    await expect(page.getByTestId('city-editor')).toBeVisible({ timeout: 30_000 })
    await expect
      .poll(async () => (await citySnapshot(page)).pois.count, { timeout: 60_000 })
      .toBe(2)
    await expect(page.getByRole('tab', { name: 'POI 관리' })).toBeVisible()
    // The view settles on the tileset again before positions are read.
    await expect
      .poll(async () => (await citySnapshot(page)).tilesLoaded, { timeout: 60_000 })
      .toBeGreaterThan(0)
    await page.waitForTimeout(1_000)
    for (const poi of pois) {
      const at = await poiToScreen(page, [poi.x, poi.y, poi.z])
      expect(at.isVisible).toBe(true)
      // A click where poiToScreen says picks that POI: the marker is drawn there, and its
      // selection ring appears around it.
      await map.click({ position: { x: at.x, y: at.y } })
      await expect.poll(async () => (await citySnapshot(page)).pois.selectedIds).toEqual([poi.id])
      await expect.poll(() => ringPixelsAround(page, at), { timeout: 20_000 }).toBeGreaterThan(20)
      await expect(page.getByTestId('city-poi-selected')).toContainText(poi.name)
    }
    await map.click({ position: { x: 5, y: 400 } })
    await expect(page.getByText('POI를 클릭하여 선택')).toBeVisible()
  })
})
