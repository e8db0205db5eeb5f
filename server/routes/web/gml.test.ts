import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { GmlPath } from '../../../contract/gml'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import { uploadIdOfLocation } from '../../../contract/resumable-upload'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import {
  createProject,
  type MultipartPart,
  postMultipart,
  signInNewUser,
  storedFiles,
} from './project-test-kit'

const indoorGml = new URL('../../../../shared/data/indoorgml/', import.meta.url)
const readSample = (name: string) => readFile(new URL(name, indoorGml))
const fjkName = 'FJK-Haus_IndoorGML_withEXR-corrected_1_0_3.gml'
const pnuName = 'PNU-201_nav-demo_2019-05-24-corrected.gml'
const noNetworkName = 'negative/KU-EngBuilding-IndoorGML-2019-01-31_no-dual-graph.gml'

const billionLaughs = Buffer.from(
  [
    '<?xml version="1.0"?>',
    '<!DOCTYPE lolz [<!ENTITY lol "lol">',
    ...Array.from(
      { length: 9 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level === 0 ? '' : level};`.repeat(10)}">`,
    ),
    ']>',
    '<IndoorFeatures>&lol9;</IndoorFeatures>',
  ].join('\n'),
)

function gmlParts(projectId: string, content: Buffer, fileName = 'network.gml'): MultipartPart[] {
  return [
    { name: 'project_id', value: projectId },
    { name: 'file', value: content, fileName, contentType: 'application/gml+xml' },
  ]
}

