import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelInfoDatum } from '../../../contract/building'
import type { ValidationIssue } from '../../../contract/envelope'
import type { MergeStatusDatum } from '../../../contract/model-config'
import { parseGlb } from '../../../workers/sbm/glb'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import { sbmFixtureFiles, sharedFile } from './building-test-kit'
import { filePart, startModelConfigSuite } from './model-config-test-kit'
import { createProject, type MultipartPart, postMultipart, storedFiles } from './project-test-kit'

describe('structure merge (/modelConfig/merge)', () => {
  let testApp: TestApp
  let editor: string
  let neighbour: string
  let guest: string
  let parts: Record<string, Buffer>

  beforeAll(async () => {
    ;({ testApp, editor, neighbour, guest } = await startModelConfigSuite('merge'))
    parts = {
      duckDae: await sharedFile('dae/duck.dae'),
      duckTga: await sharedFile('dae/duckCM.tga'),
      box: await sharedFile('fbx/box.fbx'),
      phongCube: await sharedFile('fbx/phong_cube.fbx'),
      cube: await sharedFile('dae/cube_triangulate.dae'),
      png: await sharedFile('gltf/Duck/DuckCM.png'),
      twoStoreys: (await sbmFixtureFiles()).twoStoreys,
    }
  })
  afterAll(async () => {
    await testApp?.close()
  })

  /** The sample parts: a textured shell, three floors given out of order, maps and a preview. */
  const sampleParts = (): MultipartPart[] => [
    filePart('shell', 'duck.dae', parts.duckDae!),
    filePart('shell_maps', 'duckCM.tga', parts.duckTga!),
    filePart('floors', '2F.fbx', parts.phongCube!),
    filePart('floors', 'B1.dae', parts.cube!),
    filePart('floors', '1F.fbx', parts.box!),
    filePart('floor_maps', 'wall.png', parts.png!),
    filePart('preview', 'preview.png', parts.png!),
  ]

  const merge = (fields: Record<string, string>, files: MultipartPart[], token = editor) =>
    postMultipart<MergeStatusDatum>(testApp.app, '/web/modelConfig/merge', token, [
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      ...files,
    ])

  const finished = async (id: string, token = editor) => {
    await testApp.app.deps.services.structureMerges.settled(id)
    const answer = await callApi<MergeStatusDatum>(testApp.app, {
      url: '/web/modelConfig/mergeStatus',
      token,
      form: { id },
    })
    return answer
  }

  it('names every missing input (SPEC §5) and keeps nothing', async () => {
    const before = await storedFiles(testApp.config.filesDir)
    const answer = await merge({}, [filePart('floors', '1F.fbx', parts.box!)])
    expect(answer.statusCode).toBe(400)
    expect(answer.envelope.messageId).toBe('modelConfig.mergeInputsMissing')
    expect(answer.envelope.params).toEqual({ count: 5 })
    const { details } = answer.envelope.datum as unknown as { details: ValidationIssue[] }
    expect(details.map((detail) => detail.field)).toEqual([
      'shell',
      'shell_maps',
      'floor_maps',
      'preview',
      'output_name',
    ])
    expect(await storedFiles(testApp.config.filesDir)).toEqual(before)
  })

  it.each([
    [
      'an output name with path characters',
      { output_name: '../tower' },
      [],
      'modelConfig.outputNameInvalid',
    ],
    [
      'two floors with the same name',
      { output_name: 'Tower' },
      [filePart('floors', '1F.dae', Buffer.from('x'))],
      'modelConfig.floorNameTwice',
    ],
    [
      'a map that is not an image',
      { output_name: 'Tower' },
      [filePart('floor_maps', 'notes.png', Buffer.from('not an image at all'))],
      'modelConfig.mapNotImage',
    ],
    [
      'a floor that is not a model',
      { output_name: 'Tower' },
      [filePart('floors', 'plan.pdf', Buffer.from('%PDF'))],
      'modelConfig.notAModel',
    ],
  ])('refuses %s before converting anything', async (_label, fields, extra, messageId) => {
    const before = await storedFiles(testApp.config.filesDir)
    const answer = await merge(fields, [...sampleParts(), ...extra])
    expect(answer.statusCode).toBeGreaterThanOrEqual(400)
    expect(answer.statusCode).toBeLessThan(500)
    expect(answer.envelope.messageId).toBe(messageId)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(before)
  })

  it("refuses another user's project, a guest and a caller without a token, keeping nothing", async () => {
    const project = await createProject(testApp.app, neighbour, {
      kind: 'building',
      name: 'Not yours',
    })
    const before = await storedFiles(testApp.config.filesDir)
    const answer = await merge({ output_name: 'Tower', project_id: project.id }, sampleParts())
    expect(answer.statusCode).toBe(403)
    expect((await merge({ output_name: 'Tower' }, sampleParts(), guest)).statusCode).toBe(403)
    expect((await merge({ output_name: 'Tower' }, sampleParts(), '')).envelope.code).toBe('2011')
    for (const [token, expected] of [
      [guest, 403],
      ['', 401],
    ] as const) {
      const status = await callApi(testApp.app, {
        url: '/web/modelConfig/mergeStatus',
        ...(token ? { token } : {}),
        form: { id: 'any-merge' },
      })
      expect(status.statusCode).toBe(expected)
    }
    expect(await storedFiles(testApp.config.filesDir)).toEqual(before)
  })

  it('merges the sample parts into a structure the building editor opens as is', async () => {
    const project = await createProject(testApp.app, editor, { kind: 'building', name: 'Merged' })
    const started = await merge(
      { output_name: '타워 A', project_id: project.id, storey_height: '4' },
      sampleParts(),
    )
    expect(started.envelope.code).toBe('0')
    // floors are ordered bottom-up, whatever order they came in
    expect(started.envelope.datum.steps.map((step) => `${step.kind}:${step.name}`)).toEqual([
      'shell:duck.dae',
      'floor:B1.dae',
      'floor:1F.fbx',
      'floor:2F.fbx',
      'structure:타워 A.zip',
      'install:타워 A',
    ])
    const answer = await finished(started.envelope.datum.id)
    const status = answer.envelope.datum
    expect(status.error).toBeNull()
    expect(status.state).toBe('succeeded')
    expect(status.progress).toBe(1)
    expect(status.steps.every((step) => step.state === 'done')).toBe(true)
    expect(status.result?.floors.map((floor) => [floor.name, floor.elevation])).toEqual([
      ['B1', 0],
      ['1F', 4],
      ['2F', 8],
    ])
    // the floor map no model refers to is reported, and the merge went on without it
    expect(status.warnings.map((warning) => warning.messageId)).toContain('modelConfig.mapUnused')

    // the download holds the manifest, one SBM per model and the preview
    const download = await testApp.app.inject({ method: 'GET', url: status.result!.downloadPath })
    expect(download.statusCode).toBe(200)
    const zip = unzipSync(new Uint8Array(download.rawPayload))
    expect(Object.keys(zip).sort()).toEqual(
      ['1F.sbm', '2F.sbm', 'B1.sbm', 'duck.sbm', 'preview.png', '타워 A.json'].sort(),
    )
    const manifest = JSON.parse(new TextDecoder().decode(zip['타워 A.json']))
    expect(manifest.shell).toEqual({ model: 'duck.sbm' })
    expect(manifest.floors.map((floor: { model: string }) => floor.model)).toEqual([
      'B1.sbm',
      '1F.sbm',
      '2F.sbm',
    ])
    const shell = describeSbm(zip['duck.sbm']!)
    expect(shell.role).toBe('shell')
    // the shell's map was baked into it
    const shellJson = parseGlb(zip['duck.sbm']!).json as { images?: unknown[] }
    expect(shellJson.images?.length).toBe(1)
    expect(describeSbm(zip['1F.sbm']!).floors?.[0]?.id).toBe('1F')

    // the project opens the structure as it is: shell, three floors in order, their models
    const info = await callApi<ModelInfoDatum>(testApp.app, {
      url: '/web/model/findModelInfo',
      token: editor,
      form: { project_id: project.id },
    })
    const { structure, models, shell_json_path } = info.envelope.datum
    expect(shell_json_path).not.toBeNull()
    expect(structure.name).toBe('타워 A')
    expect(structure.floors.map((floor) => [floor.name, floor.elevation])).toEqual([
      ['B1', 0],
      ['1F', 4],
      ['2F', 8],
    ])
    expect(structure.floors.every((floor) => floor.modelIds.length === 1)).toBe(true)
    const shellModel = models.find((model) => model.id === structure.shellModelId)
    expect(shellModel?.file_name).toBe('duck.sbm')

    // the status is the starter's only
    const foreign = await callApi(testApp.app, {
      url: '/web/modelConfig/mergeStatus',
      token: neighbour,
      form: { id: status.id },
    })
    expect(foreign.statusCode).toBe(404)
  })

  it('takes SBM floors as they are and marks them as floors', async () => {
    const started = await merge({ output_name: 'Sbm tower' }, [
      ...sampleParts().filter((part) => part.name !== 'floors'),
      filePart('floors', '3F.sbm', parts.twoStoreys!),
    ])
    expect(started.envelope.code).toBe('0')
    const status = (await finished(started.envelope.datum.id)).envelope.datum
    expect(status.state).toBe('succeeded')
    expect(status.result?.projectId).toBeNull()
  })

  it("answers a merge's steps from another app instance on the same database", async () => {
    // issue 22: the status check of a running merge may reach another API process
    const other = await createTestApp({ sharing: testApp })
    try {
      const started = await merge({ output_name: 'Two processes' }, sampleParts())
      expect(started.envelope.code).toBe('0')
      const { id } = started.envelope.datum
      const statusOn = (app: TestApp) =>
        callApi<MergeStatusDatum>(app.app, {
          url: '/web/modelConfig/mergeStatus',
          token: editor,
          form: { id },
        })
      // until its result is saved, only the status row knows the merge
      const meanwhile = await statusOn(other)
      expect(meanwhile.envelope.code).toBe('0')
      expect(['queued', 'running', 'succeeded']).toContain(meanwhile.envelope.datum.state)
      const here = (await finished(id)).envelope.datum
      expect(here.state).toBe('succeeded')
      const there = await statusOn(other)
      expect(there.envelope.datum).toEqual(here)
    } finally {
      await other.close()
    }
  })

  it('stops with the converter reason when a model cannot be converted, saving nothing', async () => {
    const project = await createProject(testApp.app, editor, { kind: 'building', name: 'Broken' })
    const started = await merge({ output_name: 'Broken', project_id: project.id }, [
      ...sampleParts().filter((part) => part.name !== 'floors'),
      filePart('floors', '1F.dae', Buffer.from('<COLLADA>not really</COLLADA>')),
    ])
    expect(started.envelope.code).toBe('0')
    const status = (await finished(started.envelope.datum.id)).envelope.datum
    expect(status.state).toBe('failed')
    expect(status.error?.messageId).toMatch(/^convert\./)
    expect(status.steps.find((step) => step.name === '1F.dae')?.state).toBe('failed')
    expect(status.result).toBeNull()
    const info = await callApi<ModelInfoDatum>(testApp.app, {
      url: '/web/model/findModelInfo',
      token: editor,
      form: { project_id: project.id },
    })
    expect(info.envelope.datum.models).toEqual([])
  })
})
