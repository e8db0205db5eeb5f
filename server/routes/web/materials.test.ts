import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FloorUploadDatum } from '../../../contract/building'
import type {
  FindMaterialDatum,
  MaterialAssignment,
  MaterialDatum,
  UploadFileDatum,
} from '../../../contract/materials'
import { pngClaiming } from '../../testing/image-bombs'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { sbmFixtureFiles } from './building-test-kit'
import {
  createProject,
  type MultipartPart,
  postMultipart,
  sampleFiles,
  signInNewUser,
} from './project-test-kit'

describe('materials (/materialManager/*, uploadFile?type=4)', () => {
  let testApp: TestApp
  let editor: string
  let neighbour: string
  let guest: string
  let projectId: string
  let modelId: string
  let png: Buffer

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    neighbour = await signInNewUser(testApp.app, 'materials-neighbour')
    guest = await signInNewUser(testApp.app, 'materials-guest', 'guest')
    projectId = (await createProject(testApp.app, editor, { kind: 'building', name: 'Paint' })).id
    const { duck } = await sbmFixtureFiles()
    const uploaded = await postMultipart<FloorUploadDatum>(
      testApp.app,
      '/web/upload/uploadZip',
      editor,
      [
        { name: 'project_id', value: projectId },
        { name: 'file', value: duck, fileName: 'duck.sbm' },
      ],
    )
    expect(uploaded.envelope.code).toBe('0')
    modelId = uploaded.envelope.datum.models[0]!.id
    png = (await sampleFiles()).png
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const call = <Datum>(path: string, form: Record<string, string>, token = editor) =>
    callApi<Datum>(testApp.app, { url: `/web/materialManager/${path}`, token, form })
  const uploadTexture = (file: MultipartPart, token = editor, query = '?type=4') =>
    postMultipart<UploadFileDatum>(testApp.app, `/web/upload/uploadFile${query}`, token, [file])
  const rowCount = async (table: 'materials' | 'material_assignments' | 'uploaded_files') =>
    Number(
      (
        await testApp.app.deps.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    )

  it('uploads a texture, keeps a material with its maps, assigns it to a mesh and removes it', async () => {
    const texture = await uploadTexture({ name: 'file', fileName: 'brick.png', value: png })
    expect(texture.envelope.code).toBe('0')
    expect(texture.envelope.datum.fileName).toMatch(/^[0-9a-f-]{36}\.png$/)
    // the texture is served where the engine will fetch it
    const served = await testApp.app.inject({
      url: `${texture.envelope.datum.rootPath}${texture.envelope.datum.fileName}`,
    })
    expect(served.statusCode).toBe(200)

    const added = await call<MaterialDatum>('addMaterial', {
      name: 'Brick',
      base_color: '#aa3311',
      metalness: '0.1',
      roughness: '0.7',
      base_color_map: texture.envelope.datum.fileName,
    })
    expect(added.envelope.code).toBe('0')
    expect(added.envelope.datum).toMatchObject({
      name: 'Brick',
      base_color: '#aa3311',
      metalness: 0.1,
      roughness: 0.7,
      emissive: '#000000',
      base_color_map: texture.envelope.datum.fileName,
      normal_map: '',
    })
    const material = added.envelope.datum

    // changed in place with its id
    const changed = await call<MaterialDatum>('addMaterial', {
      id: material.id,
      name: 'Red brick',
      emissive: '#110000',
      base_color_map: texture.envelope.datum.fileName,
    })
    expect(changed.envelope.datum).toMatchObject({ id: material.id, name: 'Red brick' })

    const assigned = await call<MaterialAssignment[]>('addBuilding', {
      project_id: projectId,
      model_id: modelId,
      mesh_name: 'LOD3spShape',
      material_id: material.id,
    })
    expect(assigned.envelope.code).toBe('0')
    expect(assigned.envelope.datum).toEqual([
      expect.objectContaining({
        model_id: modelId,
        mesh_name: 'LOD3spShape',
        material_id: material.id,
      }),
    ])
    // assigning again replaces: one material per mesh
    const second = await call<MaterialDatum>('addMaterial', { name: 'Glass', roughness: '0.05' })
    await call('addBuilding', {
      project_id: projectId,
      model_id: modelId,
      mesh_name: 'LOD3spShape',
      material_id: second.envelope.datum.id,
    })
    const found = await call<FindMaterialDatum>('findMaterial', { project_id: projectId })
    expect(found.envelope.datum.materials.map((row) => row.name)).toEqual(['Glass', 'Red brick'])
    expect(found.envelope.datum.assignments).toEqual([
      expect.objectContaining({ mesh_name: 'LOD3spShape', material_id: second.envelope.datum.id }),
    ])

    // '' takes the mesh's material away
    const cleared = await call<MaterialAssignment[]>('addBuilding', {
      project_id: projectId,
      model_id: modelId,
      mesh_name: 'LOD3spShape',
      material_id: '',
    })
    expect(cleared.envelope.datum).toEqual([])

    // deleting a material removes its assignments with it
    await call('addBuilding', {
      project_id: projectId,
      model_id: modelId,
      mesh_name: 'LOD3spShape',
      material_id: material.id,
    })
    expect((await call('delMaterial', { id: material.id })).envelope.code).toBe('0')
    const after = await call<FindMaterialDatum>('findMaterial', { project_id: projectId })
    expect(after.envelope.datum.materials.map((row) => row.name)).toEqual(['Glass'])
    expect(after.envelope.datum.assignments).toEqual([])
    expect((await call('delMaterial', { id: material.id })).statusCode).toBe(404)
  })

  it('refuses textures that are not images or declare 16k × 16k, storing nothing', async () => {
    const before = await rowCount('uploaded_files')
    const notImage = await uploadTexture({
      name: 'file',
      fileName: 'brick.png',
      value: Buffer.from('these are not pixels'),
    })
    expect(notImage.statusCode).toBe(415)
    expect(notImage.envelope.messageId).toBe('image.notJpegOrPng')
    const huge = await uploadTexture({
      name: 'file',
      fileName: 'huge.png',
      value: pngClaiming(16_384, 16_384),
    })
    expect(huge.statusCode).toBe(413)
    expect(huge.envelope.messageId).toBe('image.tooManyPixels')
    expect(huge.envelope.params).toMatchObject({ width: 16_384, height: 16_384, maxSide: 8192 })
    const wrongType = await uploadTexture(
      { name: 'file', fileName: 'a.png', value: png },
      editor,
      '?type=2',
    )
    expect(wrongType.statusCode).toBe(400)
    expect(await rowCount('uploaded_files')).toBe(before)
  })

  it('refuses bad material input with the field named, and writes nothing', async () => {
    const before = await rowCount('materials')
    for (const [form, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x', base_color: 'red' }, 'base_color'],
      [{ name: 'x', metalness: '2' }, 'metalness'],
      [{ name: 'x', normal_map: '../../etc/passwd.png' }, 'normal_map'],
      // a well-formed name of a texture never uploaded
      [{ name: 'x', emissive_map: '00000000-0000-4000-8000-000000000000.png' }, 'emissive_map'],
    ] as const) {
      const answer = await call('addMaterial', form)
      expect(answer.statusCode, field).toBeGreaterThanOrEqual(400)
      expect(answer.statusCode, field).toBeLessThan(500)
      expect(JSON.stringify(answer.envelope.datum), field).toContain(field)
    }
    // a mesh of a model of another project
    const other = (await createProject(testApp.app, editor, { kind: 'building', name: 'Other' })).id
    const material = await call<MaterialDatum>('addMaterial', { name: 'Steel' })
    const wrongProject = await call('addBuilding', {
      project_id: other,
      model_id: modelId,
      mesh_name: 'x',
      material_id: material.envelope.datum.id,
    })
    expect(wrongProject.statusCode).toBe(404)
    expect(await rowCount('materials')).toBe(before + 1)
    expect(await rowCount('material_assignments')).toBe(0)
  })

  it("keeps another user's library and projects out of reach (access matrix)", async () => {
    const mine = await call<MaterialDatum>('addMaterial', { name: 'Mine' })
    const texture = await uploadTexture({ name: 'file', fileName: 'mine.png', value: png })
    // another editor: the material and the project are not theirs
    expect((await call('delMaterial', { id: mine.envelope.datum.id }, neighbour)).statusCode).toBe(
      404,
    )
    expect(
      (await call('addMaterial', { id: mine.envelope.datum.id, name: 'Theirs' }, neighbour))
        .statusCode,
    ).toBe(404)
    // nor may they use my texture in their material
    expect(
      (
        await call(
          'addMaterial',
          { name: 'Theirs', base_color_map: texture.envelope.datum.fileName },
          neighbour,
        )
      ).statusCode,
    ).toBe(404)
    const theirs = await call<MaterialDatum>('addMaterial', { name: 'Theirs' }, neighbour)
    expect(
      (
        await call(
          'addBuilding',
          {
            project_id: projectId,
            model_id: modelId,
            mesh_name: 'x',
            material_id: theirs.envelope.datum.id,
          },
          neighbour,
        )
      ).statusCode,
    ).toBe(403)
    // my project with their material: the material is not found for me
    expect(
      (
        await call('addBuilding', {
          project_id: projectId,
          model_id: modelId,
          mesh_name: 'x',
          material_id: theirs.envelope.datum.id,
        })
      ).statusCode,
    ).toBe(404)
    expect((await call('findMaterial', { project_id: projectId }, neighbour)).statusCode).toBe(403)
    const theirList = await call<FindMaterialDatum>('findMaterial', {}, neighbour)
    expect(theirList.envelope.datum.materials.map((row) => row.name)).toEqual(['Theirs'])
    // guests and anonymous callers
    expect((await call('findMaterial', {}, guest)).statusCode).toBe(403)
    expect(
      (await uploadTexture({ name: 'file', fileName: 'g.png', value: png }, guest)).statusCode,
    ).toBe(403)
    const anonymous = await callApi(testApp.app, {
      url: '/web/materialManager/findMaterial',
      form: {},
    })
    expect(anonymous.statusCode).toBe(401)
  })

  it('removes a project’s assignments with the project', async () => {
    const project = (await createProject(testApp.app, editor, { kind: 'building', name: 'Gone' }))
      .id
    const { duck } = await sbmFixtureFiles()
    const uploaded = await postMultipart<FloorUploadDatum>(
      testApp.app,
      '/web/upload/uploadZip',
      editor,
      [
        { name: 'project_id', value: project },
        { name: 'file', value: duck, fileName: 'duck.sbm' },
      ],
    )
    const material = await call<MaterialDatum>('addMaterial', { name: 'Paint' })
    await call('addBuilding', {
      project_id: project,
      model_id: uploaded.envelope.datum.models[0]!.id,
      mesh_name: 'm',
      material_id: material.envelope.datum.id,
    })
    const before = await rowCount('material_assignments')
    const deleted = await callApi(testApp.app, {
      url: '/web/project/deleteProject',
      token: editor,
      form: { id: project },
    })
    expect(deleted.envelope.code).toBe('0')
    expect(await rowCount('material_assignments')).toBe(before - 1)
  })
})