/** A finished resumable upload of `content`; its id. */
async function tusUpload(
  app: FastifyInstance,
  token: string,
  content: Buffer,
  fileName: string,
): Promise<string> {
  const base64 = (text: string) => Buffer.from(text).toString('base64')
  const created = await app.inject({
    method: 'POST',
    url: '/web/upload/resumable',
    headers: {
      token,
      'tus-resumable': '1.0.0',
      'upload-length': String(content.length),
      'upload-metadata': `filename ${base64(fileName)},purpose ${base64('gml')}`,
    },
  })
  const uploadId = uploadIdOfLocation(String(created.headers.location))!
  const patched = await app.inject({
    method: 'PATCH',
    url: `/web/upload/resumable/${uploadId}`,
    headers: {
      token,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    payload: content,
  })
  expect(patched.statusCode).toBe(204)
  return uploadId
}

const uploadGml = (app: FastifyInstance, token: string, parts: MultipartPart[]) =>
  postMultipart<GmlPath>(app, '/web/upload/uploadGml', token, parts)

const findGmlPath = (app: FastifyInstance, token: string | undefined, body: object) =>
  callApi<GmlPath | null>(app, {
    url: '/web/project/findGmlPath',
    json: body,
    ...(token === undefined ? {} : { token }),
  })

describe('GML path of building projects', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let building: Project
  let fjk: Buffer

  beforeAll(async () => {
    testApp = await createTestApp({ env: { GML_UPLOAD_LIMIT_MB: '1' } })
    app = testApp.app
    owner = await signInNewUser(app, `gml-owner-${randomBytes(3).toString('hex')}`)
    building = await createProject(app, owner, { kind: 'building', name: 'FJK-Haus' })
    fjk = await readSample(fjkName)
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers null before a file is uploaded', async () => {
    const answer = await findGmlPath(app, owner, { project_id: building.id })
    expect(answer.envelope).toMatchObject({ code: '0', datum: null })
  })

  it('stores a checked file, answers its counts and serves its bytes', async () => {
    const answer = await uploadGml(app, owner, gmlParts(building.id, fjk, fjkName))
    expect(answer.envelope.code).toBe('0')
    const datum = answer.envelope.datum
    expect(datum).toMatchObject({
      file_name: fjkName,
      size_bytes: fjk.length,
      state_count: 14,
      transition_count: 30,
      placement: { offset: [0, 0, 0], rotation_deg: 0, scale: 1 },
      display_mode: 1,
    })
    expect(datum.url).toMatch(/^\/web\/gml\/files\/[0-9a-f-]{36}\.gml\?grant=[^&]+$/)
    // without its grant the address opens nothing
    const bare = datum.url.slice(0, datum.url.indexOf('?'))
    expect((await app.inject({ method: 'GET', url: bare })).statusCode).toBe(403)
    const found = await findGmlPath(app, owner, { project_id: building.id })
    expect(found.envelope.datum).toEqual(datum)
    const served = await app.inject({ method: 'GET', url: datum.url })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toContain('application/gml+xml')
    expect(served.rawPayload.equals(fjk)).toBe(true)
  })

  it('saves placement and display mode, from JSON or a form', async () => {
    const saved = await callApi<GmlPath>(app, {
      url: '/web/project/updateGmlPlacement',
      token: owner,
      json: {
        project_id: building.id,
        placement: { offset: [1.5, 0, -2], rotation_deg: 90, scale: 0.5 },
        display_mode: 3,
      },
    })
    expect(saved.envelope.code).toBe('0')
    expect(saved.envelope.datum).toMatchObject({
      placement: { offset: [1.5, 0, -2], rotation_deg: 90, scale: 0.5 },
      display_mode: 3,
    })
    const form = new URLSearchParams([
      ['project_id', building.id],
      ['placement[offset][0]', '2'],
      ['placement[offset][1]', '0'],
      ['placement[offset][2]', '-2'],
      ['placement[rotation_deg]', '45'],
      ['placement[scale]', '2'],
      ['display_mode', '2'],
    ])
    const fromForm = await callApi<GmlPath>(app, {
      url: '/web/project/updateGmlPlacement',
      token: owner,
      form: form.toString(),
    })
    expect(fromForm.envelope.code).toBe('0')
    expect(fromForm.envelope.datum).toMatchObject({
      placement: { offset: [2, 0, -2], rotation_deg: 45, scale: 2 },
      display_mode: 2,
    })
    const wrong = await callApi(app, {
      url: '/web/project/updateGmlPlacement',
      token: owner,
      json: {
        project_id: building.id,
        placement: { offset: [0, 0], rotation_deg: 0, scale: 0 },
        display_mode: 7,
      },
    })
    expect(wrong.statusCode).toBe(400)
    const fields = (wrong.envelope.datum as { details: Array<{ field: string }> }).details.map(
      (detail) => detail.field,
    )
    expect(fields).toEqual(
      expect.arrayContaining(['placement.offset', 'placement.scale', 'display_mode']),
    )
  })

  it('refuses hostile files with the parser reason and keeps the current file', async () => {
    const before = (await findGmlPath(app, owner, { project_id: building.id })).envelope.datum
    const storeBefore = await storedFiles(testApp.config.filesDir)
    const cases: Array<[string, Buffer, number, string]> = [
      ['empty', Buffer.alloc(0), 400, 'empty'],
      ['not XML', Buffer.from('\x89PNG\r\n\x1a\nnot a gml file'), 415, 'GML file refused'],
      ['truncated', fjk.subarray(0, fjk.length / 2), 415, 'GML file refused'],
      ['billion laughs', billionLaughs, 415, 'DOCTYPE'],
      ['no network', await readSample(noNetworkName), 415, 'GML has no navigation network'],
    ]
    for (const [label, content, status, reason] of cases) {
      const answer = await uploadGml(app, owner, gmlParts(building.id, content))
      expect({ label, status: answer.statusCode }).toEqual({ label, status })
      expect(answer.envelope.message).toContain(reason)
    }
    expect((await findGmlPath(app, owner, { project_id: building.id })).envelope.datum).toEqual(
      before,
    )
    expect(await storedFiles(testApp.config.filesDir)).toEqual(storeBefore)
    expect(await readdir(join(testApp.config.dataDir, 'incoming-gml'))).toEqual([])
  })

  it('refuses a file over GML_UPLOAD_LIMIT_MB', async () => {
    const answer = await uploadGml(app, owner, gmlParts(building.id, await readSample(pnuName)))
    expect(answer.statusCode).toBe(413)
    expect(answer.envelope.message).toContain('1 MB')
  })

  it('refuses city projects, unknown projects and other users', async () => {
    const city = await createProject(app, owner, { kind: 'city' })
    const toCity = await uploadGml(app, owner, gmlParts(city.id, fjk))
    expect(toCity.statusCode).toBe(400)
    expect(toCity.envelope.message).toContain('building')
    const unknown = await uploadGml(app, owner, gmlParts('no-such-project', fjk))
    expect(unknown.statusCode).toBe(404)

    const stranger = await signInNewUser(app, `gml-stranger-${randomBytes(3).toString('hex')}`)
    expect((await uploadGml(app, stranger, gmlParts(building.id, fjk))).statusCode).toBe(403)
    expect((await findGmlPath(app, stranger, { project_id: building.id })).statusCode).toBe(403)
    const moved = await callApi(app, {
      url: '/web/project/updateGmlPlacement',
      token: stranger,
      json: {
        project_id: building.id,
        placement: { offset: [9, 9, 9], rotation_deg: 0, scale: 1 },
        display_mode: 0,
      },
    })
    expect(moved.statusCode).toBe(403)
    expect((await findGmlPath(app, undefined, { project_id: building.id })).envelope.code).toBe(
      '2011',
    )
    expect((await app.inject({ method: 'GET', url: '/web/gml/files/x.gml' })).statusCode).toBe(404)
  })

  it('lets the holder of a project token read the GML path', async () => {
    const issued = await callApi<ProjectTokenDatum>(app, {
      url: '/web/project/getPTokenByprojectId',
      token: owner,
      json: { id: building.id },
    })
    expect(issued.envelope.code).toBe('0')
    const projectToken = issued.envelope.datum.project_token
    const byBody = await findGmlPath(app, undefined, {
      project_id: building.id,
      project_token: projectToken,
    })
    expect(byBody.envelope.datum).toMatchObject({ state_count: 14 })
    const byHeader = await callApi<GmlPath>(app, {
      url: '/web/project/findGmlPath',
      json: { project_id: building.id },
      headers: { projecttoken: projectToken },
    })
    expect(byHeader.envelope.datum).toMatchObject({ state_count: 14 })
    const otherProject = await createProject(app, owner, { kind: 'building' })
    const elsewhere = await findGmlPath(app, undefined, {
      project_id: otherProject.id,
      project_token: projectToken,
    })
    expect(elsewhere.statusCode).toBe(403)
  })

  it('takes a finished resumable upload instead of a multipart file, keeping the placement', async () => {
    const before = (await findGmlPath(app, owner, { project_id: building.id })).envelope.datum!
    const kuName = 'KU-EngBuilding-IndoorGML-2019-02-12_with_NRG.gml'
    const ku = await readSample(kuName)
    const uploadId = await tusUpload(app, owner, ku, kuName)
    // Refused for the project, not for the file: the upload stays for the right project.
    const city = await createProject(app, owner, { kind: 'city' })
    const wrongProject = await callApi(app, {
      url: '/web/upload/uploadGml',
      token: owner,
      form: { project_id: city.id, upload_id: uploadId },
    })
    expect(wrongProject.statusCode).toBe(400)

    // As the web client sends it: multipart fields, no file part.
    const answer = await uploadGml(app, owner, [
      { name: 'project_id', value: building.id },
      { name: 'upload_id', value: uploadId },
    ])
    expect(answer.envelope.code).toBe('0')
    expect(answer.envelope.datum).toMatchObject({
      file_name: kuName,
      state_count: 7,
      size_bytes: ku.length,
      placement: before.placement,
      display_mode: before.display_mode,
    })
    expect(answer.envelope.datum.url).not.toBe(before.url)
    // The replaced file is gone from its address and from the store; the upload is consumed.
    expect((await app.inject({ method: 'GET', url: before.url })).statusCode).toBe(404)
    expect(await readdir(testApp.config.resumableDir)).toEqual([])
    const again = await callApi(app, {
      url: '/web/upload/uploadGml',
      token: owner,
      form: { project_id: building.id, upload_id: uploadId },
    })
    expect(again.statusCode).toBe(404)
    const malformed = await callApi(app, {
      url: '/web/upload/uploadGml',
      token: owner,
      form: { project_id: building.id, upload_id: '../twinscape.sqlite' },
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.envelope.message).toContain('upload_id')
    // A refused file is consumed: sending its id again cannot help.
    const junkId = await tusUpload(app, owner, Buffer.from('not xml at all'), 'junk.gml')
    const junk = await callApi(app, {
      url: '/web/upload/uploadGml',
      token: owner,
      form: { project_id: building.id, upload_id: junkId },
    })
    expect(junk.statusCode).toBe(415)
    expect(await readdir(testApp.config.resumableDir)).toEqual([])
    const neither = await callApi(app, {
      url: '/web/upload/uploadGml',
      token: owner,
      form: { project_id: building.id },
    })
    expect(neither.statusCode).toBe(400)
  })

  it('copies the file with the project and removes its bytes with the last project using it', async () => {
    const original = await createProject(app, owner, { kind: 'building', name: 'Original' })
    const pnuSmall = await readSample('KU-EngBuilding-IndoorGML-2019-02-12_with_NRG.gml')
    // Distinct bytes, so no other project of this file shares them.
    const content = Buffer.concat([
      pnuSmall,
      Buffer.from(`\n<!-- ${randomBytes(8).toString('hex')} -->\n`),
    ])
    const uploaded = await uploadGml(app, owner, gmlParts(original.id, content))
    expect(uploaded.envelope.code).toBe('0')
    const storeWithFile = await storedFiles(testApp.config.filesDir)

    const copied = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token: owner,
      json: { id: original.id, name: 'Copy' },
    })
    expect(copied.envelope.code).toBe('0')
    const copy = copied.envelope.datum
    const copyGml = (await findGmlPath(app, owner, { project_id: copy.id })).envelope.datum!
    expect(copyGml).toMatchObject({ state_count: 7, size_bytes: content.length })
    expect(copyGml.url).not.toBe(uploaded.envelope.datum.url)

    const deleteProject = (id: string) =>
      callApi(app, { url: '/web/project/deleteProject', token: owner, json: { id } })
    expect((await deleteProject(original.id)).envelope.code).toBe('0')
    const served = await app.inject({ method: 'GET', url: copyGml.url })
    expect(served.rawPayload.equals(content)).toBe(true)

    expect((await deleteProject(copy.id)).envelope.code).toBe('0')
    expect((await app.inject({ method: 'GET', url: copyGml.url })).statusCode).toBe(404)
    // The bytes go once the delete has committed (checked shortly after it).
    await vi.waitFor(
      async () => {
        const store = await storedFiles(testApp.config.filesDir)
        expect(store.length).toBeLessThan(storeWithFile.length)
      },
      { timeout: 10_000, interval: 200 },
    )
  })
})
