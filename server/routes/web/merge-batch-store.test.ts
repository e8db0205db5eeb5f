import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MergeStatusDatum } from '../../../contract/model-config'
import type { BatchCreatePoiDatum } from '../../../contract/pois'
import type { UploadPoiTemplateDatum } from '../../../contract/template-files'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import {
  downloadAsBrowser,
  filesUnder,
  startTestObjectStore,
  type TestObjectStore,
} from '../../testing/test-object-store'
import { sbmFixtureFiles } from './building-test-kit'
import { createProject, postMultipart, sampleFiles, signInNewUser } from './project-test-kit'
import { libraryCamera } from './pois-test-kit'

/**
 * Structure-merge ZIPs and filled batch-POI files live in the file store (issue 22): areas
 * `model-merges` (`<id>.zip`) and `poi-batch-files` (`<id>.xlsx`), on a folder store at
 * `DATA_DIR/model-merges/` and `DATA_DIR/poi-batch-files/` as before, with STORAGE_URL in the
 * bucket only. A merge's ZIP downloads whole and by Range (proxied or by a signed redirect); a
 * stored batch file creates its POIs from any process sharing the store; files no row names
 * are swept.
 */

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

describe.each(['folder', 'proxy', 'redirect'] as const)(
  'merges and batch files in the store (%s)',
  (mode) => {
    let testApp: TestApp
    let owner: string
    beforeAll(async () => {
      testApp = await createTestApp(
        mode === 'folder' ? {} : { env: objectStore.env(`merges-${mode}`, mode) },
      )
      owner = await signInNewUser(
        testApp.app,
        `store-areas-${mode}-${randomBytes(3).toString('hex')}`,
      )
    })
    afterAll(async () => {
      await testApp?.close()
    })

    /** The bytes a browser gets at `url` (following a redirect to the store). */
    const download = (url: string, headers: Record<string, string> = {}) =>
      downloadAsBrowser(testApp.app, url, {
        headers,
        redirectsTo: mode === 'redirect' ? objectStore : undefined,
      })

    it("stores a structure merge's ZIP, sends it whole and by Range, and sweeps ZIPs no merge names", async () => {
      const { app, config } = testApp
      const { duck, twoStoreys } = await sbmFixtureFiles()
      const { png } = await sampleFiles()
      const file = (name: string, fileName: string, value: Buffer) => ({ name, value, fileName })
      const started = await postMultipart<MergeStatusDatum>(app, '/web/modelConfig/merge', owner, [
        { name: 'output_name', value: 'Tower' },
        file('shell', 'duck.sbm', duck),
        file('shell_maps', 'wall.png', png),
        file('floors', '1F.sbm', twoStoreys),
        file('floor_maps', 'floor.png', png),
        file('preview', 'preview.png', png),
      ])
      expect(started.envelope.code, started.envelope.message).toBe('0')
      const { id } = started.envelope.datum
      await app.deps.services.structureMerges.settled(id)
      const status = await callApi<MergeStatusDatum>(app, {
        url: '/web/modelConfig/mergeStatus',
        token: owner,
        form: { id },
      })
      const result = status.envelope.datum.result!
      expect(status.envelope.datum.state, JSON.stringify(status.envelope.datum.error)).toBe(
        'succeeded',
      )
      const merges = app.deps.storage.named('model-merges')
      expect(await merges.list('')).toMatchObject([
        { name: `${id}.zip`, sizeBytes: result.sizeBytes },
      ])
      expect(await filesUnder(join(config.dataDir, 'model-merges'))).toEqual(
        mode === 'folder' ? [`${id}.zip`] : [],
      )

      const whole = await download(result.downloadPath)
      expect(whole.status).toBe(200)
      expect(whole.header('content-type')).toBe('application/zip')
      expect(whole.header('content-disposition')).toContain('Tower.zip')
      expect(whole.body.byteLength).toBe(result.sizeBytes)
      expect(Object.keys(unzipSync(new Uint8Array(whole.body))).sort()).toEqual(
        ['1F.sbm', 'Tower.json', 'duck.sbm', 'preview.png'].sort(),
      )
      const rest = await download(result.downloadPath, { range: 'bytes=100-' })
      expect(rest.status).toBe(206)
      expect(rest.body.equals(whole.body.subarray(100))).toBe(true)

      const stray = `${randomUUID()}.zip`
      await merges.write(stray, Buffer.from('PK cut short'))
      const sweep = app.deps.services.structureMerges.sweepTask()
      expect(await sweep.sweep('periodic')).toBe(0)
      expect(await sweep.sweep('startup')).toBe(1)
      expect((await merges.list('')).map((listed) => listed.name)).toEqual([`${id}.zip`])
    }, 120_000)

    it('keeps a filled batch-POI file in the store and creates its POIs from it', async () => {
      const { app, config } = testApp
      const camera = await libraryCamera(app, owner)
      const project = await createProject(app, owner, { name: 'Batch store city' })
      const template = await app.inject({
        method: 'POST',
        url: '/web/poi/downloadPoiTemplate',
        headers: { token: owner },
        payload: { pid: camera.id },
      })
      expect(template.statusCode).toBe(200)
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(template.rawPayload as unknown as ArrayBuffer)
      const sheet = workbook.worksheets[0]!
      const keys = (sheet.getRow(1).values as unknown[]).slice(1) as string[]
      const row: Record<string, unknown> = {
        name: 'Stored',
        devicecode: `S-${mode}`,
        x: 121.4,
        y: 31.2,
      }
      sheet.addRow(keys.map((key) => row[key] ?? null))
      const filled = Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer)

      const stored = await postMultipart<UploadPoiTemplateDatum>(
        app,
        '/web/poi/uploadPoiTemplate',
        owner,
        [
          { name: 'pid', value: camera.id },
          { name: 'file', value: filled, fileName: 'stored.xlsx' },
        ],
      )
      expect(stored.envelope.code, stored.envelope.message).toBe('0')
      const { uuid } = stored.envelope.datum
      const batchFiles = app.deps.storage.named('poi-batch-files')
      expect(await batchFiles.list('')).toMatchObject([
        { name: `${uuid}.xlsx`, sizeBytes: filled.byteLength },
      ])
      expect(await filesUnder(join(config.dataDir, 'poi-batch-files'))).toEqual(
        mode === 'folder' ? [`${uuid}.xlsx`] : [],
      )

      const batch = () =>
        postMultipart<BatchCreatePoiDatum>(app, '/web/poi/batchCreatPoi', owner, [
          { name: 'projectid', value: project.id },
          { name: 'pid', value: camera.id },
          { name: 'uuid', value: uuid },
        ])
      const created = await batch()
      expect(created.envelope.code, created.envelope.message).toBe('0')
      expect(created.envelope.datum.count).toBe(1)

      // files no row names go at the sweep; the stored one stays
      const stray = `${randomUUID()}.xlsx`
      await batchFiles.write(stray, filled)
      const sweep = app.deps.services.poiBatchFiles.sweepTask()
      expect(await sweep.sweep('periodic')).toBe(0)
      expect(await sweep.sweep('startup')).toBe(1)
      expect((await batchFiles.list('')).map((listed) => listed.name)).toEqual([`${uuid}.xlsx`])

      // a row whose file is gone from the store says so, as before
      await batchFiles.remove(`${uuid}.xlsx`)
      const gone = await batch()
      expect(gone.statusCode).toBe(404)
      expect(gone.envelope.messageId).toBe('poiBatch.fileNotFound')
    }, 120_000)
  },
)
