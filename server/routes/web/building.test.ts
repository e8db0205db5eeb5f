import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  BuildingModel,
  ConversionDatum,
  FloorUploadDatum,
  ModelCountDatum,
  ModelInfoDatum,
  StructureUploadDatum,
} from '../../../contract/building'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'

import {
  markAsSymlink,
  ownPngPixels,
  sbmFixtureFiles,
  sharedFile,
  uniqueCopy,
  withLyingAccessorCount,
  withLyingChunkLength,
  withRequiredExtension,
  withSbmMarker,
} from './building-test-kit'
import { payForProject } from './orders-test-kit'
import {
  createProject,
  type MultipartPart,
  postMultipart,
  sampleFiles,
  signInNewUser,
  storedFiles,
} from './project-test-kit'

const notValidSbm = 'Failed to load a model, not a valid SBM file!'

/** A file URL without its read grant, to test the token-based checks. */
const withoutGrant = (url: string) => url.split('?')[0]!

function filePart(fileName: string, value: Uint8Array, name = 'file'): MultipartPart {
  return { name, value: Buffer.from(value), fileName }
}

describe('building models API', () => {
  let testApp: TestApp
  let editor: string
  let otherEditor: string
  let fixtures: Awaited<ReturnType<typeof sbmFixtureFiles>>

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
    otherEditor = await signInNewUser(testApp.app, 'model-neighbour')
    fixtures = await sbmFixtureFiles()
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const newBuilding = (token = editor) =>
    createProject(testApp.app, token, { kind: 'building', name: 'Model test building' })

  const uploadFloors = (projectId: string, parts: MultipartPart[], token = editor) =>
    postMultipart<FloorUploadDatum>(testApp.app, '/web/upload/uploadZip', token, [
      { name: 'project_id', value: projectId },
      ...parts,
    ])

  const modelInfo = async (projectId: string, token = editor) => {
    const answer = await callApi<ModelInfoDatum>(testApp.app, {
      url: '/web/model/findModelInfo',
      token,
      form: { project_id: projectId },
    })
    expect(answer.envelope.code).toBe('0')
    return answer.envelope.datum
  }

  const fetchFile = (url: string, headers: Record<string, string> = {}) =>
    testApp.app.inject({ method: 'GET', url, headers })

  describe('floor upload (/upload/uploadZip)', () => {
    it('converts common models dropped onto it and stacks their floors one storey apart', async () => {
      const project = await newBuilding()
      const answer = await uploadFloors(project.id, [
        filePart('Duck.glb', await sharedFile('gltf/Duck/Duck.glb')),
        filePart('box.fbx', await sharedFile('fbx/box.fbx')),
      ])
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
      const { models, floors } = answer.envelope.datum
      expect(models.map((model) => [model.name, model.file_name, model.role])).toEqual([
        ['Duck', 'Duck.sbm', 'floor'],
        ['box', 'box.sbm', 'floor'],
      ])
      expect(floors.map((floor) => [floor.name, floor.elevation])).toEqual([
        ['Duck', 0],
        ['box', 3],
      ])
      const served = await fetchFile(models[0]!.url)
      expect(describeSbm(served.rawPayload).role).toBe('floor')

      // Each converted model has its own thumbnail, drawn from its triangles: a PNG with an
      // opaque, coloured silhouette, read by the model file's rules.
      const previews = models.map((model) => model.preview_path ?? '')
      expect(previews.every((path) => /^\/web\/model\/files\/.+\.png\?grant=/.test(path))).toBe(
        true,
      )
      expect(new Set(previews).size).toBe(2)
      for (const path of previews) {
        const image = await fetchFile(path)
        expect(image.statusCode).toBe(200)
        expect(image.headers['content-type']).toBe('image/png')
        const { width, rgba } = ownPngPixels(image.rawPayload)
        expect(width).toBe(128)
        let drawn = 0
        for (let index = 3; index < rgba.length; index += 4) if (rgba[index]! > 0) drawn += 1
        expect(drawn).toBeGreaterThan(128 * 128 * 0.05)
        expect((await fetchFile(withoutGrant(path), { token: editor })).statusCode).toBe(200)
        expect((await fetchFile(withoutGrant(path), { token: otherEditor })).statusCode).toBe(403)
        expect((await fetchFile(withoutGrant(path))).statusCode).toBe(401)
      }

      // A floor's elevation is the user's to change; the scene stacks floors by it.
      const moved = await callApi<{ elevation: number }>(testApp.app, {
        url: '/web/BIMupload/updateFloor',
        token: editor,
        form: { id: floors[1]!.id, elevation: '4.5' },
      })
      expect(moved.envelope.datum.elevation).toBe(4.5)
      const info = await modelInfo(project.id)
      expect(info.structure.floors.map((floor) => floor.elevation)).toEqual([0, 4.5])
      const foreign = await callApi(testApp.app, {
        url: '/web/BIMupload/updateFloor',
        token: otherEditor,
        form: { id: floors[1]!.id, elevation: '1' },
      })
      expect(foreign.statusCode).toBe(403)
      const bad = await callApi(testApp.app, {
        url: '/web/BIMupload/updateFloor',
        token: editor,
        form: { id: floors[1]!.id, elevation: 'high' },
      })
      expect(bad.statusCode).toBe(400)
    })

    it('converts a zip of a .gltf with its files, and names what it refuses', async () => {
      const project = await newBuilding()
      const zip = zipSync({
        'duck/Duck.gltf': await sharedFile('gltf/Duck/Duck.gltf'),
        'duck/Duck0.bin': await sharedFile('gltf/Duck/Duck0.bin'),
        'duck/DuckCM.png': await sharedFile('gltf/Duck/DuckCM.png'),
      })
      const answer = await uploadFloors(project.id, [filePart('duck.zip', zip)])
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
      expect(answer.envelope.datum.models.map((model) => model.file_name)).toEqual(['Duck.sbm'])

      const refused = await uploadFloors(project.id, [filePart('notes.txt', Buffer.from('hi'))])
      expect(refused.statusCode).toBe(415)
      expect(refused.envelope).toMatchObject({
        messageId: 'building.modelFileNotAccepted',
        params: { file: 'notes.txt' },
      })
      const gltf1 = await uploadFloors(project.id, [
        filePart('old.glb', await sharedFile('gltf/edge-cases/glTF1.0-BoxTextured.glb')),
      ])
      expect(gltf1.statusCode).toBeGreaterThanOrEqual(400)
      expect(gltf1.statusCode).toBeLessThan(500)
      expect(gltf1.envelope).toMatchObject({
        messageId: 'building.conversionRefused',
        params: { file: 'old.glb' },
      })
      expect((await modelInfo(project.id)).models).toHaveLength(1)
    })

    it('registers the floors an SBM carries and serves the model to its owner', async () => {
      const project = await newBuilding()
      const answer = await uploadFloors(project.id, [
        filePart('two-storeys.sbm', fixtures.twoStoreys),
      ])
      expect(answer.statusCode).toBe(200)
      expect(answer.envelope.code).toBe('0')
      const { models, floors } = answer.envelope.datum
      expect(floors.map((floor) => [floor.floor_key, floor.name, floor.elevation])).toEqual([
        ['F1', '1F', 0],
        ['F2', '2F', 3],
      ])
      expect(models).toHaveLength(1)
      const model = models[0]!
      expect(model).toMatchObject({
        name: 'two-storeys',
        file_name: 'two-storeys.sbm',
        role: 'floor',
        floor_id: floors[0]!.id,
        size_bytes: fixtures.twoStoreys.byteLength,
        triangle_count: describeSbm(fixtures.twoStoreys).triangleCount,
        has_stored_bvh: true,
        model_load_hint: 'storedBvh',
      })
      // an SBM uploaded as it is gets its thumbnail drawn too
      expect(model.preview_path).toMatch(/^\/web\/model\/files\/.+\.png\?grant=/)
      const thumbnail = await fetchFile(model.preview_path!)
      expect(thumbnail.headers['content-type']).toBe('image/png')
      expect(ownPngPixels(thumbnail.rawPayload).rgba.some((value) => value > 0)).toBe(true)

      const info = await modelInfo(project.id)
      expect(info.models.map((row) => row.id)).toEqual([model.id])
      expect(info.structure.floors.map((floor) => floor.modelIds)).toEqual([[model.id], []])

      const served = await fetchFile(model.url, { token: editor })
      expect(served.statusCode).toBe(200)
      expect(served.headers['cache-control']).toContain('immutable')
      expect(Buffer.compare(served.rawPayload, fixtures.twoStoreys)).toBe(0)
      // the engine's plain fetch reads it with the grant in the URL; without the grant, another
      // user cannot read it, nor anybody without a token; a grant opens only its own file
      expect((await fetchFile(model.url)).statusCode).toBe(200)
      expect((await fetchFile(withoutGrant(model.url), { token: otherEditor })).statusCode).toBe(
        403,
      )
      expect((await fetchFile(withoutGrant(model.url))).statusCode).toBe(401)
      const otherGrant = new URL(info.models[0]!.url, 'http://x').searchParams.get('grant')
      expect(otherGrant).toMatch(/^[0-9a-z]+\.-\.[\w-]{43}$/)
      const forged = `${withoutGrant(model.url)}?grant=${otherGrant!.slice(0, -2)}xx`
      expect((await fetchFile(forged)).statusCode).toBe(403)
    })

    it('refuses a floor zip without an SBM or model in it, naming it, and saves nothing', async () => {
      const project = await newBuilding()
      const noModel = zipSync({
        'readme.txt': Buffer.from('the floors'),
        'plan.pdf': Buffer.from('%PDF-1.4'),
        'photo.png': (await sampleFiles()).png,
      })
      const refused = await uploadFloors(project.id, [filePart('floors.zip', noModel)])
      expect(refused.statusCode).toBe(415)
      expect(refused.envelope).toMatchObject({
        messageId: 'building.zipHasNoModel',
        params: { file: 'floors.zip' },
      })
      // an entry named .sbm that is not one: refused naming the entry and the ZIP, the other
      // floor not kept
      const fake = zipSync({
        '1F.sbm': uniqueCopy(fixtures.duck, project.id),
        'levels/2F.sbm': Buffer.from('not an SBM at all'),
        'notes.txt': Buffer.from('2F is new'),
      })
      const notSbm = await uploadFloors(project.id, [filePart('floors.zip', fake)])
      expect(notSbm.statusCode).toBe(415)
      expect(notSbm.envelope).toMatchObject({
        message: 'levels/2F.sbm in floors.zip is not a valid SBM file.',
        messageId: 'building.zipEntryNotSbm',
        params: { entry: 'levels/2F.sbm', file: 'floors.zip' },
        datum: { details: [{ file: 'levels/2F.sbm' }] },
      })
      expect((await modelInfo(project.id)).models).toEqual([])
    })

    it('makes a floor named after a file that has no floor metadata, and takes ZIPs', async () => {
      const project = await newBuilding()
      const zip = zipSync({
        'models/level-3.sbm': fixtures.duck,
        'models/readme.txt': new TextEncoder().encode('three floors'),
        '__MACOSX/models/._level-3.sbm': new Uint8Array([0, 5, 22, 7]),
      })
      const answer = await uploadFloors(project.id, [filePart('floors.zip', zip)])
      expect(answer.envelope.code).toBe('0')
      const { models, floors } = answer.envelope.datum
      expect(floors.map((floor) => floor.name)).toEqual(['level-3'])
      expect(models.map((model) => [model.file_name, model.floor_id])).toEqual([
        ['level-3.sbm', floors[0]!.id],
      ])
      // the archive itself is not kept: only the model's bytes are stored
      const served = await fetchFile(models[0]!.url, { token: editor })
      expect(Buffer.compare(served.rawPayload, fixtures.duck)).toBe(0)
    })

    it('takes many SBM files at once, and a file name already there replaces that model', async () => {
      const project = await newBuilding()
      const first = await uploadFloors(project.id, [
        filePart('a.sbm', fixtures.duck),
        filePart('b.sbm', fixtures.twoStoreys),
      ])
      expect(first.envelope.datum.models).toHaveLength(2)
      const before = first.envelope.datum.models.find((model) => model.file_name === 'a.sbm')!
      const second = await uploadFloors(project.id, [filePart('a.sbm', fixtures.twoStoreys)])
      const after = second.envelope.datum.models[0]!
      expect(after.id).toBe(before.id)
      expect(after.url).not.toBe(before.url)
      expect(after.size_bytes).toBe(fixtures.twoStoreys.byteLength)
      expect((await modelInfo(project.id)).models).toHaveLength(2)
    })

    it.each([
      ['a plain GLB renamed to .sbm', 'duck.sbm', async () => sharedFile('gltf/Duck/Duck.glb')],
      ['a truncated SBM', 'cut.sbm', async () => fixtures.duck.subarray(0, 5_000)],
      [
        'an SBM whose chunk length lies',
        'liar.sbm',
        async () => withLyingChunkLength(fixtures.duck),
      ],
      [
        'an SBM whose index accessor claims 2,000,000,000 elements',
        'lying-accessor.sbm',
        async () => withLyingAccessorCount(fixtures.duck),
      ],
      ['an empty file', 'empty.sbm', async () => Buffer.alloc(0)],
      [
        'a JPEG named .sbm',
        'photo.sbm',
        async () => sharedFile('3dtiles/tools/contentTypes/content.jpg'),
      ],
    ])('refuses %s with the SBM message and changes nothing', async (_label, name, bytesOf) => {
      const project = await newBuilding()
      await uploadFloors(project.id, [filePart('kept.sbm', fixtures.duck)])
      const storeBefore = await storedFiles(testApp.config.filesDir)
      const answer = await uploadFloors(project.id, [
        filePart('kept.sbm', fixtures.twoStoreys),
        filePart(name, await bytesOf()),
      ])
      expect(answer.statusCode).toBe(415)
      expect(answer.envelope.message).toBe(notValidSbm)
      expect(answer.envelope.datum).toMatchObject({ details: [{ file: name }] })
      const info = await modelInfo(project.id)
      expect(info.models.map((model) => model.size_bytes)).toEqual([fixtures.duck.byteLength])
      expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
    })

    it.each([
      [
        'a zip bomb',
        () => zipSync({ 'bomb.sbm': new Uint8Array(8 * 1024 * 1024) }),
        'archive.suspiciousCompression',
      ],
      [
        'an entry that climbs out of its folder',
        () => zipSync({ '../../evil.sbm': fixtures.duck }),
        'archive.unsafeEntryName',
      ],
      [
        'a symbolic link',
        () => markAsSymlink(zipSync({ 'link.sbm': fixtures.duck }), 'link.sbm'),
        'archive.unsafeEntryName',
      ],
      ['bytes that are no archive', () => fixtures.duck, 'archive.notZip'],
      [
        'an archive without SBMs',
        () => zipSync({ 'notes.txt': new Uint8Array(10) }),
        'no model entry',
      ],
      [
        'an archive holding an invalid SBM',
        () => zipSync({ 'ok.sbm': fixtures.duck, 'bad.sbm': new Uint8Array(64) }),
        /.+/,
      ],
    ])('refuses %s before anything changes', async (_label, zipOf, reason) => {
      const project = await newBuilding()
      const storeBefore = await storedFiles(testApp.config.filesDir)
      const answer = await uploadFloors(project.id, [filePart('upload.zip', zipOf())])
      expect(answer.statusCode).toBeGreaterThanOrEqual(400)
      expect(answer.statusCode).toBeLessThan(500)
      expect(answer.envelope.code).not.toBe('0')
      const details = (answer.envelope.datum as unknown as { details: Array<{ reason: string }> })
        .details
      expect(details[0]?.reason).toMatch(reason)
      expect((await modelInfo(project.id)).models).toEqual([])
      expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
    })

    it('takes a finished resumable upload by upload_id instead of a multipart file', async () => {
      const project = await newBuilding()
      const bytes = uniqueCopy(fixtures.twoStoreys, `resumable-${project.id}`)
      const metadata = ['filename', 'purpose']
        .map(
          (key, index) =>
            `${key} ${Buffer.from(['tower.sbm', 'model'][index]!).toString('base64')}`,
        )
        .join(',')
      const tus = { 'tus-resumable': '1.0.0', token: editor }
      const created = await testApp.app.inject({
        method: 'POST',
        url: '/web/upload/resumable',
        headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': metadata },
      })
      expect(created.statusCode).toBe(201)
      const uploadId = String(created.headers.location).split('/').pop()!
      const patched = await testApp.app.inject({
        method: 'PATCH',
        url: `/web/upload/resumable/${uploadId}`,
        headers: {
          ...tus,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        payload: bytes,
      })
      expect(patched.statusCode).toBe(204)
      const answer = await uploadFloors(project.id, [{ name: 'upload_id', value: uploadId }])
      expect(answer.envelope.code).toBe('0')
      expect(answer.envelope.datum.models.map((model) => model.file_name)).toEqual(['tower.sbm'])
      expect(answer.envelope.datum.models[0]!.size_bytes).toBe(bytes.length)
      // the upload was consumed: it cannot be claimed twice
      const again = await uploadFloors(project.id, [{ name: 'upload_id', value: uploadId }])
      expect(again.statusCode).toBe(404)
    })

    it('refuses missing fields, JSON bodies, and projects that are not the caller’s', async () => {
      const project = await newBuilding()
      const noProject = await postMultipart(testApp.app, '/web/upload/uploadZip', editor, [
        filePart('a.sbm', fixtures.duck),
      ])
      expect(noProject.statusCode).toBe(400)
      expect(noProject.envelope.message).toContain('project_id')

      const noFile = await uploadFloors(project.id, [])
      expect(noFile.statusCode).toBe(400)

      const json = await callApi(testApp.app, {
        url: '/web/upload/uploadZip',
        token: editor,
        json: { project_id: project.id },
      })
      expect(json.statusCode).toBe(400)

      const foreign = await uploadFloors(
        project.id,
        [filePart('a.sbm', fixtures.duck)],
        otherEditor,
      )
      expect(foreign.statusCode).toBe(403)
      const unknown = await uploadFloors('0f6b7a57-1c2e-4f0e-9a39-5a4f1c1d2e3f', [
        filePart('a.sbm', fixtures.duck),
      ])
      expect(unknown.statusCode).toBe(404)
      const wrongField = await uploadFloors(project.id, [filePart('a.sbm', fixtures.duck, 'other')])
      expect(wrongField.statusCode).toBe(400)
      expect((await modelInfo(project.id)).models).toEqual([])
    })
  })

  describe('shell upload (/upload/configModelFileStructureReturnUrl)', () => {
    it('makes a dropped model the shell, converting it first', async () => {
      const project = await newBuilding()
      const answer = await postMultipart<StructureUploadDatum>(
        testApp.app,
        '/web/upload/configModelFileStructureReturnUrl',
        editor,
        [
          { name: 'project_id', value: project.id },
          filePart('Duck.glb', await sharedFile('gltf/Duck/Duck.glb')),
        ],
      )
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
      const info = await modelInfo(project.id)
      expect(info.models.map((model) => [model.file_name, model.role])).toEqual([
        ['Duck.sbm', 'shell'],
      ])
      expect(info.structure.shellModelId).toBe(info.models[0]!.id)

      const text = await postMultipart(
        testApp.app,
        '/web/upload/configModelFileStructureReturnUrl',
        editor,
        [{ name: 'project_id', value: project.id }, filePart('shell.txt', Buffer.from('{}'))],
      )
      expect(text.statusCode).toBe(415)
      expect(text.envelope).toMatchObject({
        messageId: 'building.modelFileNotAccepted',
        params: { file: 'shell.txt' },
      })
    })

    const manifest = {
      version: 1,
      kind: 'building',
      name: 'House',
      shell: { model: 'house.sbm' },
      floors: [
        { id: 'F1', name: '1F', elevation: 0, model: 'two-storeys.sbm', maps: [] },
        { id: 'F2', name: '2F', elevation: 3, model: 'second.sbm', maps: [] },
      ],
    }
    const uploadManifest = (projectId: string, parts: MultipartPart[], token = editor) =>
      postMultipart<StructureUploadDatum>(
        testApp.app,
        '/web/upload/configModelFileStructureReturnUrl',
        token,
        [{ name: 'project_id', value: projectId }, ...parts],
      )
    const jsonPart = (value: unknown, fileName = 'shell.json') =>
      filePart(fileName, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)))

    it('links shell and floors by file name, reports missing models and sets shell_json_path', async () => {
      const project = await newBuilding()
      const floors = await uploadFloors(project.id, [
        filePart('two-storeys.sbm', fixtures.twoStoreys),
        filePart('house.sbm', withSbmMarker(fixtures.duck, { role: 'shell' })),
      ])
      expect(floors.envelope.code).toBe('0')
      const shell = floors.envelope.datum.models.find((model) => model.file_name === 'house.sbm')!
      const floorModel = floors.envelope.datum.models.find(
        (m) => m.file_name === 'two-storeys.sbm',
      )!
      expect(shell.role).toBe('shell')

      const answer = await uploadManifest(project.id, [jsonPart(manifest)])
      expect(answer.envelope.code).toBe('0')
      const datum = answer.envelope.datum
      expect(datum.missingModels).toEqual(['second.sbm'])
      expect(datum.structure.name).toBe('House')
      expect(datum.structure.shellModelId).toBe(shell.id)
      expect(datum.structure.floors.map((floor) => [floor.name, floor.modelIds])).toEqual([
        ['1F', [floorModel.id]],
        ['2F', []],
      ])

      const info = await modelInfo(project.id)
      expect(info.shell_json_path).toBe(datum.url)
      const stored = await callApi<Project>(testApp.app, {
        url: '/web/project/findProject',
        token: editor,
        form: { id: project.id },
      })
      expect(stored.envelope.datum.shell_json_path).toBe(withoutGrant(datum.url))
      const served = await fetchFile(datum.url, { token: editor })
      expect(served.statusCode).toBe(200)
      expect(JSON.parse(served.body)).toMatchObject({ name: 'House' })
    })

    it.each([
      ['text that is not JSON', [jsonPart('{"version": 1,')], 400],
      ['JSON of the wrong shape', [jsonPart({ ...manifest, floors: [{ id: 'F1' }] })], 400],
      [
        'a floor id used twice',
        [jsonPart({ ...manifest, floors: [manifest.floors[0], manifest.floors[0]] })],
        400,
      ],
      ['two files', [jsonPart(manifest), jsonPart(manifest, 'b.json')], 400],
      ['no file', [], 400],
    ])('refuses %s with a validation error', async (_label, parts, status) => {
      const project = await newBuilding()
      const answer = await uploadManifest(project.id, parts)
      expect(answer.statusCode).toBe(status)
      expect(answer.envelope.code).toBe('1000')
      expect(answer.envelope.message.length).toBeGreaterThan(0)
      expect((await modelInfo(project.id)).shell_json_path).toBeNull()
    })

    it('names the wrong field of a malformed manifest', async () => {
      const project = await newBuilding()
      const answer = await uploadManifest(project.id, [
        jsonPart({ ...manifest, floors: [{ ...manifest.floors[0], elevation: 'high' }] }),
      ])
      expect(answer.envelope.message).toContain('floors.0.elevation')
    })
  })

  describe('model changes', () => {
    const setup = async () => {
      const project = await newBuilding()
      const answer = await uploadFloors(project.id, [
        filePart('two-storeys.sbm', uniqueCopy(fixtures.twoStoreys, project.id)),
        filePart('duck.sbm', uniqueCopy(fixtures.duck, project.id)),
      ])
      const [floorModel, duck] = answer.envelope.datum.models
      return { project, floors: answer.envelope.datum.floors, floorModel: floorModel!, duck: duck! }
    }

    it('renames, moves to a floor and changes role; refuses a floor of another project', async () => {
      const { floors, duck } = await setup()
      const answer = await callApi<BuildingModel>(testApp.app, {
        url: '/web/BIMupload/updateBimModel',
        token: editor,
        form: { id: duck.id, name: 'Yellow duck', floor_id: floors[1]!.id, role: 'model' },
      })
      expect(answer.envelope.datum).toMatchObject({
        name: 'Yellow duck',
        floor_id: floors[1]!.id,
        role: 'model',
      })
      const offFloor = await callApi<BuildingModel>(testApp.app, {
        url: '/web/BIMupload/updateBimModel',
        token: editor,
        form: { id: duck.id, floor_id: '' },
      })
      expect(offFloor.envelope.datum.floor_id).toBeNull()

      const other = await setup()
      const wrongFloor = await callApi(testApp.app, {
        url: '/web/BIMupload/updateBimModel',
        token: editor,
        form: { id: duck.id, floor_id: other.floors[0]!.id },
      })
      expect(wrongFloor.statusCode).toBe(400)
      const badRole = await callApi(testApp.app, {
        url: '/web/BIMupload/updateBimModel',
        token: editor,
        form: { id: duck.id, role: 'roof' },
      })
      expect(badRole.statusCode).toBe(400)
      const foreign = await callApi(testApp.app, {
        url: '/web/BIMupload/updateBimModel',
        token: otherEditor,
        form: { id: duck.id, name: 'Mine now' },
      })
      expect(foreign.statusCode).toBe(403)
    })

    it('saves placement and visibility', async () => {
      const { duck } = await setup()
      const answer = await callApi<BuildingModel>(testApp.app, {
        url: '/web/project/updatemodelinfo',
        token: editor,
        json: {
          id: duck.id,
          position: [1, 2.5, -3],
          rotationDegrees: [0, 90, 0],
          is_visible: false,
        },
      })
      expect(answer.envelope.datum.placement).toEqual({
        position: [1, 2.5, -3],
        rotationDegrees: [0, 90, 0],
        scale: [1, 1, 1],
      })
      expect(answer.envelope.datum.is_visible).toBe(false)
      const invalid = await callApi(testApp.app, {
        url: '/web/project/updatemodelinfo',
        token: editor,
        json: { id: duck.id, scale: [1, 0, 1] },
      })
      expect(invalid.statusCode).toBe(400)
      const wrongLength = await callApi(testApp.app, {
        url: '/web/project/updatemodelinfo',
        token: editor,
        json: { id: duck.id, position: [1, 2] },
      })
      expect(wrongLength.statusCode).toBe(400)
    })

    it('replaces a model file, refusing an invalid one without touching the model', async () => {
      const { duck } = await setup()
      const bad = await postMultipart(testApp.app, '/web/upload/uploadandupdatemodel', editor, [
        { name: 'id', value: duck.id },
        filePart('duck.sbm', await sharedFile('gltf/Duck/Duck.glb')),
      ])
      expect(bad.statusCode).toBe(415)
      expect(bad.envelope.message).toBe(notValidSbm)
      const good = await postMultipart<BuildingModel>(
        testApp.app,
        '/web/upload/uploadandupdatemodel',
        editor,
        [{ name: 'id', value: duck.id }, filePart('duck-v2.sbm', fixtures.twoStoreys)],
      )
      expect(good.envelope.datum.size_bytes).toBe(fixtures.twoStoreys.byteLength)
      expect(good.envelope.datum.id).toBe(duck.id)
      expect((await fetchFile(duck.url, { token: editor })).statusCode).toBe(404)
    })

    it("keeps a model's calls to its project's owner (access matrix), changing nothing", async () => {
      const { project, duck } = await setup()
      const guest = await signInNewUser(testApp.app, 'model-calls-guest', 'guest')
      const before = await modelInfo(project.id)
      const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
        ['/web/BIMupload/updateBimModel', { id: duck.id, name: 'Taken' }],
        ['/web/project/updatemodelinfo', { id: duck.id, position: [9, 9, 9] }],
        // a conversion of their own would not help: the project is checked first
        ['/web/model/createModelByCategory', { project_id: project.id, sbm_uuid: 'made-up' }],
        ['/web/findmodelnum', { project_id: project.id }],
      ]
      for (const [url, json] of calls) {
        for (const token of [otherEditor, guest]) {
          expect((await callApi(testApp.app, { url, token, json })).statusCode, url).toBe(403)
        }
        expect((await callApi(testApp.app, { url, json })).envelope.code, url).toBe('2011')
      }
      const newFile = [{ name: 'id', value: duck.id }, filePart('duck.sbm', fixtures.twoStoreys)]
      for (const token of [otherEditor, guest]) {
        const replaced = await postMultipart(
          testApp.app,
          '/web/upload/uploadandupdatemodel',
          token,
          newFile,
        )
        expect(replaced.statusCode).toBe(403)
      }
      const signedOut = await postMultipart(
        testApp.app,
        '/web/upload/uploadandupdatemodel',
        '',
        newFile,
      )
      expect(signedOut.envelope.code).toBe('2011')
      expect(await modelInfo(project.id)).toEqual(before)
    })

    it('counts models by role', async () => {
      const { project } = await setup()
      const answer = await callApi<ModelCountDatum>(testApp.app, {
        url: '/web/findmodelnum',
        token: editor,
        form: { project_id: project.id },
      })
      expect(answer.envelope.datum).toEqual({ count: 2, shell: 0, floor: 2, model: 0 })
    })

    it('deletes a model and its bytes; refuses unknown ids and paid projects', async () => {
      const { project, floorModel, duck } = await setup()
      const deleted = await callApi(testApp.app, {
        url: '/web/BIMupload/deleteBimModel',
        token: editor,
        form: { id: duck.id },
      })
      expect(deleted.envelope.code).toBe('0')
      expect((await modelInfo(project.id)).models.map((model) => model.id)).toEqual([floorModel.id])
      const shaOf = (url: string) => /([0-9a-f]{64})\.sbm/.exec(url)![1]!
      const stored = await storedFiles(testApp.config.filesDir)
      expect(stored).not.toContain(shaOf(duck.url))
      expect(stored).toContain(shaOf(floorModel.url))

      const unknown = await callApi(testApp.app, {
        url: '/web/BIMupload/deleteBimModel',
        token: editor,
        form: { id: duck.id },
      })
      expect(unknown.statusCode).toBe(404)

      // paid as the owner pays: an order, a recharge the admin confirms, the payment
      await payForProject(testApp.app, {
        token: editor,
        adminToken: await signIn(testApp.app, testAdmin),
        projectId: project.id,
      })
      const paid = await callApi(testApp.app, {
        url: '/web/BIMupload/deleteBimModel',
        token: editor,
        form: { id: floorModel.id },
      })
      expect(paid.statusCode).toBe(403)
      expect(paid.envelope.message).toBe('Models cannot be deleted once the project is paid.')
      expect((await modelInfo(project.id)).models).toHaveLength(1)
    })

    it('lets a project-token holder read the scene and its files, read-only', async () => {
      const { project, duck } = await setup()
      const token = await callApi<ProjectTokenDatum>(testApp.app, {
        url: '/web/project/getPTokenByprojectId',
        token: editor,
        form: { id: project.id },
      })
      const projectToken = token.envelope.datum.project_token
      const info = await callApi<ModelInfoDatum>(testApp.app, {
        url: '/web/model/findModelInfo',
        form: { project_id: project.id, project_token: projectToken },
      })
      expect(info.envelope.datum.models).toHaveLength(2)
      const served = await fetchFile(`${withoutGrant(duck.url)}?project_token=${projectToken}`)
      expect(served.statusCode).toBe(200)
      const other = await setup()
      const wrong = await callApi(testApp.app, {
        url: '/web/model/findModelInfo',
        form: { project_id: other.project.id, project_token: projectToken },
      })
      expect(wrong.statusCode).toBe(403)
    })
  })

  describe('project copy and delete', () => {
    it('copies models, floors and the manifest sharing bytes; deleting one keeps the other', async () => {
      const project = await newBuilding()
      await uploadFloors(project.id, [
        filePart('two-storeys.sbm', uniqueCopy(fixtures.twoStoreys, project.id)),
      ])
      const manifest = {
        version: 1,
        kind: 'building',
        name: 'Copied',
        shell: null,
        floors: [{ id: 'F1', name: 'Ground', elevation: 0, model: 'two-storeys.sbm' }],
      }
      await postMultipart(testApp.app, '/web/upload/configModelFileStructureReturnUrl', editor, [
        { name: 'project_id', value: project.id },
        filePart('s.json', Buffer.from(JSON.stringify(manifest))),
      ])
      const original = await modelInfo(project.id)

      const copied = await callApi<Project>(testApp.app, {
        url: '/web/project/copyProject',
        token: editor,
        form: { id: project.id, name: 'Copy' },
      })
      expect(copied.envelope.code).toBe('0')
      const copy = await modelInfo(copied.envelope.datum.id)
      expect(copy.models).toHaveLength(1)
      expect(copy.models[0]!.id).not.toBe(original.models[0]!.id)
      expect(copy.models[0]!.size_bytes).toBe(original.models[0]!.size_bytes)
      expect(copy.structure.name).toBe('Copied')
      expect(copy.structure.floors.map((floor) => [floor.name, floor.modelIds])).toEqual([
        ['Ground', [copy.models[0]!.id]],
        ['2F', []],
      ])
      expect(copy.shell_json_path).toContain(copied.envelope.datum.id)
      expect((await fetchFile(copy.shell_json_path!, { token: editor })).statusCode).toBe(200)

      const { building } = testApp.app.deps.services
      const deleteProject = async (id: string) => {
        const answer = await callApi(testApp.app, {
          url: '/web/project/deleteProject',
          token: editor,
          form: { id },
        })
        expect(answer.envelope.code).toBe('0')
        await building.settleReleases()
      }
      await deleteProject(project.id)
      const sha = /([0-9a-f]{64})\.sbm/.exec(copy.models[0]!.url)![1]!
      expect(await storedFiles(testApp.config.filesDir)).toContain(sha)
      expect((await fetchFile(copy.models[0]!.url, { token: editor })).statusCode).toBe(200)

      await deleteProject(copied.envelope.datum.id)
      expect(await storedFiles(testApp.config.filesDir)).not.toContain(sha)
    })
  })

  describe('conversions', () => {
    it('converts a GLB, serves the SBM and adds it to a project on request', async () => {
      const project = await newBuilding()
      const answer = await postMultipart<ConversionDatum>(
        testApp.app,
        '/web/upload/uploadGltfForSbm',
        editor,
        // (a `category_zip_uuid` must name a 3D template model: template-models.test.ts)
        [
          { name: 'option_type', value: 'add' },
          { name: 'project_id', value: project.id },
          filePart('Duck.glb', await sharedFile('gltf/Duck/Duck.glb'), 'glbf_arr'),
        ],
      )
      expect(answer.envelope.code).toBe('0')
      const datum = answer.envelope.datum
      expect(datum.sbmName).toBe(`${datum.uuid}.sbm`)
      expect(datum.downloadName).toBe('Duck.sbm')
      expect(datum.model).toMatchObject({ role: 'model', name: 'Duck', has_stored_bvh: true })
      const thumbnail = await fetchFile(datum.model!.preview_path!)
      expect(thumbnail.statusCode).toBe(200)
      expect(thumbnail.headers['content-type']).toBe('image/png')
      const served = await fetchFile(`${datum.rootPath}${datum.sbmName}`)
      expect(served.statusCode).toBe(200)
      // saved under the source's name, not the random id
      expect(served.headers['content-disposition']).toContain('filename="Duck.sbm"')
      expect(describeSbm(served.rawPayload).triangleCount).toBe(datum.triangleCount)
    })

    it('converts a .gltf with its .bin and texture, then adds it by category', async () => {
      const project = await newBuilding()
      const answer = await postMultipart<ConversionDatum>(
        testApp.app,
        '/web/upload/uploadGltfForSbm',
        editor,
        [
          filePart('Duck.gltf', await sharedFile('gltf/Duck/Duck.gltf'), 'glbf_arr'),
          filePart('Duck0.bin', await sharedFile('gltf/Duck/Duck0.bin'), 'glbf_arr'),
          filePart('DuckCM.png', await sharedFile('gltf/Duck/DuckCM.png'), 'glbf_arr'),
        ],
      )
      expect(answer.envelope.code).toBe('0')
      expect(answer.envelope.datum.model).toBeNull()
      const added = await callApi<BuildingModel>(testApp.app, {
        url: '/web/model/createModelByCategory',
        token: editor,
        form: {
          project_id: project.id,
          sbm_uuid: answer.envelope.datum.uuid,
          name: 'Library duck',
        },
      })
      expect(added.envelope.datum).toMatchObject({ name: 'Library duck', role: 'model' })
      const foreign = await callApi(testApp.app, {
        url: '/web/model/createModelByCategory',
        token: otherEditor,
        form: { project_id: project.id, sbm_uuid: answer.envelope.datum.uuid },
      })
      expect(foreign.statusCode).toBe(403)
    })

    it.each([
      ['dae/duck.dae', 'duck.dae'],
      ['fbx/box.fbx', 'box.fbx'],
    ])('converts %s (convertSbm)', async (path, name) => {
      const answer = await postMultipart<ConversionDatum>(
        testApp.app,
        '/web/upload/convertSbm',
        editor,
        [filePart(name, await sharedFile(path))],
      )
      expect(answer.envelope.code).toBe('0')
      expect(answer.envelope.datum.triangleCount).toBeGreaterThan(0)
    })

    it.each([
      [
        'glTF 1.0',
        '/web/upload/uploadGltfForSbm',
        'glbf_arr',
        'old.glb',
        'gltf/edge-cases/glTF1.0-BoxTextured.glb',
        415,
        /glTF|version/i,
      ],
      [
        'a missing .bin',
        '/web/upload/uploadGltfForSbm',
        'glbf_arr',
        'BoxTextured.gltf',
        'gltf/edge-cases/MissingBin/BoxTextured.gltf',
        400,
        /BoxTextured0\.bin/,
      ],
      [
        'an unsupported required extension',
        '/web/upload/uploadGltfForSbm',
        'glbf_arr',
        'box.glb',
        async () =>
          withRequiredExtension(
            await sharedFile('gltf/edge-cases/Box.glb'),
            'KHR_techniques_webgl',
          ),
        415,
        /KHR_techniques_webgl/,
      ],
      [
        'a GLB sent to convertSbm',
        '/web/upload/convertSbm',
        'file',
        'Duck.glb',
        'gltf/Duck/Duck.glb',
        415,
        /\.dae or \.fbx/,
      ],
    ])(
      'refuses %s with the converter reason',
      async (_label, url, field, name, path, status, message) => {
        const storeBefore = await storedFiles(testApp.config.filesDir)
        const answer = await postMultipart(testApp.app, url, editor, [
          filePart(name, typeof path === 'string' ? await sharedFile(path) : await path(), field),
        ])
        expect(answer.statusCode).toBe(status)
        expect(answer.envelope.message).toMatch(message)
        expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
      },
    )

    it('refuses two DAE files and a .gltf without its main file', async () => {
      const dae = await sharedFile('dae/cube_triangulate.dae')
      const two = await postMultipart(testApp.app, '/web/upload/convertSbm', editor, [
        filePart('a.dae', dae),
        filePart('b.dae', dae),
      ])
      expect(two.statusCode).toBe(400)
      const onlyBin = await postMultipart(testApp.app, '/web/upload/uploadGltfForSbm', editor, [
        filePart('Duck0.bin', await sharedFile('gltf/Duck/Duck0.bin'), 'glbf_arr'),
      ])
      expect(onlyBin.statusCode).toBe(400)
    })

    it('answers /web/health while a conversion runs in its worker thread', async () => {
      const { conversions } = testApp.app.deps.services
      let isConversionDone = false
      const conversion = postMultipart<ConversionDatum>(
        testApp.app,
        '/web/upload/convertSbm',
        editor,
        [filePart('duck.dae', await sharedFile('dae/duck.dae'))],
      ).finally(() => {
        isConversionDone = true
      })
      while (conversions.load().running === 0) await new Promise((resolve) => setImmediate(resolve))
      const health = await callApi(testApp.app, { method: 'GET', url: '/web/health' })
      expect(health.statusCode).toBe(200)
      expect(isConversionDone).toBe(false)
      expect((await conversion).envelope.code).toBe('0')
    })
  })
})
