import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Project, ProjectShareDatum } from '../../../contract/project'
import type { Capture } from '../../../contract/visit'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import {
  createProject,
  postMultipart,
  sampleFiles,
  signInNewUser,
  storedFiles,
} from './project-test-kit'

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`
const camera = (x: number) => JSON.stringify({ position: [x, 5, 10], target: [0, 0, 0] })

describe('visit captures and the public preview check', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let stranger: string
  let guest: string
  let admin: string
  let building: Project
  let other: Project
  let png: Buffer

  const addCapture = (
    token: string,
    projectId: string,
    extra: Record<string, string> = {},
    file = png,
  ) =>
    postMultipart<Capture>(app, '/web/project/addCapture', token, [
      { name: 'project_id', value: projectId },
      { name: 'camera', value: camera(1) },
      ...Object.entries(extra).map(([name, value]) => ({ name, value })),
      { name: 'file', value: file, fileName: 'capture.png', contentType: 'image/png' },
    ])
  const list = (json: unknown, token?: string, headers?: Record<string, string>) =>
    callApi<Capture[]>(app, {
      url: '/web/project/findCaptureById',
      json,
      ...(token === undefined ? {} : { token }),
      ...(headers === undefined ? {} : { headers }),
    })

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    owner = await signInNewUser(app, unique('visit-owner'))
    stranger = await signInNewUser(app, unique('visit-stranger'))
    guest = await signInNewUser(app, unique('visit-guest'), 'guest')
    admin = await signIn(app, testAdmin)
    building = await createProject(app, owner, { kind: 'building', name: 'Visit tower' })
    other = await createProject(app, stranger, { kind: 'building', name: 'Other tower' })
    png = (await sampleFiles()).png
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('adds captures in sequence, serves their PNG, reorders and deletes them', async () => {
    const first = await addCapture(owner, building.id, { name: 'Lobby', dwell_seconds: '3' })
    expect(first.envelope).toMatchObject({
      code: '0',
      datum: { name: 'Lobby', seq: 1, dwell_seconds: 3, camera: { position: [1, 5, 10] } },
    })
    const second = (await addCapture(owner, building.id, { name: 'Roof' })).envelope.datum
    const third = (await addCapture(admin, building.id, { name: 'Stairs' })).envelope.datum
    expect([second.seq, third.seq, second.dwell_seconds]).toEqual([2, 3, 5])

    const image = await app.inject({ method: 'GET', url: first.envelope.datum.image_url })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')

    const reordered = await callApi<Capture[]>(app, {
      url: '/web/project/updateCaptureSeq',
      token: owner,
      json: { project_id: building.id, ids: [third.id, first.envelope.datum.id, second.id] },
    })
    expect(reordered.envelope.datum.map((capture) => capture.name)).toEqual([
      'Stairs',
      'Lobby',
      'Roof',
    ])
    const read = await list({ project_id: building.id }, owner)
    expect(read.envelope.datum.map((capture) => [capture.name, capture.seq])).toEqual([
      ['Stairs', 1],
      ['Lobby', 2],
      ['Roof', 3],
    ])

    const filesBefore = await storedFiles(testApp.config.filesDir)
    const afterDelete = await callApi<Capture[]>(app, {
      url: '/web/project/deleteCapture',
      token: owner,
      json: { id: third.id },
    })
    expect(afterDelete.envelope.datum.map((capture) => [capture.name, capture.seq])).toEqual([
      ['Lobby', 1],
      ['Roof', 2],
    ])
    // the three captures share the same bytes: they stay while the others use them
    expect(await storedFiles(testApp.config.filesDir)).toEqual(filesBefore)
    const gone = await app.inject({ method: 'GET', url: third.image_url })
    expect(gone.statusCode).toBe(404)
    const again = await callApi(app, {
      url: '/web/project/deleteCapture',
      token: owner,
      json: { id: third.id },
    })
    expect(again.statusCode).toBe(404)
  })

  it('refuses what is not a PNG, a 9 MB file, a bad camera and a missing file, storing nothing', async () => {
    const before = await storedFiles(testApp.config.filesDir)
    const jpeg = await addCapture(owner, building.id, {}, (await sampleFiles()).jpeg)
    expect(jpeg.statusCode).toBe(415)
    expect(jpeg.envelope.message).toContain('PNG')
    const huge = Buffer.concat([png, Buffer.alloc(9 * 1024 * 1024)])
    const tooBig = await addCapture(owner, building.id, {}, huge)
    expect(tooBig.statusCode).toBe(413)
    const badCamera = await postMultipart(app, '/web/project/addCapture', owner, [
      { name: 'project_id', value: building.id },
      { name: 'camera', value: '{"position":[1,2],"target":"x"}' },
      { name: 'file', value: png, fileName: 'c.png', contentType: 'image/png' },
    ])
    expect(badCamera.statusCode).toBe(400)
    const noFile = await postMultipart(app, '/web/project/addCapture', owner, [
      { name: 'project_id', value: building.id },
      { name: 'camera', value: camera(2) },
    ])
    expect(noFile.statusCode).toBe(400)
    const jsonBody = await callApi(app, {
      url: '/web/project/addCapture',
      token: owner,
      json: { project_id: building.id, camera: camera(1) },
    })
    expect(jsonBody.statusCode).toBe(400)
    expect(await storedFiles(testApp.config.filesDir)).toEqual(before)
  })

  it('keeps other users, guests, unknown ids and anonymous callers out', async () => {
    const mine = (await list({ project_id: building.id }, owner)).envelope.datum
    expect((await addCapture(stranger, building.id)).statusCode).toBe(403)
    expect((await addCapture(guest, building.id)).statusCode).toBe(403)
    expect((await addCapture(owner, 'no-such-project')).statusCode).toBe(404)
    expect((await list({ project_id: building.id }, stranger)).statusCode).toBe(403)
    expect((await list({ project_id: 'no-such-project' }, owner)).statusCode).toBe(404)
    const anonymous = await list({ project_id: building.id })
    expect([anonymous.statusCode, anonymous.envelope.code]).toEqual([401, '2011'])
    const strangerDelete = await callApi(app, {
      url: '/web/project/deleteCapture',
      token: stranger,
      json: { id: mine[0]!.id },
    })
    expect(strangerDelete.statusCode).toBe(403)
    const strangerReorder = await callApi(app, {
      url: '/web/project/updateCaptureSeq',
      token: stranger,
      json: { project_id: building.id, ids: mine.map((capture) => capture.id).reverse() },
    })
    expect(strangerReorder.statusCode).toBe(403)

    // a sequence that names another project's capture, leaves one out or repeats one
    const foreign = (await addCapture(stranger, other.id)).envelope.datum
    for (const ids of [
      [...mine.map((capture) => capture.id), foreign.id],
      [mine[0]!.id],
      [mine[0]!.id, mine[0]!.id],
    ]) {
      const refused = await callApi(app, {
        url: '/web/project/updateCaptureSeq',
        token: owner,
        json: { project_id: building.id, ids },
      })
      expect(refused.statusCode).toBe(400)
    }
    expect((await list({ project_id: building.id }, owner)).envelope.datum).toEqual(mine)
  })

  it("changes a capture's dwell and name for the tour, refusing bad values and other users", async () => {
    const [first] = (await list({ project_id: building.id }, owner)).envelope.datum
    const update = (token: string, json: Record<string, unknown>) =>
      callApi<Capture>(app, { url: '/web/project/updateCapture', token, json })
    const changed = await update(owner, { id: first!.id, dwell_seconds: 12 })
    expect(changed.envelope.datum).toMatchObject({ dwell_seconds: 12, name: first!.name })
    const renamed = await update(owner, { id: first!.id, name: 'Front door' })
    expect(renamed.envelope.datum).toMatchObject({ dwell_seconds: 12, name: 'Front door' })
    for (const dwell of [0, 601, 2.5, 'long']) {
      expect((await update(owner, { id: first!.id, dwell_seconds: dwell })).statusCode).toBe(400)
    }
    expect((await update(stranger, { id: first!.id, dwell_seconds: 3 })).statusCode).toBe(403)
    expect((await update(guest, { id: first!.id, dwell_seconds: 3 })).statusCode).toBe(403)
    expect((await update(owner, { id: 'no-such-capture', dwell_seconds: 3 })).statusCode).toBe(404)
    const read = (await list({ project_id: building.id }, owner)).envelope.datum[0]
    expect([read?.name, read?.dwell_seconds]).toEqual(['Front door', 12])
  })

  it('opens captures and the preview check by project token until it is revoked', async () => {
    const share = await callApi<ProjectShareDatum>(app, {
      url: '/web/project/projectShareUrl',
      token: owner,
      json: { id: building.id },
    })
    const token = share.envelope.datum.project_token
    const byBody = await list({ project_id: building.id, project_token: token })
    expect(byBody.envelope.datum.length).toBe(2)
    const byHeader = await list({ project_id: building.id }, undefined, { ProjectToken: token })
    expect(byHeader.envelope.code).toBe('0')
    const check = () =>
      callApi(app, {
        url: '/web/project/checkProjectToken',
        json: { project_id: building.id, project_token: token },
      })
    expect((await check()).envelope).toMatchObject({
      code: '0',
      datum: { project_id: building.id, name: 'Visit tower' },
    })
    // the token opens its own project only, and cannot write
    expect((await list({ project_id: other.id, project_token: token })).statusCode).toBe(403)
    const forged = await callApi(app, {
      url: '/web/project/checkProjectToken',
      json: { project_id: building.id, project_token: 'forged-token' },
    })
    expect(forged.statusCode).toBe(403)
    const tokenWrite = await callApi(app, {
      url: '/web/project/deleteCapture',
      headers: { ProjectToken: token },
      json: { id: byBody.envelope.datum[0]!.id },
    })
    expect(tokenWrite.statusCode).toBe(401)

    await callApi(app, {
      url: '/web/project/revokeProjectTokens',
      token: owner,
      json: { id: building.id },
    })
    expect((await check()).statusCode).toBe(403)
    expect((await list({ project_id: building.id, project_token: token })).statusCode).toBe(403)
  })

  it('drops captures and their images with the project', async () => {
    const project = await createProject(app, owner, { kind: 'building', name: 'Short-lived' })
    const capture = (await addCapture(owner, project.id)).envelope.datum
    const deleted = await callApi(app, {
      url: '/web/project/deleteProject',
      token: owner,
      json: { id: project.id },
    })
    expect(deleted.envelope.code).toBe('0')
    expect((await app.inject({ method: 'GET', url: capture.image_url })).statusCode).toBe(404)
  })
})
