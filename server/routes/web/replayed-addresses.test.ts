import type { FastifyInstance } from 'fastify'
import { zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ObliquePhotograph } from '../../../contract/city'
import { readerGrantStepMs } from '../../modules/access/url-signer'
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
 * Issue 22 "Bad input and faults": a signed address replayed after it expired, or for another
 * project's files, is refused, both the server's own addresses (tiles) and the object store's
 * signed ones (STORAGE_SERVE=redirect).
 */

const text = (value: string) => new TextEncoder().encode(value)

/** A one-tile tileset archive whose tile bytes say which project it is for. */
function tilesetZip(label: string): Uint8Array {
  const tile = new Uint8Array(64)
  tile.set(text(`b3dm${label}`))
  return zipSync({
    'tileset.json': text(
      JSON.stringify({
        asset: { version: '1.0' },
        geometricError: 10,
        root: {
          boundingVolume: { box: [0, 0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 5] },
          geometricError: 0,
          content: { uri: 'a.b3dm' },
        },
      }),
    ),
    'a.b3dm': tile,
  })
}

describe('tile addresses replayed', () => {
  let testApp: TestApp
  let app: FastifyInstance
  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
  })
  afterAll(async () => {
    await testApp?.close()
  })

  const uploadTileset = async (token: string, projectId: string, label: string) => {
    const answer = await postMultipart<ObliquePhotograph>(
      app,
      '/web/upload/uploadTiltModel',
      token,
      [
        { name: 'project_id', value: projectId },
        { name: 'file', value: Buffer.from(tilesetZip(label)), fileName: 'tileset.zip' },
      ],
    )
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    return answer.envelope.datum.root_url!
  }

  it('refuses a grant used for another project’s tileset, and any grant once expired', async () => {
    const alice = await signInNewUser(app, 'replay-alice')
    const bob = await signInNewUser(app, 'replay-bob')
    const aliceRoot = await uploadTileset(
      alice,
      (await createProject(app, alice, { kind: 'city' })).id,
      'alice',
    )
    const bobRoot = await uploadTileset(
      bob,
      (await createProject(app, bob, { kind: 'city', name: 'Bob’s city' })).id,
      'bob',
    )
    const get = (url: string) => app.inject({ method: 'GET', url })
    expect((await get(aliceRoot)).statusCode).toBe(200)

    // `/web/tiles/<tileset>/<version>/<grant>/<path>`: Alice's grant on Bob's tileset
    const [, , , aliceTileset, aliceVersion, aliceGrant] = aliceRoot.split('/')
    const [, , , bobTileset, bobVersion, bobGrant] = bobRoot.split('/')
    const replayed = `/web/tiles/${bobTileset}/${bobVersion}/${aliceGrant}/a.b3dm`
    const refused = await get(replayed)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({
      message: 'This address is not valid (any more): ask for the tileset again.',
    })
    // nor with Alice's tileset id and Bob's version (or the reverse)
    expect(
      (await get(`/web/tiles/${aliceTileset}/${bobVersion}/${aliceGrant}/a.b3dm`)).statusCode,
    ).toBe(403)
    expect(
      (await get(`/web/tiles/${bobTileset}/${aliceVersion}/${bobGrant}/a.b3dm`)).statusCode,
    ).toBe(403)

    // past the longest a reader's grant lives (twice its step), the same address is refused
    testApp.clock.advanceMs(2 * readerGrantStepMs + 1_000)
    const expired = await get(aliceRoot)
    expect(expired.statusCode).toBe(403)
    expect(expired.json()).toMatchObject({ code: String(refused.json().code) })
  })
})

describe('object store addresses replayed (STORAGE_SERVE=redirect)', () => {
  let objectStore: TestObjectStore
  let testApp: TestApp
  beforeAll(async () => {
    objectStore = await startTestObjectStore()
    testApp = await createTestApp({
      env: { ...objectStore.env('replay', 'redirect'), STORAGE_SIGNED_URL_SECONDS: '60' },
    })
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await testApp?.close()
    await objectStore?.close()
  })

  // s3rver checks a signed address's expiry but not its signature, so an address changed to open
  // another key is left to the real stores (a project's files are reached only through this
  // server's checks: the store's addresses it hands out each open one object)
  it('refuses a signed store address once it expired', async () => {
    const { app } = testApp
    const { png } = await sampleFiles()
    const token = await signInNewUser(app, 'replay-store')
    const image = await uploadImage(app, token, png)
    const locationOf = async (upload: typeof image) => {
      const answer = await app.inject({ method: 'GET', url: `${upload.rootPath}${upload.jpgName}` })
      expect(answer.statusCode).toBe(302)
      return String(answer.headers.location)
    }
    const fresh = await locationOf(image)
    expect((await fetch(fresh)).status).toBe(200)

    // signed ten minutes ago, valid for 60 s: the store refuses it
    const realNow = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(realNow - 600_000)
    const stale = await locationOf(image)
    vi.restoreAllMocks()
    const expired = await fetch(stale)
    expect(expired.status).toBe(403)
    expect(await expired.text()).toContain('expired')
  })
})
