import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FloorUploadDatum, ModelInfoDatum } from '../../../contract/building'
import type { StructureAddPlan, StructureAddStatusDatum } from '../../../contract/model-config'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { sbmFixtureFiles, sharedFile, withSbmMarker } from './building-test-kit'
import { filePart, startModelConfigSuite } from './model-config-test-kit'
import { createProject, type MultipartPart, postMultipart, storedFiles } from './project-test-kit'

describe('structure add (/modelConfig/add, addPreview, addStatus)', () => {
  let testApp: TestApp
  let editor: string
  let neighbour: string
  let guest: string
  let parts: Record<string, Buffer>

  beforeAll(async () => {
    ;({ testApp, editor, neighbour, guest } = await startModelConfigSuite('add'))
    const { duck } = await sbmFixtureFiles()
    parts = {
      duck,
      cube: await sharedFile('dae/cube_triangulate.dae'),
      box: await sharedFile('fbx/box.fbx'),
      png: await sharedFile('gltf/Duck/DuckCM.png'),
    }
  })
  afterAll(async () => {
    await testApp?.close()
  })

  /** A building with a shell and floors 1F (0 m) and 2F (3 m), uploaded as SBMs. */
  const buildingWithTwoFloors = async (name: string) => {
    const project = await createProject(testApp.app, editor, { kind: 'building', name })
    const floor = (id: string, elevation: number) =>
      withSbmMarker(parts.duck!, { role: 'floor', floors: [{ id, name: id, elevation }] })
    const uploaded = await postMultipart<FloorUploadDatum>(
      testApp.app,
      '/web/upload/uploadZip',
      editor,
      [
        { name: 'project_id', value: project.id },
        filePart('file', 'shell.sbm', withSbmMarker(parts.duck!, { role: 'shell' })),
        filePart('file', '1F.sbm', floor('1F', 0)),
        filePart('file', '2F.sbm', floor('2F', 3)),
      ],
    )
    expect(uploaded.envelope.code).toBe('0')
    return project.id
  }

  const modelInfo = async (projectId: string) =>
    (
      await callApi<ModelInfoDatum>(testApp.app, {
        url: '/web/model/findModelInfo',
        token: editor,
        form: { project_id: projectId },
      })
    ).envelope.datum

  const preview = (body: Record<string, unknown>, token = editor) =>
    callApi<StructureAddPlan>(testApp.app, {
      url: '/web/modelConfig/addPreview',
      token,
      json: body,
    })

  const add = (projectId: string, files: MultipartPart[], token = editor) =>
    postMultipart<StructureAddStatusDatum>(testApp.app, '/web/modelConfig/add', token, [
      { name: 'project_id', value: projectId },
      ...files,
    ])

  const finished = async (id: string) => {
    await testApp.app.deps.services.structureAdds.settled(id)
    return (
      await callApi<StructureAddStatusDatum>(testApp.app, {
        url: '/web/modelConfig/addStatus',
        token: editor,
        form: { id },
      })
    ).envelope.datum
  }

  /** A new shell, 2F again (another case), and two new floors: one above, one below. */
  const addition = (): MultipartPart[] => [
    filePart('shell', 'roof.sbm', withSbmMarker(parts.duck!, { role: 'model' })),
    filePart('floors', '2f.fbx', parts.box!),
    filePart('floors', '3F.dae', parts.cube!),
    filePart('floors', 'B1.sbm', parts.duck!),
  ]

  it('previews the structure the chosen files would leave, without saving anything', async () => {
    const projectId = await buildingWithTwoFloors('Preview tower')
    const before = await modelInfo(projectId)
    const answer = await preview({
      project_id: projectId,
      shell_name: 'roof.sbm',
      floor_names: ['2f.fbx', '3F.dae', 'B1.sbm'],
    })
    expect(answer.envelope.code).toBe('0')
    const plan = answer.envelope.datum
    expect(plan.shell).toEqual({
      fileName: 'roof.sbm',
      change: 'replaced',
      replacesFileName: 'shell.sbm',
    })
    expect(plan.floors.map((floor) => [floor.name, floor.elevation, floor.change])).toEqual([
      ['B1', -3, 'added'],
      ['1F', 0, 'kept'],
      ['2F', 3, 'replaced'],
      ['3F', 6, 'added'],
    ])
    expect(plan.floors.find((floor) => floor.name === '2F')?.sourceName).toBe('2f.fbx')
    // with nothing chosen it shows the building as it is
    const asItIs = await preview({ project_id: projectId, floor_names: [] })
    expect(asItIs.envelope.datum.shell?.change).toBe('kept')
    expect(asItIs.envelope.datum.floors.map((floor) => [floor.name, floor.change])).toEqual([
      ['1F', 'kept'],
      ['2F', 'kept'],
    ])
    expect(await modelInfo(projectId)).toEqual(before)
  })

  it('adds floors and replaces the shell as previewed; replaced models keep their ids', async () => {
    const projectId = await buildingWithTwoFloors('Growing tower')
    const before = await modelInfo(projectId)
    const oldShell = before.models.find((model) => model.role === 'shell')!
    const old2F = before.models.find((model) => model.file_name === '2F.sbm')!
    const planned = (
      await preview({
        project_id: projectId,
        shell_name: 'roof.sbm',
        floor_names: ['2f.fbx', '3F.dae', 'B1.sbm'],
        storey_height: 4,
      })
    ).envelope.datum

    const started = await add(projectId, [
      { name: 'storey_height', value: '4' },
      ...addition(),
      filePart('floor_maps', 'unused.png', parts.png!),
    ])
    expect(started.envelope.code).toBe('0')
    expect(started.envelope.datum.steps.map((step) => `${step.kind}:${step.name}`)).toEqual([
      'shell:roof.sbm',
      'floor:B1.sbm',
      'floor:2f.fbx',
      'floor:3F.dae',
      'install:Growing tower',
    ])
    const status = await finished(started.envelope.datum.id)
    expect(status.error).toBeNull()
    expect(status.state).toBe('succeeded')
    expect(status.progress).toBe(1)
    expect(status.plan).toEqual(planned)
    expect(status.warnings.map((warning) => warning.messageId)).toContain('modelConfig.mapUnused')

    const after = await modelInfo(projectId)
    const floors = after.structure.floors.map((floor) => [
      floor.name,
      floor.elevation,
      floor.modelIds.length,
    ])
    expect(floors).toEqual([
      ['B1', -4, 1],
      ['1F', 0, 1],
      ['2F', 3, 1],
      ['3F', 7, 1],
    ])
    const shell = after.models.find((model) => model.id === after.structure.shellModelId)!
    expect(shell.id).toBe(oldShell.id)
    expect(shell.file_name).toBe('roof.sbm')
    const new2F = after.models.find((model) => model.id === old2F.id)!
    expect(new2F.file_name).toBe('2F.sbm')
    expect(new2F.url).not.toBe(old2F.url)
    expect(after.shell_json_path).not.toBeNull()
    expect(after.shell_json_path).not.toBe(before.shell_json_path)
    // the manifest names the same building
    const manifest = await testApp.app.inject({ url: after.shell_json_path! })
    expect(manifest.statusCode).toBe(200)
    const json = manifest.json() as { shell: { model: string }; floors: Array<{ model: string }> }
    expect(json.shell).toEqual({ model: 'roof.sbm' })
    expect(json.floors.map((floor) => floor.model)).toEqual([
      'B1.sbm',
      '1F.sbm',
      '2F.sbm',
      '3F.sbm',
    ])

    // the status is the starter's only
    const foreign = await callApi(testApp.app, {
      url: '/web/modelConfig/addStatus',
      token: neighbour,
      form: { id: status.id },
    })
    expect(foreign.statusCode).toBe(404)
  })

  it.each([
    ['nothing to add', [], 'modelConfig.addNothing'],
    [
      'two floors with one name',
      // the names are refused before any content is read
      [
        filePart('floors', '3F.dae', Buffer.from('<COLLADA/>')),
        filePart('floors', '3f.fbx', Buffer.from('x')),
      ],
      'modelConfig.floorNameTwice',
    ],
    [
      'a floor that is not a model',
      [filePart('floors', 'plan.pdf', Buffer.from('%PDF'))],
      'modelConfig.notAModel',
    ],
    [
      'a floor map that is not an image',
      [
        filePart('floors', '3F.sbm', Buffer.from('sbm')),
        filePart('floor_maps', 'notes.png', Buffer.from('not an image at all')),
      ],
      'modelConfig.mapNotImage',
    ],
    [
      'shell maps without a shell',
      [filePart('shell_maps', 'wall.png', Buffer.from('png'))],
      'modelConfig.needShellModel',
    ],
  ])('refuses %s before converting anything, keeping nothing', async (_label, files, messageId) => {
    const projectId = await buildingWithTwoFloors(`Refused ${messageId}`)
    const before = await modelInfo(projectId)
    const stored = await storedFiles(testApp.config.filesDir)
    const answer = await add(projectId, files as MultipartPart[])
    expect(answer.statusCode).toBeGreaterThanOrEqual(400)
    expect(answer.statusCode).toBeLessThan(500)
    expect(answer.envelope.messageId).toBe(messageId)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(stored)
    expect(await modelInfo(projectId)).toEqual(before)
  })

  it('stops with the converter reason when a floor cannot be converted, saving nothing', async () => {
    const projectId = await buildingWithTwoFloors('Broken add')
    const before = await modelInfo(projectId)
    const started = await add(projectId, [
      filePart('floors', '3F.dae', Buffer.from('<COLLADA>not really</COLLADA>')),
    ])
    expect(started.envelope.code).toBe('0')
    const status = await finished(started.envelope.datum.id)
    expect(status.state).toBe('failed')
    expect(status.error?.messageId).toMatch(/^convert\./)
    expect(status.steps.find((step) => step.name === '3F.dae')?.state).toBe('failed')
    expect(await modelInfo(projectId)).toEqual(before)
  })

  it('answers an add from another app instance on the same database, until a day after it ended', async () => {
    // issue 22: the status check of a running add may reach another API process
    const other = await createTestApp({ sharing: testApp })
    try {
      const statusOn = (app: TestApp, id: string, token = editor) =>
        callApi<StructureAddStatusDatum>(app.app, {
          url: '/web/modelConfig/addStatus',
          token,
          form: { id },
        })
      const projectId = await buildingWithTwoFloors('Tower on two processes')
      const started = await add(projectId, [filePart('floors', '3F.dae', parts.cube!)])
      expect(started.envelope.code).toBe('0')
      const { id } = started.envelope.datum
      const meanwhile = await statusOn(other, id)
      expect(meanwhile.envelope.code).toBe('0')
      expect(meanwhile.envelope.datum.id).toBe(id)
      expect(['queued', 'running', 'succeeded']).toContain(meanwhile.envelope.datum.state)
      expect((await statusOn(other, id, neighbour)).envelope.messageId).toBe(
        'modelConfig.noSuchAdd',
      )

      const ended = await finished(id)
      expect(ended.state).toBe('succeeded')
      expect((await statusOn(other, id)).envelope.datum).toEqual(ended)

      other.clock.advanceMs(24 * 60 * 60_000 + 60_000)
      const expired = await statusOn(other, id, await signIn(other.app, testEditor))
      expect(expired.statusCode).toBe(404)
      expect(expired.envelope.messageId).toBe('modelConfig.noSuchAdd')
    } finally {
      await other.close()
    }
  })

  it("refuses a neighbour's project, a guest and a caller without a token", async () => {
    const projectId = await buildingWithTwoFloors('Not yours')
    const before = await modelInfo(projectId)
    const stored = await storedFiles(testApp.config.filesDir)
    const body = { project_id: projectId, floor_names: ['3F.dae'] }
    expect((await preview(body, neighbour)).statusCode).toBe(403)
    expect((await preview(body, guest)).statusCode).toBe(403)
    expect((await preview(body, '')).envelope.code).toBe('2011')
    const files = [filePart('floors', '3F.dae', parts.cube!)]
    expect((await add(projectId, files, neighbour)).statusCode).toBe(403)
    expect((await add(projectId, files, guest)).statusCode).toBe(403)
    expect((await add(projectId, files, '')).envelope.code).toBe('2011')
    expect(await storedFiles(testApp.config.filesDir)).toEqual(stored)
    expect(await modelInfo(projectId)).toEqual(before)
  })
})
