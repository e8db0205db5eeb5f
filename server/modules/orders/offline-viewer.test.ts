import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumArgs, chromiumExecutablePath } from '../../../tools/chromium'
import type { DownloadState } from '../../../contract/offline-package'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { sbmFixtureFiles, sharedFile } from '../../routes/web/building-test-kit'
import { libraryCamera } from '../../routes/web/pois-test-kit'
import { createProject, postMultipart, signInNewUser } from '../../routes/web/project-test-kit'

const run = promisify(execFile)

/**
 * The offline package opened as a person would: unzipped with Info-ZIP, `index.html` opened
 * from disk (`file://`) in Chromium with the network cut; the viewer shows the project, the
 * building, the POI list and the project's IndoorGML network.
 */
describe('offline package viewer', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let folder: string

  beforeAll(async () => {
    // the viewer is built by `npm run build`; a fresh checkout builds it here
    if (!existsSync('dist/offline-viewer/viewer.js')) {
      await run('npx', ['vite', 'build', '-c', 'vite.viewer.config.ts'])
    }
    testApp = await createTestApp()
    app = testApp.app
    folder = await mkdtemp(join(tmpdir(), 'offline-viewer-'))
  }, 120_000)
  afterAll(async () => {
    await testApp?.close()
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('opens from disk with no network and shows the building, the POIs and the GML network', async () => {
    const owner = await signInNewUser(app, `viewer-owner-${Date.now()}`)
    const project = await createProject(app, owner, { kind: 'building', name: 'Disk tower' })
    const upload = await postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: (await sbmFixtureFiles()).twoStoreys, fileName: 'two-storeys.sbm' },
    ])
    expect(upload.envelope.code, upload.envelope.message).toBe('0')
    const floor = await app.deps.database.db
      .selectFrom('building_floors')
      .select('id')
      .where('project_id', '=', project.id)
      .executeTakeFirstOrThrow()
    const camera = await libraryCamera(app, owner)
    const poi = await callApi(app, {
      url: '/web/poi/creatPoi',
      token: owner,
      json: {
        projectid: project.id,
        name: 'Lobby camera',
        category_id: camera.id,
        floor_id: floor.id,
        x: 1,
        y: 2,
        z: 1,
      },
    })
    expect(poi.envelope.code, poi.envelope.message).toBe('0')
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
    await callApi(app, {
      url: '/web/bimBiz/buildSbkFile',
      token: owner,
      json: { project_id: project.id },
    })
    await app.deps.services.offlinePackages.settle()
    const state = await callApi<DownloadState>(app, {
      url: '/web/bimBiz/checkSbkDownloadState',
      token: owner,
      json: { project_id: project.id },
    })
    const url = state.envelope.datum.package!.download_url!
    const zip = await app.inject({ method: 'GET', url })
    expect(zip.statusCode).toBe(200)
    const zipPath = join(folder, 'package.zip')
    const { writeFile } = await import('node:fs/promises')
    await writeFile(zipPath, zip.rawPayload)
    const unpacked = join(folder, 'unpacked')
    await run('unzip', ['-q', zipPath, '-d', unpacked])

    const browser = await chromium.launch({
      executablePath: chromiumExecutablePath,
      args: chromiumArgs,
    })
    try {
      const context = await browser.newContext({ locale: 'en-US' })
      await context.setOffline(true)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(pathToFileURL(join(unpacked, 'index.html')).href)
      await page.waitForSelector('body[data-viewer="ready"]', { timeout: 60_000 })
      expect(errors).toEqual([])
      expect(await page.textContent('#project-name')).toBe('Disk tower')
      expect(await page.textContent('#poi-list')).toContain('Lobby camera')
      expect(await page.textContent('#status')).toBe('1 models, 1 POIs')
      // the network, parsed from the package's GML file as the online scene does
      expect(await page.textContent('#network')).toMatch(/^Indoor network: [1-9]\d* states$/)
      expect(await page.isVisible('#network')).toBe(true)
      // a trial package: the watermark shows
      expect(await page.isVisible('#watermark')).toBe(true)
      // the building is drawn: the canvas holds more than the background colour
      const colours = await page.evaluate(() => {
        const canvas = document.getElementById('scene') as HTMLCanvasElement
        const copy = document.createElement('canvas')
        copy.width = canvas.width
        copy.height = canvas.height
        const context = copy.getContext('2d')!
        context.drawImage(canvas, 0, 0)
        const pixels = context.getImageData(0, 0, copy.width, copy.height).data
        const seen = new Set<number>()
        for (let index = 0; index < pixels.length; index += 4 * 97) {
          seen.add((pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]!)
        }
        // the network's Transitions, drawn on top in green (#43a047): no other part is green
        let network = 0
        for (let index = 0; index < pixels.length; index += 4) {
          const [red, green, blue] = [pixels[index]!, pixels[index + 1]!, pixels[index + 2]!]
          if (Math.abs(red - 0x43) + Math.abs(green - 0xa0) + Math.abs(blue - 0x47) < 40) network++
        }
        return { distinct: seen.size, network }
      })
      expect(colours.distinct).toBeGreaterThan(10)
      expect(colours.network).toBeGreaterThan(100)
    } finally {
      await browser.close()
    }
  }, 180_000)
})
