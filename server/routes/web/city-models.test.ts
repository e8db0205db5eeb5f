import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CityModel } from '../../../contract/city-models'
import type { Project } from '../../../contract/project'
import { parseGlb } from '../../../workers/sbm/glb'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { expectOwnerOnlyAccess } from './access-matrix-kit'
import { sbmFixtureFiles, sharedFile } from './building-test-kit'
import {
  createProject,
  type MultipartPart,
  postMultipart,
  signInNewUser,
  storedFiles,
} from './project-test-kit'

/**
 * The model library (issue 21 items 1 and 6): glTF/GLB/SBM models uploaded into a city project
 * (placed on the map) or a building project (placed at scene metres), turned, scaled, given
 * animation settings, served to the engine by a granted address, carried by a project copy and
 * removed with the project; with the access matrix and refusals that leave nothing half-saved.
 */

const place = { lng: 126.978, lat: 37.5665 }

/** The Duck as one uploaded GLB (under another name to test what the name claims). */
function duckPart(duck: Buffer, fileName = 'Duck.glb'): MultipartPart {
  return { name: 'file', fileName, value: duck }
}

async function cubeParts(): Promise<MultipartPart[]> {
  return [
    {
      name: 'file',
      fileName: 'AnimatedMorphCube.gltf',
      value: await sharedFile('gltf/AnimatedMorphCube/AnimatedMorphCube.gltf'),
    },
    {
      name: 'file',
      fileName: 'AnimatedMorphCube.bin',
      value: await sharedFile('gltf/AnimatedMorphCube/AnimatedMorphCube.bin'),
    },
  ]
}

