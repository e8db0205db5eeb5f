import { randomBytes, randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buffer } from 'node:stream/consumers'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TemplatePage, templateRoutes } from '../../../contract/templates'
import { seededTemplateModels } from '../../modules/template-files/seed-template-models'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import {
  filesUnder,
  startTestObjectStore,
  type TestObjectStore,
} from '../../testing/test-object-store'
import { sbmFixtureFiles } from './building-test-kit'
import { createProject, postMultipart, sampleFiles, signInNewUser } from './project-test-kit'
import { buildPackageToEnd } from './orders-test-kit'

/**
 * 3D template models' files live in the file store's `template-models` area (issue 22): on a
 * folder store at `DATA_DIR/template-models/<id>/`, where earlier versions kept them, and with
 * STORAGE_URL in the bucket only. Either way they are served (proxied or by a redirect to the
 * store's signed address) and packed into offline packages; a replaced SBM switches to whole
 * new files, and folders no model names are swept.
 */

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

const camera = seededTemplateModels.find((model) => model.code === 'camera-3d')!
const shippedCameraSbm = () =>
  readFile(new URL('../../resources/template-models/camera.sbm', import.meta.url))

describe.each(['folder', 'proxy', 'redirect'] as const)(
  'template models in the store (%s)',
  (mode) => {
    let testApp: TestApp
    beforeAll(async () => {
      testApp = await createTestApp(
        mode === 'folder' ? {} : { env: objectStore.env(`template-models-${mode}`, mode) },
      )
    })
    afterAll(async () => {
      await testApp?.close()
    })

    /** The bytes a browser gets at `url` (following a redirect to the store). */
    const download = async (url: string) => {
      const answer = await testApp.app.inject({ method: 'GET', url })
      if (mode !== 'redirect') {
        expect(answer.statusCode).toBe(200)
        return { type: answer.headers['content-type'], body: answer.rawPayload }
      }
      expect(answer.statusCode).toBe(302)
      const location = String(answer.headers.location)
      expect(location.startsWith(objectStore.endpoint)).toBe(true)
      const fromStore = await fetch(location)
      expect(fromStore.status).toBe(200)
      return {
        type: fromStore.headers.get('content-type') ?? undefined,
        body: Buffer.from(await fromStore.arrayBuffer()),
      }
    }

    it('serves seeded and uploaded models from the store and replaces an SBM with whole new files', async () => {
      const { app, config } = testApp
      const modelFiles = app.deps.storage.named('template-models')
      const modelsFolder = join(config.dataDir, 'template-models')

      // the seeded models were written through the store: on a folder where they always were
      expect((await modelFiles.list(camera.id)).map((file) => file.name)).toEqual([
        'model.sbm',
        'model.xml',
        'preview.png',
      ])
      expect((await filesUnder(join(modelsFolder, camera.id))).sort()).toEqual(
        mode === 'folder' ? ['model.sbm', 'model.xml', 'preview.png'] : [],
      )
      if (mode !== 'folder') expect(await filesUnder(modelsFolder)).toEqual([])
      const root = `/web/templateModels/${camera.id}/`
      const seeded = await download(`${root}${camera.id}.sbm`)
      expect(seeded.type).toBe('model/gltf-binary')
      expect(seeded.body.equals(await shippedCameraSbm())).toBe(true)

      const name = `template-store-${mode}-${randomBytes(3).toString('hex')}`
      await signInNewUser(app, name)
      const owner = await app.deps.database.db
        .selectFrom('users')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
      const { twoStoreys, duck } = await sbmFixtureFiles()
      const { templateModels } = app.deps.services
      const made = await templateModels.createFromSbm(owner.id, 'tower.sbm', twoStoreys, {
        preview: (await sampleFiles()).png,
      })
      expect((await download(`${made.rootPath}${made.sbmName}`)).body.equals(twoStoreys)).toBe(true)
      expect((await download(`${made.rootPath}${made.jpgName}`)).type).toBe('image/png')

      const replaced = await templateModels.replaceSbm(
        { id: owner.id, role: 'editor' },
        made.uuid,
        'duck.sbm',
        duck,
      )
      expect(replaced).toMatchObject({ uuid: made.uuid, sourceName: 'duck.sbm' })
      // the same addresses answer the new model whole; the old files are gone from the store
      expect((await download(`${made.rootPath}${made.sbmName}`)).body.equals(duck)).toBe(true)
      const xml = (await download(`${made.rootPath}${made.xmlName}`)).body.toString()
      expect(xml).toContain('<source name="duck.sbm" format="sbm"/>')
      expect(await modelFiles.list(made.uuid)).toEqual([])
      const row = await app.deps.database.db
        .selectFrom('template_models')
        .select('files_folder')
        .where('id', '=', made.uuid)
        .executeTakeFirstOrThrow()
      expect((await modelFiles.list(row.files_folder!)).map((file) => file.name)).toEqual([
        'model.sbm',
        'model.xml',
        'preview.png',
      ])

      // folders no model names (a write cut short before its row) go at the sweep, at start-up
      // whatever their age; every model's folder stays
      const stray = randomUUID()
      await modelFiles.write(`${stray}/model.sbm`, duck)
      const sweep = templateModels.sweepTask()
      expect(await sweep.sweep('periodic')).toBe(0)
      expect(await sweep.sweep('startup')).toBe(1)
      expect(await modelFiles.list(stray)).toEqual([])
      expect(await modelFiles.list(camera.id)).toHaveLength(3)
      expect(await modelFiles.list(row.files_folder!)).toHaveLength(3)
    }, 120_000)

    it('packs a 3D template model from the store into the offline package', async () => {
      const { app } = testApp
      const owner = await signInNewUser(
        app,
        `template-pack-${mode}-${randomBytes(3).toString('hex')}`,
      )
      const project = await createProject(app, owner, { kind: 'building', name: 'Model tower' })
      const upload = await postMultipart(app, '/web/upload/uploadZip', owner, [
        { name: 'project_id', value: project.id },
        { name: 'file', value: (await sbmFixtureFiles()).twoStoreys, fileName: 'two-storeys.sbm' },
      ])
      expect(upload.envelope.code, upload.envelope.message).toBe('0')
      const page = await callApi<TemplatePage>(app, {
        url: templateRoutes.selectTemplatePage.path,
        token: owner,
        json: { keyword: camera.code },
      })
      const template = page.envelope.datum.list.find((t) => t.poicategory_code === camera.code)!
      const floor = await app.deps.database.db
        .selectFrom('building_floors')
        .select('id')
        .where('project_id', '=', project.id)
        .executeTakeFirstOrThrow()
      const poi = await callApi(app, {
        url: '/web/poi/creatPoi',
        token: owner,
        json: {
          projectid: project.id,
          name: 'Hall camera',
          category_id: template.id,
          floor_id: floor.id,
          x: 1,
          y: 2,
          z: 3,
        },
      })
      expect(poi.envelope.code, poi.envelope.message).toBe('0')
      // with a bucket no model file is on this machine: the package reads them from the store
      if (mode !== 'folder') {
        expect(await filesUnder(join(testApp.config.dataDir, 'template-models'))).toEqual([])
      }
      const built = await buildPackageToEnd(app, owner, project.id)
      const zip = await buffer(
        await app.deps.storage.named('offline-packages').open(`${project.id}/${built.id}.zip`),
      )
      const entries = unzipSync(new Uint8Array(zip))
      const packed = entries[`templates/models/${camera.id}/model.sbm`]
      expect(packed && Buffer.from(packed).equals(await shippedCameraSbm())).toBe(true)
      expect(entries[`templates/models/${camera.id}/preview.png`]?.byteLength).toBeGreaterThan(500)
    }, 120_000)
  },
)
