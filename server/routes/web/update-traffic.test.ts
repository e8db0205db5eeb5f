import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FloorUploadDatum } from '../../../contract/building'
import type { ObliquePhotograph } from '../../../contract/city'
import type { ShoppingLine, ShoppingListDatum, UsageHistory } from '../../../contract/orders'
import type { Project } from '../../../contract/project'
import { defaultStyleSetting } from '../../../contract/style'
import { timestampOf } from '../../modules/time/clock'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { sbmFixtureFiles, sharedFile } from './building-test-kit'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'

/**
 * Update traffic (issue 20, SPEC §3 line type '2'): a file that replaces a record's earlier file
 * — a model's new SBM (by `uploadandupdatemodel`, or a floor upload of the same file name) or
 * a new GML file, a tileset's new content — is billed as update traffic, from the history of replaced files; the first
 * upload of each record stays upload traffic at the size it had; the same bytes uploaded again
 * are no update. The usage chart's days carry the same bytes.
 */
describe('update traffic', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let building: Project
  let gmlBytes: Buffer
  let sbm: Awaited<ReturnType<typeof sbmFixtureFiles>>

  const uploadGml = (bytes: Buffer) =>
    postMultipart(app, '/web/upload/uploadGml', owner, [
      { name: 'project_id', value: building.id },
      { name: 'file', value: bytes, fileName: 'fjk.gml', contentType: 'application/gml+xml' },
    ])
  const uploadFloor = (bytes: Buffer, fileName: string) =>
    postMultipart<FloorUploadDatum>(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: building.id },
      { name: 'file', value: bytes, fileName },
    ])
  const lines = async (projectId = building.id) => {
    const answer = await callApi<ShoppingListDatum>(app, {
      url: '/web/orderManage/getShoppingList',
      token: owner,
      json: { project_id: projectId },
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const lineOf = (itemId: string): ShoppingLine =>
      answer.envelope.datum.lines.find((line) => line.item_id === itemId)!
    return { upload: lineOf('upload-traffic'), update: lineOf('update-traffic') }
  }

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    owner = await signInNewUser(app, `update-owner-${randomBytes(3).toString('hex')}`)
    building = await createProject(app, owner, { kind: 'building', name: 'Updated tower' })
    gmlBytes = await sharedFile('indoorgml/FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml')
    sbm = await sbmFixtureFiles()
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('bills replaced models and GML files as update traffic, first uploads as upload traffic', async () => {
    const first = await uploadFloor(sbm.twoStoreys, 'two-storeys.sbm')
    expect(first.envelope.code, first.envelope.message).toBe('0')
    const modelId = first.envelope.datum.models[0]!.id
    expect((await uploadGml(gmlBytes)).envelope.code).toBe('0')
    const uploadedBytes = sbm.twoStoreys.byteLength + gmlBytes.byteLength
    const before = await lines()
    expect(before.upload).toMatchObject({ metered_bytes: uploadedBytes, count: 1 })
    expect(before.update).toMatchObject({ type: '2', metered_bytes: 0, count: 0, amount: 0 })

    // the model's file replaced by another SBM, then by a floor upload of its own file name
    testApp.clock.advanceMs(1000)
    const replaced = await postMultipart(app, '/web/upload/uploadandupdatemodel', owner, [
      { name: 'id', value: modelId },
      { name: 'file', value: sbm.duck, fileName: 'duck.sbm' },
    ])
    expect(replaced.envelope.code, replaced.envelope.message).toBe('0')
    testApp.clock.advanceMs(1000)
    const again = await uploadFloor(sbm.twoStoreys, 'two-storeys.sbm')
    expect(again.envelope.code, again.envelope.message).toBe('0')
    expect(again.envelope.datum.models.map((model) => model.id)).toEqual([modelId])
    // a new GML file replaces the project's one; the same bytes once more are no update
    const newGml = Buffer.concat([gmlBytes, Buffer.from('\n<!-- revised -->\n')])
    testApp.clock.advanceMs(1000)
    expect((await uploadGml(newGml)).envelope.code).toBe('0')
    testApp.clock.advanceMs(1000)
    expect((await uploadGml(newGml)).envelope.code).toBe('0')

    const updatedBytes = sbm.duck.byteLength + sbm.twoStoreys.byteLength + newGml.byteLength
    const after = await lines()
    // the first uploads, at the size they had: unchanged by the replacements
    expect(after.upload).toMatchObject({ metered_bytes: uploadedBytes })
    expect(after.update).toMatchObject({
      metered_bytes: updatedBytes,
      count: Math.ceil(updatedBytes / 1_048_576),
      unpaid: Math.ceil(updatedBytes / 1_048_576),
    })

    const history = await callApi<UsageHistory>(app, {
      url: '/web/orderManage/getUsageHistory',
      token: owner,
      json: { project_id: building.id, days: 2 },
    })
    expect(history.envelope.datum.days.at(-1)).toEqual({
      day: timestampOf(testApp.clock.nowMs()).slice(0, 10),
      upload_bytes: uploadedBytes,
      update_bytes: updatedBytes,
      configuration_operations: 0,
    })
  })

  it('meters drawings and the style as configuration, the model library as uploads', async () => {
    const city = await createProject(app, owner, { name: 'Configured city' })
    const added = await postMultipart(app, '/web/cityModel/upload', owner, [
      { name: 'project_id', value: city.id },
      { name: 'lng', value: '126.978' },
      { name: 'lat', value: '37.5665' },
      { name: 'file', value: await sharedFile('gltf/Duck/Duck.glb'), fileName: 'Duck.glb' },
    ])
    expect(added.envelope.code, added.envelope.message).toBe('0')
    const drawn = await callApi(app, {
      url: '/web/areadraw/add',
      token: owner,
      json: {
        project_id: city.id,
        name: 'Yard',
        type: 3,
        points: [
          [126.978, 37.5665],
          [126.97913, 37.5665],
          [126.97913, 37.5674],
          [126.978, 37.5674],
        ],
      },
    })
    expect(drawn.envelope.code, drawn.envelope.message).toBe('0')
    const styled = await callApi(app, {
      url: '/web/globalsetting/add',
      token: owner,
      json: { project_id: city.id, setting: defaultStyleSetting },
    })
    expect(styled.envelope.code, styled.envelope.message).toBe('0')

    const stored = await app.deps.database.db
      .selectFrom('city_models')
      .select('size_bytes')
      .where('project_id', '=', city.id)
      .executeTakeFirstOrThrow()
    const libraryBytes = Number(stored.size_bytes)
    expect(libraryBytes).toBeGreaterThan(0)
    const list = await callApi<ShoppingListDatum>(app, {
      url: '/web/orderManage/getShoppingList',
      token: owner,
      json: { project_id: city.id },
    })
    const lineOf = (itemId: string) =>
      list.envelope.datum.lines.find((line) => line.item_id === itemId)
    expect(lineOf('upload-traffic')).toMatchObject({ metered_bytes: libraryBytes, count: 1 })
    expect(lineOf('configuration-traffic')).toMatchObject({ count: 2, unpaid: 2 })
    const history = await callApi<UsageHistory>(app, {
      url: '/web/orderManage/getUsageHistory',
      token: owner,
      json: { project_id: city.id, days: 1 },
    })
    expect(history.envelope.datum.days.at(-1)).toMatchObject({
      upload_bytes: libraryBytes,
      update_bytes: 0,
      configuration_operations: 2,
    })
  })

  it('bills a tileset whose content is replaced by its new bytes', async () => {
    const city = await createProject(app, owner, { name: 'Updated city' })
    const upload = (zip: Buffer, id?: string) =>
      postMultipart<ObliquePhotograph>(app, '/web/upload/uploadTiltModel', owner, [
        { name: 'project_id', value: city.id },
        ...(id === undefined ? [] : [{ name: 'id', value: id }]),
        { name: 'file', value: zip, fileName: 'tileset.zip' },
      ])
    const first = await upload(await sharedFile('zip/derived/tileset-discrete-lod-root.zip'))
    expect(first.envelope.code, first.envelope.message).toBe('0')
    const firstBytes = first.envelope.datum.stats!.total_bytes
    testApp.clock.advanceMs(1000)
    const replaced = await upload(
      await sharedFile('zip/derived/tileset-request-volume-nested.zip'),
      first.envelope.datum.id,
    )
    expect(replaced.envelope.code, replaced.envelope.message).toBe('0')
    const newBytes = replaced.envelope.datum.stats!.total_bytes
    expect(newBytes).not.toBe(firstBytes)
    const { upload: uploaded, update } = await lines(city.id)
    expect(uploaded.metered_bytes).toBe(firstBytes)
    expect(update.metered_bytes).toBe(newBytes)
  })

  it('removes the history with the project', async () => {
    const { db } = app.deps.database
    const rows = () =>
      db
        .selectFrom('file_replacements')
        .select('id')
        .where('project_id', '=', building.id)
        .execute()
    expect(await rows()).toHaveLength(3)
    const deleted = await callApi(app, {
      url: '/web/project/deleteProject',
      token: owner,
      json: { id: building.id },
    })
    expect(deleted.envelope.code, deleted.envelope.message).toBe('0')
    expect(await rows()).toEqual([])
  })
})
