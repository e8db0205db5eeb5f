import { randomBytes, randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObliquePhotograph } from '../../../contract/city'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { startTestObjectStore, type TestObjectStore } from '../../testing/test-object-store'
import {
  createProject,
  postMultipart,
  sampleFiles,
  signInNewUser,
  uploadImage,
} from './project-test-kit'

/**
 * Uploaded files on an S3-compatible store (a local s3rver): a server with STORAGE_URL keeps
 * them in the bucket and sends them with Range and ETag (proxy), or redirects to a signed
 * address of the store that answers the same bytes (redirect).
 */

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

describe.each(['proxy', 'redirect'] as const)('uploaded images on S3, sent by %s', (serve) => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: objectStore.env(`app-${serve}`, serve) })
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('answers the bytes that were uploaded', async () => {
    const { png } = await sampleFiles()
    const token = await signInNewUser(testApp.app, `s3-${serve}`)
    const image = await uploadImage(testApp.app, token, png)
    const url = `${image.rootPath}${image.jpgName}`
    const whole = await testApp.app.inject({ method: 'GET', url })
    if (serve === 'proxy') {
      expect(whole.statusCode).toBe(200)
      expect(whole.rawPayload.equals(png)).toBe(true)
      expect(whole.headers['content-type']).toBe('image/png')
      const etag = String(whole.headers.etag)
      const part = await testApp.app.inject({
        method: 'GET',
        url,
        headers: { range: 'bytes=0-7' },
      })
      expect(part.statusCode).toBe(206)
      expect(part.headers['content-range']).toBe(`bytes 0-7/${png.length}`)
      expect(part.rawPayload.equals(png.subarray(0, 8))).toBe(true)
      const again = await testApp.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': etag },
      })
      expect(again.statusCode).toBe(304)
      return
    }
    expect(whole.statusCode).toBe(302)
    const location = String(whole.headers.location)
    expect(location.startsWith(objectStore.endpoint)).toBe(true)
    const fromStore = await fetch(location)
    expect(fromStore.status).toBe(200)
    expect(fromStore.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await fromStore.arrayBuffer()).equals(png)).toBe(true)
    const part = await fetch(location, { headers: { range: 'bytes=0-7' } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true)
  })

  it('serves a tileset extracted into the bucket, the same bytes as in the archive; sweeps versions no row serves', async () => {
    const zip = await readFile(
      new URL('../../../../shared/data/zip/derived/tileset-discrete-lod-root.zip', import.meta.url),
    )
    const token = await signInNewUser(testApp.app, `s3-tiles-${serve}`)
    const project = await createProject(testApp.app, token, { kind: 'city' })
    const uploaded = await postMultipart<ObliquePhotograph>(
      testApp.app,
      '/web/upload/uploadTiltModel',
      token,
      [
        { name: 'project_id', value: project.id },
        { name: 'file', value: zip, fileName: 'tileset.zip' },
      ],
    )
    expect(uploaded.envelope.code, uploaded.envelope.message).toBe('0')
    const rootUrl = uploaded.envelope.datum.root_url!
    const answer = await testApp.app.inject({ method: 'GET', url: rootUrl })
    let body: string
    if (serve === 'proxy') {
      expect(answer.statusCode).toBe(200)
      expect(answer.headers['cache-control']).toContain('immutable')
      body = answer.payload
    } else {
      expect(answer.statusCode).toBe(302)
      const fromStore = await fetch(String(answer.headers.location))
      expect(fromStore.status).toBe(200)
      expect(fromStore.headers.get('content-type')).toBe('application/json')
      expect(fromStore.headers.get('cache-control')).toContain('immutable')
      body = await fromStore.text()
    }
    const inArchive = unzipSync(new Uint8Array(zip))['tileset.json']!
    expect(body).toBe(Buffer.from(inArchive).toString())

    // what a process killed mid-extraction leaves in the bucket: a version's files with no row;
    // a young one may be an extraction still running elsewhere, so only the start-up sweep of
    // the first process (or a day's age) removes it, never the served version or a stray file
    const { tilesetFiles } = testApp.app.deps.services
    const versions = async () =>
      new Set((await tilesetFiles.list('')).map((file) => file.name.split('/')[0]))
    // the uploaded version and the seeded case's
    const served = await versions()
    expect(served).toContain(rootUrl.split('/')[4])
    const cutVersion = randomUUID()
    await tilesetFiles.write(`${cutVersion}/tileset.json`, Buffer.from('{}'))
    await tilesetFiles.write(`${cutVersion}/tiles/0.b3dm`, randomBytes(256))
    await tilesetFiles.write('notes.txt', Buffer.from('not a version'))
    await testApp.app.deps.sweeper.sweep('periodic')
    expect(await versions()).toEqual(new Set([...served, cutVersion, 'notes.txt']))
    await testApp.app.deps.sweeper.sweep('startup')
    expect(await versions()).toEqual(new Set([...served, 'notes.txt']))
    const again = await testApp.app.inject({ method: 'GET', url: rootUrl })
    expect(again.statusCode).toBe(serve === 'proxy' ? 200 : 302)
  })
})
