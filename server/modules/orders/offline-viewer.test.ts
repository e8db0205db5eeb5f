import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { gzipSync, unzipSync, type Zippable, zipSync } from 'fflate'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumArgs, chromiumExecutablePath } from '../../../tools/chromium'
import { generateRasterBasemap } from '../../../tools/pmtiles/raster-basemap'
import { generateVectorBasemap } from '../../../tools/pmtiles/vector-basemap'
import type { DownloadState } from '../../../contract/offline-package'
import { defaultStyleSetting } from '../../../contract/style'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { sharedFile, uploadFixtureModels } from '../../routes/web/building-test-kit'
import { libraryCamera } from '../../routes/web/pois-test-kit'
import { createProject, postMultipart, signInNewUser } from '../../routes/web/project-test-kit'

const run = promisify(execFile)

/** The offline style's land (src/components/map-picker/offline-style.ts). */
const offlineLand = '#f5f2eb'
/** The neutral style a vector PMTiles archive is drawn in (engine/city/basemap-style.ts). */
const pmtilesColors = { background: '#eef0f2', fill: '#d9dde2' }

/**
 * Pixels of the Duck's yellow: at least this many where a library Duck stands in the view
 * (about a third of what the first runs drew: 12,293 beside the tower, 1,118 by the dragon,
 * 3,414 for the 3D camera POI's Duck on the slab, 3,734 for a city's zoomed in on), fewer
 * than `none` where there is none (0 was drawn; 0 too for the camera POI drawn as its grey
 * icon).
 */
const duckPixels = { building: 4_000, city: 400, poi: 1_000, none: 50 }

/**
 * A style's lights close to white (the viewer's look before it drew the project's style): the
 * default style's orange sun turns a building's grey slabs as yellow as the Duck.
 */
const whiteLights = {
  ambient_light_color: 'rgba(255, 255, 255, 0.3)',
  directional_light_color: 'rgba(255, 255, 255, 1)',
  directional_light_intensity: 0.5,
  hemisphere_intensity: 0,
}

/**
 * The offline package opened as a person would: unzipped with Info-ZIP, `index.html` opened
 * from disk (`file://`) in Chromium with the network cut; the viewer shows the project, the
 * building, the POI list and the project's IndoorGML network — or, for a city, its tilesets on
 * its basemap (the offline style, or the project's PMTiles archive); in both, the model
 * library's models where the editor placed them.
 */