describe('city model library: /cityModel', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let city: Project

  const upload = (projectId: string, files: MultipartPart[], as = token, fields = place) =>
    postMultipart<CityModel>(app, '/web/cityModel/upload', as, [
      { name: 'project_id', value: projectId },
      ...Object.entries(fields).map(([name, value]) => ({ name, value: String(value) })),
      ...files,
    ])
  /** `as` null: without a session. */
  const list = (projectId: string, as: string | null = token) =>
    callApi<CityModel[]>(app, {
      url: '/web/cityModel/findAll',
      ...(as === null ? {} : { token: as }),
      json: { project_id: projectId },
    })
  const update = (json: Record<string, unknown>, as = token) =>
    callApi<CityModel>(app, { url: '/web/cityModel/update', token: as, json })

  beforeAll(async () => {
    test = await createTestApp()
    app = test.app
    token = await signIn(app, testEditor)
    city = await createProject(app, token, { kind: 'city' } as never)
  })
  afterAll(async () => {
    await test.close()
  })

  it('packs a .gltf with its .bin into one GLB that keeps its animation, and serves it', async () => {
    const answer = await upload(city.id, await cubeParts())
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const model = answer.envelope.datum
    expect(model).toMatchObject({
      project_id: city.id,
      model_name: 'AnimatedMorphCube',
      file_name: 'AnimatedMorphCube.gltf',
      format: 'glb',
      animation_count: 1,
      ...place,
      height: 0,
      heading: 0,
      scale: 1,
      animation_clip: 0,
      animation_speed: 1,
      animation_loop: true,
      animation_autoplay: true,
    })
    // the engine fetches the granted address without a session
    const file = await app.inject({ method: 'GET', url: model.url })
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('model/gltf-binary')
    const { json } = parseGlb(new Uint8Array(file.rawPayload))
    expect((json.animations as unknown[]).length).toBe(1)
    expect(json.buffers).toEqual([{ byteLength: expect.any(Number) }])
    // a changed address is refused, and so is the file without a grant or a session
    const forged = model.url.replace(/grant=[^&]+/, 'grant=1.-.forged')
    expect((await app.inject({ method: 'GET', url: forged })).statusCode).toBe(403)
    const bare = model.url.replace(/\?.*$/, '')
    expect((await app.inject({ method: 'GET', url: bare })).statusCode).not.toBe(200)
  })

  it('keeps a GLB as it came and checks an SBM; lists, moves, turns, scales and sets animations', async () => {
    const project = await createProject(app, token, { kind: 'city' } as never)
    const duck = await upload(
      project.id,
      [{ name: 'file', fileName: 'Duck.glb', value: await sharedFile('gltf/Duck/Duck.glb') }],
      token,
      { ...place, model_name: 'Yellow duck', scale: 5 } as never,
    )
    expect(duck.envelope.datum).toMatchObject({
      model_name: 'Yellow duck',
      format: 'glb',
      animation_count: 0,
      animation_autoplay: false,
      scale: 5,
    })
    const glb = await sharedFile('gltf/Duck/Duck.glb')
    const served = await app.inject({ method: 'GET', url: duck.envelope.datum.url })
    expect(Buffer.compare(served.rawPayload, glb)).toBe(0)
    const sbm = await upload(project.id, [
      { name: 'file', fileName: 'duck.sbm', value: (await sbmFixtureFiles()).duck },
    ])
    expect(sbm.envelope.datum).toMatchObject({ format: 'sbm', animation_count: 0 })
    const cube = (await upload(project.id, await cubeParts())).envelope.datum

    const changes = {
      model_name: 'Square cube',
      lng: 126.9791,
      lat: 37.5671,
      height: 12.5,
      heading: -45,
      scale: 20,
      animation_speed: 2,
      animation_loop: false,
      animation_autoplay: false,
    }
    const moved = await update({ id: cube.id, ...changes })
    expect(moved.envelope.datum).toMatchObject(changes)
    // a form post carries numbers and booleans as text (SPEC §7)
    const byForm = await callApi<CityModel>(app, {
      url: '/web/cityModel/update',
      token,
      form: { id: cube.id, scale: '2.5', animation_loop: 'true' },
    })
    expect(byForm.envelope.datum).toMatchObject({ scale: 2.5, animation_loop: true, heading: -45 })
    const listed = (await list(project.id)).envelope.datum
    // uploaded within the same (test clock) millisecond: the order among them is the ids'
    expect(listed.map((model) => model.model_name).sort()).toEqual([
      'Square cube',
      'Yellow duck',
      'duck',
    ])
  })

  it('refuses bad uploads and changes with a clear message, and leaves nothing behind', async () => {
    const project = await createProject(app, token, { kind: 'city' } as never)
    const [gltf, bin] = await cubeParts()
    const duck = await sharedFile('gltf/Duck/Duck.glb')
    const storeBefore = await storedFiles(test.config.filesDir)
    const refusals: Array<{ files: MultipartPart[]; projectId?: string; messageId: string }> = [
      // the .gltf without its .bin
      { files: [gltf!], messageId: 'cityModel.unreadable' },
      // two models in one upload, and none at all
      {
        files: [gltf!, bin!, duckPart(duck)],
        messageId: 'cityModel.oneModel',
      },
      { files: [bin!], messageId: 'cityModel.oneModel' },
      // not a model, whatever its name says
      {
        files: [{ name: 'file', fileName: 'fake.glb', value: Buffer.from('not a model at all') }],
        messageId: 'cityModel.unreadable',
      },
      {
        files: [duckPart(duck, 'fake.sbm')],
        messageId: 'model.notValidSbm',
      },
    ]
    for (const refusal of refusals) {
      const answer = await upload(refusal.projectId ?? project.id, refusal.files)
      expect(answer.statusCode, refusal.messageId).toBeGreaterThanOrEqual(400)
      expect(answer.statusCode, refusal.messageId).toBeLessThan(500)
      expect(answer.envelope).toMatchObject({ messageId: refusal.messageId })
    }
    // a city project's model needs its place on the map
    const noPlace = await upload(project.id, [duckPart(duck)], token, {} as never)
    expect(noPlace.statusCode).toBe(400)
    expect(noPlace.envelope).toMatchObject({ messageId: 'cityModel.placeOnMap' })
    const badPlace = await upload(project.id, [duckPart(duck)], token, { lng: 200, lat: 37 })
    expect(badPlace.statusCode).toBe(400)
    expect((await list(project.id)).envelope.datum).toEqual([])
    expect(await storedFiles(test.config.filesDir)).toEqual(storeBefore)

    const model = (await upload(project.id, [duckPart(duck)])).envelope.datum
    for (const body of [
      { lat: 86 },
      { scale: 0 },
      { heading: 400 },
      { animation_speed: 20 },
      { animation_clip: 1 },
      { model_name: '  ' },
      { lng: 'east' },
    ]) {
      const answer = await update({ id: model.id, ...body })
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    expect((await list(project.id)).envelope.datum[0]).toMatchObject({
      lat: place.lat,
      scale: 1,
      heading: 0,
    })
  })

  it("keeps others out of a project's models, and carries them with a copy, gone with a delete", async () => {
    const project = await createProject(app, token, { kind: 'city' } as never)
    const model = (await upload(project.id, await cubeParts())).envelope.datum
    const other = await signInNewUser(app, 'city-model-stranger')
    const guest = await signInNewUser(app, 'city-model-guest', 'guest')
    expect((await list(project.id, other)).statusCode).toBe(403)
    expect((await list(project.id, null)).statusCode).toBe(401)
    expect((await update({ id: model.id, scale: 3 }, other)).statusCode).toBe(403)
    expect((await update({ id: model.id, scale: 3 }, guest)).statusCode).toBe(403)
    const strangerDelete = await callApi(app, {
      url: '/web/cityModel/delete',
      token: other,
      json: { id: model.id },
    })
    expect(strangerDelete.statusCode).toBe(403)
    const [gltf, bin] = await cubeParts()
    expect((await upload(project.id, [gltf!, bin!], other)).statusCode).toBe(403)
    expect((await upload(project.id, [gltf!, bin!], guest)).statusCode).toBe(403)
    // an admin may change it
    const admin = await signInNewUser(app, 'city-model-admin', 'admin')
    expect((await update({ id: model.id, heading: 90 }, admin)).envelope.code).toBe('0')

    const copy = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      form: { id: project.id },
    })
    const copied = (await list(copy.envelope.datum.id)).envelope.datum
    expect(copied).toHaveLength(1)
    expect(copied[0]).toMatchObject({ model_name: 'AnimatedMorphCube', heading: 90 })
    expect(copied[0]!.id).not.toBe(model.id)
    expect((await app.inject({ method: 'GET', url: copied[0]!.url })).statusCode).toBe(200)
    await callApi(app, {
      url: '/web/project/deleteProject',
      token,
      form: { id: copy.envelope.datum.id },
    })
    expect((await list(copy.envelope.datum.id)).statusCode).toBe(404)
    // the original keeps its model and bytes
    expect((await app.inject({ method: 'GET', url: model.url })).statusCode).toBe(200)

    const removed = await callApi(app, {
      url: '/web/cityModel/delete',
      token,
      json: { id: model.id },
    })
    expect(removed.envelope.code).toBe('0')
    expect((await list(project.id)).envelope.datum).toEqual([])
    expect((await app.inject({ method: 'GET', url: model.url })).statusCode).toBe(404)
  })

  it('places models in a building project at scene metres, kept for its next opening, for its owner only', async () => {
    const building = await createProject(app, token, { kind: 'building' } as never)
    const placed = await upload(building.id, await cubeParts(), token, {
      x: 1.5,
      y: 0,
      z: -2,
    } as never)
    expect(placed.envelope.code, placed.envelope.message).toBe('0')
    const model = placed.envelope.datum
    expect(model).toMatchObject({ x: 1.5, y: 0, z: -2, lng: 0, lat: 0, animation_count: 1 })
    const moved = await update({ id: model.id, x: 4, y: 3, z: 0.5, heading: 90, scale: 2 })
    expect(moved.envelope.datum).toMatchObject({ x: 4, y: 3, z: 0.5, heading: 90, scale: 2 })
    for (const body of [{ y: 1e9 }, { x: 'left' }]) {
      expect((await update({ id: model.id, ...body })).statusCode, JSON.stringify(body)).toBe(400)
    }
    // what the editor finds when it opens the project again, and the bytes it loads
    const [found] = (await list(building.id)).envelope.datum
    expect(found).toMatchObject({ id: model.id, x: 4, y: 3, z: 0.5, heading: 90, scale: 2 })
    expect((await app.inject({ method: 'GET', url: found!.url })).statusCode).toBe(200)

    const { projectTokenHeaders, adminToken } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: building.id,
      label: 'building-library-model',
      writes: [
        ['/web/cityModel/update', { id: model.id, x: 9 }],
        ['/web/cityModel/delete', { id: model.id }],
      ],
      reads: [['/web/cityModel/findAll', { project_id: building.id }]],
    })
    // a preview link's engine loads the model by the address its list gave
    const previewed = await callApi<CityModel[]>(app, {
      url: '/web/cityModel/findAll',
      headers: projectTokenHeaders,
      json: { project_id: building.id },
    })
    const previewUrl = previewed.envelope.datum[0]!.url
    expect((await app.inject({ method: 'GET', url: previewUrl })).statusCode).toBe(200)
    expect((await update({ id: model.id, x: 5 }, adminToken)).envelope.datum.x).toBe(5)
    const [gltf, bin] = await cubeParts()
    const stranger = await signInNewUser(app, 'building-library-model-uploader')
    expect((await upload(building.id, [gltf!, bin!], stranger)).statusCode).toBe(403)
  })
})
