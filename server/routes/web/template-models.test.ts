import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { unzipSync, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TemplateModelDatum } from '../../../contract/template-files'
import { readImageHeader } from '../../modules/images/image-header'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { createTestApp, signIn, type TestApp, testAdmin, testEditor } from '../../testing/test-app'
import { markAsSymlink, sharedFile } from './building-test-kit'
import { postMultipart, signInNewUser } from './project-test-kit'
import { seededTemplateModels } from '../../modules/template-files/seed-template-models'

const onlyZip = 'Only zip can be uploaded.'

describe('3D template zip upload (/upload/upload3DPoi, /upload/upload3DGLBFPoi)', () => {
  let testApp: TestApp
  let editor: string
  let otherEditor: string
  let guest: string
  let admin: string

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    otherEditor = await signInNewUser(testApp.app, 'template-neighbour')
    guest = await signInNewUser(testApp.app, 'template-guest', 'guest')
    admin = await signIn(testApp.app, testAdmin)
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const upload = (
    zip: Uint8Array,
    token = editor,
    url = '/web/upload/upload3DPoi',
    name = 'model.zip',
  ) =>
    postMultipart<TemplateModelDatum>(testApp.app, url, token, [
      { name: 'file', value: Buffer.from(zip), fileName: name, contentType: 'application/zip' },
    ])

  const get = (url: string) => testApp.app.inject({ method: 'GET', url })

  /** Folders of template models on disk, staging leftovers included, to catch half-writes. */
  const modelFolders = async () =>
    readdir(join(testApp.config.dataDir, 'template-models')).catch(() => [] as string[])
  const modelRows = async () =>
    testApp.app.deps.database.db.selectFrom('template_models').select('id').execute()

  it('makes a template model from a zip holding a GLB: SBM, preview PNG and XML are served', async () => {
    const zip = await sharedFile('zip/derived/model-duck-glb.zip')
    const { statusCode, envelope } = await upload(zip)
    expect(statusCode).toBe(200)
    expect(envelope.code).toBe('0')
    const datum = envelope.datum
    expect(datum.rootPath).toBe(`/web/templateModels/${datum.uuid}/`)
    expect(datum.sbmName).toBe(`${datum.uuid}.sbm`)
    expect(datum.jpgName).toBe(`${datum.uuid}.png`)
    expect(datum.xmlName).toBe(`${datum.uuid}.xml`)
    expect(datum.sourceName).toBe('Duck.glb')
    expect(datum.triangleCount).toBe(4212)

    // anyone may load the files (a template shows in shared projects), without a token
    const sbm = await get(`${datum.rootPath}${datum.sbmName}`)
    expect(sbm.statusCode).toBe(200)
    expect(sbm.headers['content-type']).toBe('model/gltf-binary')
    expect(describeSbm(sbm.rawPayload).triangleCount).toBe(4212)

    const preview = await get(`${datum.rootPath}${datum.jpgName}`)
    expect(preview.statusCode).toBe(200)
    expect(preview.headers['content-type']).toBe('image/png')
    const header = readImageHeader(preview.rawPayload)
    expect(header).toMatchObject({ format: 'png', widthPixels: 128, heightPixels: 128 })
    // the model was drawn: a good share of the pixels are opaque, the corners transparent
    expect(opaqueShare(preview.rawPayload)).toBeGreaterThan(0.15)

    const xml = await get(`${datum.rootPath}${datum.xmlName}`)
    expect(xml.statusCode).toBe(200)
    expect(xml.body).toContain('<source name="Duck.glb" format="glb"/>')
    expect(xml.body).toContain(`file="${datum.sbmName}"`)

    // other names under the model's folder are not served
    expect((await get(`${datum.rootPath}model.sbm`)).statusCode).toBe(404)
    expect((await get(`${datum.rootPath}..%2F..%2Ftwinscape.sqlite`)).statusCode).toBe(404)
  })

  it('converts a multi-file glTF in a folder, and a DAE with its texture', async () => {
    const separate = await upload(await sharedFile('zip/derived/model-duck-gltf-separate.zip'))
    expect(separate.envelope.code).toBe('0')
    expect(separate.envelope.datum.sourceName).toBe('Duck.gltf')
    const nested = await upload(await sharedFile('zip/derived/model-boxtextured-nested-folder.zip'))
    expect(nested.envelope.code).toBe('0')
    const dae = await upload(await sharedFile('zip/derived/convert-duck-dae.zip'))
    expect(dae.envelope.code).toBe('0')
    expect(dae.envelope.datum.sourceName).toBe('duck.dae')
  })

  it('answers conversion warnings as catalogue ids with parameters (a missing texture)', async () => {
    const full = unzipSync(await sharedFile('zip/derived/model-duck-gltf-separate.zip'))
    const { 'DuckCM.png': _texture, ...withoutTexture } = full
    const { statusCode, envelope } = await upload(zipSync(withoutTexture))
    expect(statusCode).toBe(200)
    expect(envelope.datum.warnings).toContainEqual({
      messageId: 'convert.textureMissing',
      params: { name: 'DuckCM.png' },
      message: 'The texture DuckCM.png is missing; its material is left untextured.',
    })
  })

  it('upload3DGLBFPoi takes glTF/GLB zips only', async () => {
    const glb = await upload(
      await sharedFile('zip/derived/model-duck-glb.zip'),
      editor,
      '/web/upload/upload3DGLBFPoi',
    )
    expect(glb.envelope.code).toBe('0')
    const before = await modelRows()
    const dae = await upload(
      await sharedFile('zip/derived/convert-duck-dae.zip'),
      editor,
      '/web/upload/upload3DGLBFPoi',
    )
    expect(dae.statusCode).toBe(415)
    expect(dae.envelope.messageId).toBe('templateModel.onlyGltf')
    expect(await modelRows()).toHaveLength(before.length)
  })

  it('seeds the system library on an empty database: models and previews served, usable by anyone', async () => {
    const models = testApp.app.deps.services.templateModels
    const neighbour = (await testApp.app.deps.repositories.users.findByName('template-neighbour'))!
    for (const seeded of seededTemplateModels) {
      const datum = await models.findUsable({ id: neighbour.id, role: 'editor' }, seeded.id)
      expect(datum.sourceName).toBe(seeded.sourceName)
      const sbm = await get(`${datum.rootPath}${datum.sbmName}`)
      expect(describeSbm(sbm.rawPayload).triangleCount).toBeGreaterThan(0)
      const preview = await get(`${datum.rootPath}${datum.jpgName}`)
      expect(opaqueShare(preview.rawPayload)).toBeGreaterThan(0.1)
    }
    // only system models are seeded, once
    const system = await testApp.app.deps.database.db
      .selectFrom('template_models')
      .select('id')
      .where('owner_id', 'is', null)
      .execute()
    expect(system).toHaveLength(seededTemplateModels.length)
  })

  describe('uploadGltfForSbm with category_zip_uuid', () => {
    const convert = (token: string, categoryZipUuid: string, glb: Buffer) =>
      postMultipart<{ uuid: string; sbmName: string }>(
        testApp.app,
        '/web/upload/uploadGltfForSbm',
        token,
        [
          { name: 'category_zip_uuid', value: categoryZipUuid },
          { name: 'option_type', value: 'add' },
          { name: 'glbf_arr', value: glb, fileName: 'Box.glb' },
        ],
      )

    it("replaces the 3D template's model with the converted glTF, for its owner", async () => {
      const made = (await upload(await sharedFile('zip/derived/model-duck-glb.zip'))).envelope.datum
      const { statusCode, envelope } = await convert(
        editor,
        made.uuid,
        await sharedFile('gltf/edge-cases/Box.glb'),
      )
      expect(statusCode).toBe(200)
      expect(envelope.datum.sbmName).toBe(`${envelope.datum.uuid}.sbm`)
      const sbm = await get(`${made.rootPath}${made.sbmName}`)
      expect(describeSbm(sbm.rawPayload).triangleCount).toBe(12)
      const xml = await get(`${made.rootPath}${made.xmlName}`)
      expect(xml.body).toContain('<source name="Box.sbm"')
    })

    it("refuses another editor's template model and an unknown id, converting nothing", async () => {
      const made = (await upload(await sharedFile('zip/derived/model-duck-glb.zip'))).envelope.datum
      const box = await sharedFile('gltf/edge-cases/Box.glb')
      const converted = () =>
        testApp.app.deps.database.db.selectFrom('converted_models').select('id').execute()
      const before = (await converted()).length
      const other = await convert(otherEditor, made.uuid, box)
      expect(other.statusCode).toBe(404)
      expect(other.envelope.messageId).toBe('templateModel.notFound')
      const unknown = await convert(editor, '5a1c3c8e-0000-4000-8000-000000000000', box)
      expect(unknown.envelope.messageId).toBe('templateModel.notFound')
      expect(await converted()).toHaveLength(before)
      const sbm = await get(`${made.rootPath}${made.sbmName}`)
      expect(describeSbm(sbm.rawPayload).triangleCount).toBe(4212)
    })
  })

  describe('bad input: a clear message and nothing half-created', () => {
    const expectNothingNew = async (run: () => Promise<unknown>) => {
      const rows = await modelRows()
      const folders = await modelFolders()
      await run()
      expect(await modelRows()).toHaveLength(rows.length)
      expect(await modelFolders()).toEqual(folders)
    }

    it('refuses a file that is not a zip, whatever its name', async () => {
      await expectNothingNew(async () => {
        const glb = await upload(
          await sharedFile('gltf/Duck/Duck.glb'),
          editor,
          undefined,
          'Duck.glb',
        )
        expect(glb.statusCode).toBe(415)
        expect(glb.envelope.messageId).toBe('templateModel.onlyZip')
        expect(glb.envelope.message).toContain('Only zip can be uploaded')
        const renamed = await upload(
          await sharedFile('gltf/Duck/Duck.glb'),
          editor,
          undefined,
          'Duck.zip',
        )
        expect(renamed.envelope.messageId).toBe('templateModel.onlyZip')
      })
      expect(onlyZip).toBe('Only zip can be uploaded.')
    })

    it('refuses a zip without a model, naming it', async () => {
      await expectNothingNew(async () => {
        const { statusCode, envelope } = await upload(
          await sharedFile('zip/derived/no-model-inside.zip'),
          editor,
          undefined,
          'empty.zip',
        )
        expect(statusCode).toBe(415)
        expect(envelope.messageId).toBe('building.zipHasNoModel')
        expect(envelope.params).toEqual({ file: 'empty.zip' })
      })
    })

    it('refuses a model that fails to convert (missing .bin), with the converter reason', async () => {
      await expectNothingNew(async () => {
        const { envelope } = await upload(
          await sharedFile('zip/derived/model-boxtextured-missing-bin.zip'),
        )
        expect(envelope.code).not.toBe('0')
        expect(envelope.messageId).toBe('templateModel.conversionRefused')
        expect(envelope.params).toEqual({ file: 'BoxTextured.gltf' })
      })
    })

    it('refuses a glTF 1.0 model and a zip holding two models', async () => {
      await expectNothingNew(async () => {
        const old = await upload(
          zipSync({
            'old.glb': new Uint8Array(await sharedFile('gltf/edge-cases/glTF1.0-BoxTextured.glb')),
          }),
        )
        expect(old.envelope.messageId).toBe('templateModel.conversionRefused')
        const box = new Uint8Array(await sharedFile('gltf/edge-cases/Box.glb'))
        const two = await upload(zipSync({ 'a.glb': box, 'b.glb': box }))
        expect(two.statusCode).toBe(400)
        expect(two.envelope.messageId).toBe('templateModel.oneModel')
        expect(two.envelope.params).toEqual({ file: 'model.zip', count: 2 })
      })
    })

    it('refuses a zip bomb before inflating it', async () => {
      await expectNothingNew(async () => {
        // 40 MB of zeros deflate ~1000-fold: far past the 250:1 ratio real models reach
        const bomb = zipSync({ 'big.glb': new Uint8Array(40 * 1024 * 1024) })
        const { statusCode, envelope } = await upload(bomb)
        expect([413, 415]).toContain(statusCode)
        expect(envelope.messageId).toBe('model.zipRefused')
      })
    })

    it('refuses path traversal and symbolic links', async () => {
      await expectNothingNew(async () => {
        const box = new Uint8Array(await sharedFile('gltf/edge-cases/Box.glb'))
        const climbing = await upload(zipSync({ '../../escape.glb': box }))
        expect(climbing.envelope.messageId).toBe('model.zipRefused')
        expect(JSON.stringify(climbing.envelope.datum)).toContain('archive.unsafeEntryName')
        const linked = await upload(markAsSymlink(zipSync({ 'model.glb': box }), 'model.glb'))
        expect(linked.envelope.messageId).toBe('model.zipRefused')
      })
    })

    it('asks for the zip when none came', async () => {
      const { statusCode, envelope } = await postMultipart(
        testApp.app,
        '/web/upload/upload3DPoi',
        editor,
        [{ name: 'note', value: 'no file' }],
      )
      expect(statusCode).toBe(400)
      expect(envelope.messageId).toBe('templateModel.chooseZip')
    })
  })

  describe('access', () => {
    it('anonymous callers and guests cannot upload; editors and admins can', async () => {
      const zip = await sharedFile('zip/derived/model-duck-glb.zip')
      const anonymous = await testApp.app.inject({
        method: 'POST',
        url: '/web/upload/upload3DPoi',
        payload: {},
      })
      expect(anonymous.json().code).toBe('2011')
      expect((await upload(zip, guest)).statusCode).toBe(403)
      expect((await upload(zip, otherEditor)).envelope.code).toBe('0')
      expect((await upload(zip, admin)).envelope.code).toBe('0')
    })

    it("a template may use its owner's models and system models; another editor's are not found", async () => {
      const models = testApp.app.deps.services.templateModels
      const mine = (await upload(await sharedFile('zip/derived/model-duck-glb.zip'))).envelope.datum
      const users = testApp.app.deps.repositories.users
      const owner = (await users.findByName(testEditor.name))!
      const neighbour = (await users.findByName('template-neighbour'))!
      const adminUser = (await users.findByName(testAdmin.name))!
      await expect(
        models.findUsable({ id: owner.id, role: 'editor' }, mine.uuid),
      ).resolves.toMatchObject({
        uuid: mine.uuid,
      })
      await expect(
        models.findUsable({ id: neighbour.id, role: 'editor' }, mine.uuid),
      ).rejects.toMatchObject({ messageId: 'templateModel.notFound' })
      await expect(
        models.findUsable({ id: adminUser.id, role: 'admin' }, mine.uuid),
      ).resolves.toBeDefined()
      await expect(
        models.findUsable({ id: owner.id, role: 'editor' }, 'not-a-uuid'),
      ).rejects.toMatchObject({ messageId: 'templateModel.notFound' })
    })
  })
})

/** Share of opaque pixels in an RGBA PNG made by the server's encoder (one IDAT, "Up" filter). */
function opaqueShare(png: Uint8Array): number {
  const bytes = Buffer.from(png)
  const chunks: Buffer[] = []
  let width = 0
  let height = 0
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('ascii', offset + 4, offset + 8)
    if (type === 'IHDR') {
      width = bytes.readUInt32BE(offset + 8)
      height = bytes.readUInt32BE(offset + 12)
    }
    if (type === 'IDAT') chunks.push(bytes.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(chunks))
  const stride = width * 4 + 1
  let previous = new Uint8Array(width * 4)
  let opaque = 0
  for (let row = 0; row < height; row++) {
    const current = new Uint8Array(width * 4)
    for (let index = 0; index < width * 4; index++) {
      current[index] = (raw[row * stride + 1 + index]! + previous[index]!) & 0xff
    }
    for (let column = 0; column < width; column++) if (current[column * 4 + 3] === 255) opaque++
    previous = current
  }
  return opaque / (width * height)
}
