import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelDetail } from '../../../contract/model-config'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { sbmFixtureFiles, uploadFixtureModels } from './building-test-kit'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'

describe('model details (findCompanyAndModel, findModelInfoOne, add|update|deleteModelDetail)', () => {
  let testApp: TestApp
  let editor: string
  let neighbour: string
  let projectId: string
  let modelIds: string[]

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    neighbour = await signInNewUser(testApp.app, 'details-neighbour')
    projectId = (await createProject(testApp.app, editor, { kind: 'building', name: 'Details' })).id
    modelIds = await uploadFixtureModels(testApp.app, editor, projectId, [
      { fixture: 'duck', fileName: 'pump.sbm' },
      { fixture: 'twoStoreys', fileName: 'floors.sbm' },
    ])
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const call = <Datum>(url: string, form: Record<string, string>, token = editor) =>
    callApi<Datum>(testApp.app, { url: `/web/${url}`, token, form })

  it('adds, reads, groups by manufacturer, changes and deletes the details of a model', async () => {
    const [pump, floors] = modelIds as [string, string]
    expect((await call('findModelInfoOne', { model_id: pump })).envelope.datum).toBeNull()
    const added = await call<ModelDetail>('addModelDetail', {
      model_id: pump,
      company: 'Grundfos',
      product: 'CR 10',
      serial_number: 'SN-001',
      install_date: '2024-05-01',
    })
    expect(added.envelope.code).toBe('0')
    expect(added.envelope.datum).toMatchObject({
      model_id: pump,
      project_id: projectId,
      model_name: 'pump',
      company: 'Grundfos',
      description: '',
    })
    // one set of details per model
    const twice = await call('addModelDetail', { model_id: pump, company: 'Other' })
    expect(twice.statusCode).toBe(409)
    expect(twice.envelope.messageId).toBe('modelDetail.exists')

    await call('addModelDetail', { model_id: floors, company: 'ABB' })
    const groups = await call<Array<{ company: string; models: ModelDetail[] }>>(
      'findCompanyAndModel',
      { project_id: projectId },
    )
    expect(groups.envelope.datum.map((group) => [group.company, group.models.length])).toEqual([
      ['ABB', 1],
      ['Grundfos', 1],
    ])

    const changed = await call<ModelDetail>('updateModelDetail', {
      id: added.envelope.datum.id,
      serial_number: 'SN-002',
    })
    // only the fields sent change
    expect(changed.envelope.datum).toMatchObject({ serial_number: 'SN-002', company: 'Grundfos' })
    expect(
      (await call<ModelDetail>('findModelInfoOne', { model_id: pump })).envelope.datum
        ?.serial_number,
    ).toBe('SN-002')

    expect((await call('deleteModelDetail', { id: added.envelope.datum.id })).envelope.code).toBe(
      '0',
    )
    expect((await call('findModelInfoOne', { model_id: pump })).envelope.datum).toBeNull()
    const again = await call('deleteModelDetail', { id: added.envelope.datum.id })
    expect(again.statusCode).toBe(404)
  })

  it('refuses bad input with the field named, and writes nothing', async () => {
    const answer = await call('addModelDetail', { model_id: modelIds[0]!, install_date: '1 May' })
    expect(answer.statusCode).toBe(400)
    expect(JSON.stringify(answer.envelope.datum)).toContain('install_date')
    const long = await call('addModelDetail', { model_id: modelIds[0]!, company: 'x'.repeat(101) })
    expect(long.statusCode).toBe(400)
    expect((await call('findModelInfoOne', { model_id: modelIds[0]! })).envelope.datum).toBeNull()
  })

  it("keeps another user's models and details out of reach", async () => {
    const [pump] = modelIds as [string]
    const added = await call<ModelDetail>('addModelDetail', { model_id: pump, company: 'Mine' })
    for (const [url, form] of [
      ['findModelInfoOne', { model_id: pump }],
      ['addModelDetail', { model_id: pump, company: 'Theirs' }],
      ['updateModelDetail', { id: added.envelope.datum.id, company: 'Theirs' }],
      ['deleteModelDetail', { id: added.envelope.datum.id }],
    ] as const) {
      const answer = await call(url, form, neighbour)
      expect(answer.statusCode, url).toBe(404)
    }
    expect(
      (await call('findCompanyAndModel', { project_id: projectId }, neighbour)).statusCode,
    ).toBe(403)
    // a guest is refused every call, and a caller without a session is asked to sign in
    const guest = await signInNewUser(testApp.app, 'details-guest', 'guest')
    for (const [url, form] of [
      ['findCompanyAndModel', { project_id: projectId }],
      ['findModelInfoOne', { model_id: pump }],
      ['addModelDetail', { model_id: pump, company: 'Guest' }],
      ['updateModelDetail', { id: added.envelope.datum.id, company: 'Guest' }],
      ['deleteModelDetail', { id: added.envelope.datum.id }],
    ] as const) {
      expect((await call(url, form, guest)).statusCode, url).toBe(403)
      const signedOut = await callApi(testApp.app, { url: `/web/${url}`, form })
      expect(signedOut.statusCode, url).toBe(401)
      expect(signedOut.envelope.code, url).toBe('2011')
    }
    expect(
      (await call<ModelDetail>('findModelInfoOne', { model_id: pump })).envelope.datum?.company,
    ).toBe('Mine')
  })

  it("refuses another user's new file for a model (uploadandupdatemodel), keeping the model", async () => {
    const [pump] = modelIds as [string]
    const { twoStoreys } = await sbmFixtureFiles()
    const before = await testApp.app.deps.database.db
      .selectFrom('building_models')
      .select('sha256')
      .where('id', '=', pump)
      .executeTakeFirstOrThrow()
    const foreign = await postMultipart(
      testApp.app,
      '/web/upload/uploadandupdatemodel',
      neighbour,
      [
        { name: 'id', value: pump },
        { name: 'file', value: twoStoreys, fileName: 'pump.sbm' },
      ],
    )
    expect(foreign.statusCode).toBe(403)
    const after = await testApp.app.deps.database.db
      .selectFrom('building_models')
      .select('sha256')
      .where('id', '=', pump)
      .executeTakeFirstOrThrow()
    expect(after.sha256).toBe(before.sha256)
  })

  it('drops the details with their project', async () => {
    const other = (await createProject(testApp.app, editor, { kind: 'building', name: 'Gone' })).id
    const [modelId] = await uploadFixtureModels(testApp.app, editor, other, [
      { fixture: 'duck', fileName: 'fan.sbm' },
    ])
    await call('addModelDetail', { model_id: modelId!, company: 'Temporary' })
    const deleted = await call('project/deleteProject', { id: other })
    expect(deleted.envelope.code).toBe('0')
    const rows = await testApp.app.deps.database.db
      .selectFrom('model_details')
      .selectAll()
      .where('project_id', '=', other)
      .execute()
    expect(rows).toEqual([])
  })
})
