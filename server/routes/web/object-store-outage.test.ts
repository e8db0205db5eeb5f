import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import { startTestObjectStore, type TestObjectStore } from '../../testing/test-object-store'
import { multipartBody, sampleFiles, signInNewUser, uploadImage } from './project-test-kit'

/**
 * Issue 22 "Bad input and faults": the object store unreachable for a while (its server stopped,
 * then started again on the same address). Meanwhile every request that needs it is refused with
 * a clear 503 and `Retry-After`, nothing is half written, and once the store answers again the
 * same server process carries on: no restart, nothing cached about the outage.
 */

let objectStore: TestObjectStore
let testApp: TestApp
beforeAll(async () => {
  objectStore = await startTestObjectStore()
  testApp = await createTestApp({ env: objectStore.env('outage', 'proxy') })
})
afterAll(async () => {
  await testApp?.close()
  await objectStore?.close()
})

describe('the object store unreachable, then back', () => {
  it('answers 503 with Retry-After meanwhile, keeps everything whole, and recovers by itself', async () => {
    const { app } = testApp
    const { png, jpeg } = await sampleFiles()
    const token = await signInNewUser(app, 'outage-editor')
    const before = await uploadImage(app, token, png)
    const url = `${before.rootPath}${before.jpgName}`
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200)
    const rowsOf = async () =>
      (await app.deps.database.db.selectFrom('uploaded_files').select('id').execute()).length
    const rowsBefore = await rowsOf()

    await objectStore.stop()
    const refusedRead = await app.inject({ method: 'GET', url })
    expect(refusedRead.statusCode).toBe(503)
    expect(refusedRead.headers['retry-after']).toBe('30')
    expect(refusedRead.json()).toMatchObject({ code: '1503' })
    const { body, contentType } = multipartBody([
      { name: 'purpose', value: 'project-cover' },
      { name: 'file', value: jpeg, fileName: 'during.jpg', contentType: 'image/jpeg' },
    ])
    const refusedUpload = await app.inject({
      method: 'POST',
      url: '/web/upload/uploadJpg',
      headers: { token, 'content-type': contentType },
      payload: body,
    })
    expect(refusedUpload.statusCode).toBe(503)
    expect(refusedUpload.headers['retry-after']).toBe('30')
    // no row points at bytes the store never got, and nothing is left spooled on this machine
    expect(await rowsOf()).toBe(rowsBefore)
    const spooled = await readdir(join(testApp.config.dataDir, 'files'))
    expect(spooled.filter((name) => name.startsWith('incoming-'))).toEqual([])

    await objectStore.restart()
    const again = await app.inject({ method: 'GET', url })
    expect(again.statusCode).toBe(200)
    expect(again.rawPayload.equals(png)).toBe(true)
    const after = await uploadImage(app, token, jpeg, 'after.jpg')
    const served = await app.inject({ method: 'GET', url: `${after.rootPath}${after.jpgName}` })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.equals(jpeg)).toBe(true)
  })
})