describe('offline package viewer', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let folder: string
  let browser: Browser

  beforeAll(async () => {
    // the viewer is built by `npm run build`; a fresh checkout builds it here
    if (!existsSync('dist/offline-viewer/viewer.js')) {
      await run('npx', ['vite', 'build', '-c', 'vite.viewer.config.ts'])
    }
    testApp = await createTestApp()
    app = testApp.app
    folder = await mkdtemp(join(tmpdir(), 'offline-viewer-'))
    browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await testApp?.close()
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  /** Builds the project's package, downloads it and unzips it; answers the folder. */
  const buildAndUnpack = async (token: string, projectId: string, name: string) => {
    await callApi(app, {
      url: '/web/bimBiz/buildSbkFile',
      token,
      json: { project_id: projectId },
    })
    await app.deps.services.offlinePackages.settle()
    const state = await callApi<DownloadState>(app, {
      url: '/web/bimBiz/checkSbkDownloadState',
      token,
      json: { project_id: projectId },
    })
    const zip = await app.inject({
      method: 'GET',
      url: state.envelope.datum.package!.download_url!,
    })
    expect(zip.statusCode).toBe(200)
    const zipPath = join(folder, `${name}.zip`)
    await writeFile(zipPath, zip.rawPayload)
    const unpacked = join(folder, name)
    await run('unzip', ['-q', zipPath, '-d', unpacked])
    return unpacked
  }

  /** Opens the unpacked viewer offline and waits until it says the scene is up. */
  const openViewer = async (
    unpacked: string,
  ): Promise<{ page: Page; errors: string[]; logged: string[] }> => {
    const context = await browser.newContext({ locale: 'en-US' })
    await context.setOffline(true)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // what the viewer's libraries logged: said when an expectation fails
    const logged: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text())
    })
    // the state is what counts: under load the page's load event alone took over 30 s
    await page.goto(pathToFileURL(join(unpacked, 'index.html')).href, { waitUntil: 'commit' })
    await page.waitForSelector('body[data-viewer="ready"]', { timeout: 120_000 })
    return { page, errors, logged }
  }

  /** A building project of the two-storey slabs (floors at 0 and 3 m, 10 × 10 m). */
  const createSlabsProject = async (token: string, name: string) => {
    const project = await createProject(app, token, { kind: 'building', name })
    await uploadFixtureModels(app, token, project.id, [
      { fixture: 'twoStoreys', fileName: 'two-storeys.sbm' },
    ])
    return project
  }

  /** Saves the project's style: the defaults with `changes`. */
  const saveStyle = async (token: string, projectId: string, changes: object) => {
    const saved = await callApi(app, {
      url: '/web/globalsetting/add',
      token,
      json: { project_id: projectId, setting: { ...defaultStyleSetting, ...changes } },
    })
    expect(saved.envelope.code, saved.envelope.message).toBe('0')
  }

  /** Changes some fields of the project's saved style. */
  const updateStyle = async (token: string, projectId: string, changes: object) => {
    const updated = await callApi(app, {
      url: '/web/globalsetting/update',
      token,
      json: {
        project_id: projectId,
        setting: { version: defaultStyleSetting.version, ...changes },
      },
    })
    expect(updated.envelope.code, updated.envelope.message).toBe('0')
  }

  /** The seeded 3D camera template (its model is the yellow Duck, its icon a grey preview). */
  const camera3dTemplate = async (token: string) => {
    const templates = await callApi<{ list: Array<{ id: string; poicategory_code: string }> }>(
      app,
      { url: '/web/poi/selectPoiTemplatePage', token, json: { keyword: 'camera-3d' } },
    )
    return templates.envelope.datum.list.find(
      (template) => template.poicategory_code === 'camera-3d',
    )!
  }

  /** Places a POI in the project (`/poi/creatPoi` with `fields`). */
  const createPoi = async (token: string, projectId: string, fields: object) => {
    const poi = await callApi(app, {
      url: '/web/poi/creatPoi',
      token,
      json: { projectid: projectId, ...fields },
    })
    expect(poi.envelope.code, poi.envelope.message).toBe('0')
  }

  /**
   * Builds the project's package and opens it from disk: no page errors, the status line says
   * `status` and the POI list names `poiName`.
   */
  const viewPackage = async (
    token: string,
    projectId: string,
    folderName: string,
    expected: { status: string; poiName: string },
  ) => {
    const viewer = await openViewer(await buildAndUnpack(token, projectId, folderName))
    expect(viewer.errors).toEqual([])
    expect(await viewer.page.textContent('#status'), viewer.logged.join('\n')).toBe(expected.status)
    expect(await viewer.page.textContent('#poi-list')).toContain(expected.poiName)
    return viewer.page
  }

  /** Adds a library model (`/cityModel/upload`) to the project where `fields` put it. */
  const addLibraryModel = async (
    token: string,
    projectId: string,
    fields: Record<string, number>,
  ) => {
    const added = await postMultipart(app, '/web/cityModel/upload', token, [
      { name: 'project_id', value: projectId },
      ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
      { name: 'file', value: await sharedFile('gltf/Duck/Duck.glb'), fileName: 'Duck.glb' },
    ])
    expect(added.envelope.code, added.envelope.message).toBe('0')
  }

  /**
   * Shares of the canvas's pixels near each colour (within `tolerance`, summed over channels),
   * and of the pixels near none of them (`centreNone`: in the middle half of the canvas each
   * way, where the camera looks, below the sky); `distinct`: sampled distinct colours;
   * `yellow`: how many pixels are the Duck's yellow, lit or shaded (red and green high, blue
   * low), which nothing else in these scenes is (`centreYellow`: of those, in the middle half);
   * `night`: the share of the night sky's dark blue (every channel below 90, blue above red);
   * `bands`: the mean colour of each tenth of the canvas's rows, top to bottom (the camera looks
   * down on the scene, so the top band is the farthest ground and the bottom one the nearest).
   */
  const canvasColours = (page: Page, colours: string[], tolerance = 24) =>
    page.evaluate(
      ({ colours, tolerance }) => {
        const canvas = document.getElementById('scene') as HTMLCanvasElement
        const copy = document.createElement('canvas')
        copy.width = canvas.width
        copy.height = canvas.height
        const context = copy.getContext('2d')!
        context.drawImage(canvas, 0, 0)
        const pixels = context.getImageData(0, 0, copy.width, copy.height).data
        const targets = colours.map((hex) =>
          [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)),
        )
        const near = targets.map(() => 0)
        let none = 0
        let centreNone = 0
        let centreCount = 0
        let night = 0
        let yellow = 0
        let centreYellow = 0
        const bandCount = 10
        const bandSums = Array.from({ length: bandCount }, () => [0, 0, 0, 0])
        const seen = new Set<number>()
        const count = pixels.length / 4
        for (let index = 0; index < pixels.length; index += 4) {
          const [red, green, blue] = [pixels[index]!, pixels[index + 1]!, pixels[index + 2]!]
          if (index % (4 * 97) === 0) seen.add((red << 16) | (green << 8) | blue)
          const match = targets.findIndex(
            ([r = 0, g = 0, b = 0]) =>
              Math.abs(red - r) + Math.abs(green - g) + Math.abs(blue - b) < tolerance,
          )
          if (match >= 0) near[match]!++
          else none++
          const x = (index / 4) % copy.width
          const y = Math.floor(index / 4 / copy.width)
          const isCentre =
            x >= copy.width / 4 &&
            x < (copy.width * 3) / 4 &&
            y >= copy.height / 4 &&
            y < (copy.height * 3) / 4
          if (isCentre) {
            centreCount++
            if (match < 0) centreNone++
          }
          if (red > 120 && green > 80 && blue < 70 && red - blue > 100) {
            yellow++
            if (isCentre) centreYellow++
          }
          if (Math.max(red, green, blue) < 90 && blue > red) night++
          const band = bandSums[Math.floor((y * bandCount) / copy.height)]!
          band[0]! += red
          band[1]! += green
          band[2]! += blue
          band[3]!++
        }
        return {
          shares: near.map((value) => value / count),
          counts: near,
          none: none / count,
          centreNone: centreNone / Math.max(1, centreCount),
          night: night / count,
          distinct: seen.size,
          yellow,
          centreYellow,
          bands: bandSums.map(([red = 0, green = 0, blue = 0, pixels = 1]) =>
            [red, green, blue].map((sum) => sum / pixels),
          ),
        }
      },
      { colours, tolerance },
    )

  it('opens from disk with no network and shows the building, its library model, the POIs and the GML network', async () => {
    const owner = await signInNewUser(app, `viewer-owner-${Date.now()}`)
    const project = await createSlabsProject(owner, 'Disk tower')
    const floor = await app.deps.database.db
      .selectFrom('building_floors')
      .select('id')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow()
    const camera = await libraryCamera(app, owner)
    await createPoi(owner, project.id, {
      name: 'Lobby camera',
      category_id: camera.id,
      floor_id: floor.id,
      x: 1,
      y: 2,
      z: 1,
    })
    const gml = await postMultipart(app, '/web/upload/uploadGml', owner, [
      { name: 'project_id', value: project.id },
      {
        name: 'file',
        value: await sharedFile('indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml'),
        fileName: 'fjk.gml',
        contentType: 'application/gml+xml',
      },
    ])
    expect(gml.envelope.code, gml.envelope.message).toBe('0')
    // the Duck from the model library, beside the slabs (10 × 10 m around the origin)
    await addLibraryModel(owner, project.id, { x: 9, y: 0.1, z: 6, heading: 45, scale: 3 })
    await saveStyle(owner, project.id, whiteLights)
    const { page, errors } = await openViewer(await buildAndUnpack(owner, project.id, 'tower'))
    expect(errors).toEqual([])
    expect(await page.textContent('#project-name')).toBe('Disk tower')
    expect(await page.textContent('#poi-list')).toContain('Lobby camera')
    // the SBM model and the library model
    expect(await page.textContent('#status')).toBe('2 models, 1 POI')
    // the network, parsed from the package's GML file as the online scene does
    expect(await page.textContent('#network')).toMatch(/^Indoor network: [1-9]\d* states$/)
    expect(await page.isVisible('#network')).toBe(true)
    // a trial package: the watermark shows, and says it is a trial
    expect(await page.isVisible('#watermark')).toBe(true)
    expect(await page.textContent('#watermark')).toBe('Twinscape trial')
    // the building is drawn: the canvas holds more than the background colour; the network's
    // Transitions are drawn on top in green (#43a047): no other part is green
    const colours = await canvasColours(page, ['#43a047'], 40)
    expect(colours.distinct).toBeGreaterThan(10)
    expect(colours.counts[0]).toBeGreaterThan(100)
    // the Duck is drawn
    expect(colours.yellow).toBeGreaterThan(duckPixels.building)
    await page.context().close()
  }, 180_000)

  it("draws the project's style and a 3D template's POI as its model, as the online preview does", async () => {
    const owner = await signInNewUser(app, `viewer-style-${Date.now()}`)
    const project = await createSlabsProject(owner, 'Night tower')
    // the milky way's night sky (SPEC §9 sky 3)
    await saveStyle(owner, project.id, { ...whiteLights, air_style: 3 })
    // a POI of the seeded 3D camera on the upper slab (floors at 0 and 3 m): its model is the
    // yellow Duck, its icon a grey preview
    const camera3d = await camera3dTemplate(owner)
    const floor = await app.deps.database.db
      .selectFrom('building_floors')
      .select('id')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow()
    await createPoi(owner, project.id, {
      name: 'Yard camera',
      category_id: camera3d.id,
      floor_id: floor.id,
      x: 2,
      y: 3.25,
      z: 2,
      heading: 30,
    })
    const page = await viewPackage(owner, project.id, 'night-tower', {
      status: '1 model, 1 POI',
      poiName: 'Yard camera',
    })
    const colours = await canvasColours(page, ['#dfe6ee'])
    // the night sky all around the building (the viewer's own light grey before)
    expect(colours.night).toBeGreaterThan(0.3)
    expect(colours.shares[0]).toBeLessThan(0.01)
    // the camera's POI is its Duck model, textured (its icon would be grey)
    expect(colours.yellow).toBeGreaterThan(duckPixels.poi)
    await page.context().close()
  }, 180_000)

  it("fogs the far ground in the project's fog colour and leaves the near ground as it is", async () => {
    const owner = await signInNewUser(app, `viewer-fog-${Date.now()}`)
    const project = await createSlabsProject(owner, 'Foggy tower')
    // a stone ground out to the horizon, so the canvas's rows go from near ground to far ground
    await saveStyle(owner, project.id, { ...whiteLights, ground_style: 'stoneGravel' })
    const clear = await openViewer(await buildAndUnpack(owner, project.id, 'clear-tower'))
    expect(clear.errors).toEqual([])
    const clearBands = (await canvasColours(clear.page, [])).bands
    await clear.page.context().close()
    // the same scene in an orange fog of the default density (0.3): nothing else is orange
    await updateStyle(owner, project.id, { fog_is_on: true, fog_color: 'rgba(250, 120, 20, 1)' })
    const foggy = await openViewer(await buildAndUnpack(owner, project.id, 'foggy-tower'))
    expect(foggy.errors).toEqual([])
    const foggyBands = (await canvasColours(foggy.page, [])).bands
    await foggy.page.context().close()

    const fromFog = ([red = 0, green = 0, blue = 0]: number[]) =>
      Math.abs(red - 250) + Math.abs(green - 120) + Math.abs(blue - 20)
    const [far, near] = [0, 9]
    const summary = JSON.stringify({ clearBands, foggyBands })
    // far away the ground takes the fog's colour (the first run: 13 from it, 227 without fog)…
    expect(fromFog(foggyBands[far]!), summary).toBeLessThan(110)
    expect(fromFog(clearBands[far]!), summary).toBeGreaterThan(170)
    // …and near the camera it keeps its own (the first run: 213 from it with fog, 224 without)
    expect(fromFog(foggyBands[near]!), summary).toBeGreaterThan(fromFog(foggyBands[far]!) + 80)
    expect(fromFog(clearBands[near]!) - fromFog(foggyBands[near]!), summary).toBeLessThan(40)
  }, 240_000)

  it("draws a city's POI of a 3D template as its model, in metres where it stands", async () => {
    const owner = await signInNewUser(app, `viewer-city-model-${Date.now()}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Mast city' })
    await saveStyle(owner, project.id, whiteLights)
    // the camera on a 25 m mast at the city's default centre (SPEC §9), where the viewer looks
    const camera3d = await camera3dTemplate(owner)
    await createPoi(owner, project.id, {
      name: 'Mast camera',
      category_id: camera3d.id,
      x: 121.6,
      y: 31.2,
      z: 25,
      heading: 30,
    })
    const page = await viewPackage(owner, project.id, 'mast-city', {
      status: '0 tilesets, 1 POI',
      poiName: 'Mast camera',
    })
    // a Duck of about a metre, seen from the 2 km the first view takes in: a pixel or none
    expect((await canvasColours(page, [])).yellow).toBeLessThan(duckPixels.none)
    // the person zooms in on it with the mouse wheel (towards the middle, where it stands)
    const canvas = (await page.locator('#scene').boundingBox())!
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2)
    // (OrbitControls: 0.95 to the power of 94 → from about 1.8 km to 15 m)
    await page.mouse.wheel(0, -9_400)
    // the model, textured yellow (its icon would be grey), in the middle of the view
    await expect
      .poll(async () => (await canvasColours(page, [])).centreYellow, { timeout: 30_000 })
      .toBeGreaterThan(duckPixels.poi)
    const near = await canvasColours(page, [])
    expect(near.centreYellow).toBeGreaterThan(near.yellow * 0.9)
    await page.context().close()
  }, 180_000)

  it("draws a city's tileset on its basemap from disk: the offline style, then its PMTiles archive, with a library model", async () => {
    const owner = await signInNewUser(app, `viewer-city-${Date.now()}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Disk city' })
    // the dragon: an Earth-centred tileset at Cesium's test site (lon −75.61, lat 40.04)
    const tileset = await postMultipart(app, '/web/upload/uploadTiltModel', owner, [
      { name: 'project_id', value: project.id },
      {
        name: 'file',
        value: await sharedFile('zip/derived/tileset-discrete-lod-root.zip'),
        fileName: 'dragon.zip',
      },
    ])
    expect(tileset.envelope.code, tileset.envelope.message).toBe('0')
    const camera = await libraryCamera(app, owner)
    await createPoi(owner, project.id, {
      name: 'Dragon gate',
      category_id: camera.id,
      x: -75.6121,
      y: 40.0425,
      z: 5,
    })

    // the offline style: the tileset stands on Natural Earth's land (Pennsylvania)
    const offline = await openViewer(await buildAndUnpack(owner, project.id, 'city-offline'))
    expect(offline.errors).toEqual([])
    expect(await offline.page.textContent('#status'), offline.logged.join('\n')).toBe(
      '1 tileset, 1 POI',
    )
    expect(await offline.page.textContent('#poi-list')).toContain('Dragon gate')
    const onLand = await canvasColours(offline.page, [offlineLand])
    expect(onLand.shares[0]).toBeGreaterThan(0.2)
    // the dragon's tiles: pixels that are not the ground where the camera looks
    expect(onLand.centreNone).toBeGreaterThan(0.01)
    // no library model yet: nothing yellow
    expect(onLand.yellow).toBeLessThan(duckPixels.none)
    await offline.page.context().close()

    // the project's PMTiles basemap: every tile of a zoom one colour, so the canvas shows which
    const basemap = generateRasterBasemap({ seed: 11, minZoom: 0, maxZoom: 8 })
    const uploaded = await postMultipart<{ id: string }>(app, '/web/upload/uploadBasemap', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: Buffer.from(basemap.bytes), fileName: 'seeded.pmtiles' },
    ])
    expect(uploaded.envelope.code, uploaded.envelope.message).toBe('0')
    const saved = await callApi(app, {
      url: '/web/basemap/save',
      token: owner,
      json: { project_id: project.id, kind: 'pmtiles', pmtiles_id: uploaded.envelope.datum.id },
    })
    expect(saved.envelope.code, saved.envelope.message).toBe('0')
    const withArchive = await openViewer(await buildAndUnpack(owner, project.id, 'city-pmtiles'))
    expect(withArchive.errors).toEqual([])
    // the dragon is a few tens of metres: the ground is far finer than zoom 8, so its tiles are
    // stretched (as MapLibre over-zooms them)
    const onArchive = await canvasColours(withArchive.page, [basemap.colorsByZoom[8]!, offlineLand])
    expect(onArchive.shares[0]).toBeGreaterThan(0.2)
    expect(onArchive.shares[1]).toBeLessThan(0.01)
    await withArchive.page.context().close()

    // a vector archive: every tile a checkerboard in the neutral PMTiles style's colours; both
    // squares on the canvas show the vector tiles were drawn (a raster would be neither)
    const vector = generateVectorBasemap({
      bounds: [-75.7, 39.98, -75.52, 40.1],
      minZoom: 12,
      maxZoom: 16,
    })
    const uploadedVector = await postMultipart<{ id: string }>(
      app,
      '/web/upload/uploadBasemap',
      owner,
      [
        { name: 'project_id', value: project.id },
        { name: 'file', value: Buffer.from(vector.bytes), fileName: 'checkerboard.pmtiles' },
      ],
    )
    expect(uploadedVector.envelope.code, uploadedVector.envelope.message).toBe('0')
    const savedVector = await callApi(app, {
      url: '/web/basemap/save',
      token: owner,
      json: {
        project_id: project.id,
        kind: 'pmtiles',
        pmtiles_id: uploadedVector.envelope.datum.id,
      },
    })
    expect(savedVector.envelope.code, savedVector.envelope.message).toBe('0')
    // the Duck from the model library, 150 times its size, on the ground 600 m south of the
    // dragon (which stands 1.4 km wide around the POI)
    await addLibraryModel(owner, project.id, {
      lng: -75.6121,
      lat: 40.0371,
      heading: 20,
      scale: 150,
    })
    const withVector = await openViewer(await buildAndUnpack(owner, project.id, 'city-vector'))
    expect(withVector.errors).toEqual([])
    expect(await withVector.page.textContent('#status')).toBe('1 tileset, 1 model, 1 POI')
    const onVector = await canvasColours(
      withVector.page,
      [pmtilesColors.fill, pmtilesColors.background, basemap.colorsByZoom[8]!],
      10,
    )
    expect(onVector.shares[0], withVector.logged.join('\n')).toBeGreaterThan(0.05)
    expect(onVector.shares[1]).toBeGreaterThan(0.05)
    expect(onVector.shares[2]).toBeLessThan(0.01)
    expect(onVector.yellow).toBeGreaterThan(duckPixels.city)
    await withVector.page.context().close()
  }, 360_000)

  it('draws a tileset stored gzip-compressed on disk, unpacked to plain files', async () => {
    const owner = await signInNewUser(app, `viewer-gzip-${Date.now()}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Gzip city' })
    // the dragon as some exporters write it: every file gzip-compressed under its own name
    const plain = unzipSync(await sharedFile('zip/derived/tileset-discrete-lod-root.zip'))
    const gzipped: Zippable = {}
    for (const [name, bytes] of Object.entries(plain)) {
      if (!name.endsWith('/')) gzipped[name] = gzipSync(bytes)
    }
    const tileset = await postMultipart<{ stats: { gzip_file_count: number } | null }>(
      app,
      '/web/upload/uploadTiltModel',
      owner,
      [
        { name: 'project_id', value: project.id },
        { name: 'file', value: Buffer.from(zipSync(gzipped)), fileName: 'dragon-gzip.zip' },
      ],
    )
    expect(tileset.envelope.code, tileset.envelope.message).toBe('0')
    expect(tileset.envelope.datum.stats?.gzip_file_count).toBe(Object.keys(gzipped).length)

    const unpacked = await buildAndUnpack(owner, project.id, 'city-gzip')
    // the package's files are plain: its root tileset JSON reads as JSON
    const manifest = JSON.parse(await readFile(join(unpacked, 'manifest.json'), 'utf8'))
    const root = manifest.contents.tilesets[0] as string
    const rootJson = JSON.parse(await readFile(join(unpacked, root), 'utf8'))
    expect(rootJson.asset.version).toMatch(/^1\./)
    const { page, errors, logged } = await openViewer(unpacked)
    expect(errors).toEqual([])
    expect(await page.textContent('#status'), logged.join('\n')).toBe('1 tileset, 0 POIs')
    // a project without POIs says so beside the scene, not a blank strip
    expect(await page.textContent('#poi-list')).toBe('This project has no POIs.')
    const onLand = await canvasColours(page, [offlineLand])
    expect(onLand.shares[0]).toBeGreaterThan(0.2)
    // the dragon's tiles, inflated from the package's scripts
    expect(onLand.centreNone).toBeGreaterThan(0.01)
    await page.context().close()
  }, 180_000)
})
