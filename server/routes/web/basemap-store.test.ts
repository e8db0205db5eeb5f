import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { buffer } from 'node:stream/consumers'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BasemapFile, BasemapFindDatum } from '../../../contract/city'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'
import {
  downloadAsBrowser,
  filesUnder,
  startTestObjectStore,
  type TestObjectStore,
} from '../../testing/test-object-store'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'
import { buildPackageToEnd } from './orders-test-kit'

/**
 * PMTiles basemaps live in the file store's `basemaps` area (issue 22): on a folder store at
 * `DATA_DIR/basemaps/<file key>.pmtiles`, where earlier versions kept them, and with
 * STORAGE_URL in the bucket only. Either way an upload is served whole and by Range (proxied
 * or by a redirect to the store's signed address), goes into the offline package, is removed
 * with its basemap, and stored archives no row names are swept.
 */

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

/** A PMTiles v3 archive as far as the server looks: its header, then distinct bytes. */
function pmtilesArchive(sizeBytes: number): Buffer {
  const archive = randomBytes(sizeBytes)
  archive.write('PMTiles', 0)
  archive[7] = 3
  return archive
}

/** The file key in a basemap's served address (`/web/basemaps/<key>/<grant>/<name>`). */
function fileKeyOf(url: string): string {
  return url.split('/')[3]!
}

describe.each(['folder', 'proxy', 'redirect'] as const)('basemaps in the store (%s)', (mode) => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp(
      mode === 'folder' ? {} : { env: objectStore.env(`basemaps-${mode}`, mode) },
    )
  })
  afterAll(async () => {
    await testApp?.close()
  })

  /** The bytes a browser gets at `url` (following a redirect to the store). */
  const download = (url: string, headers: Record<string, string> = {}) =>
    downloadAsBrowser(testApp.app, url, {
      headers,
      redirectsTo: mode === 'redirect' ? objectStore : undefined,
    })

  it('stores an upload once, serves it whole and by Range, packs it and removes it with the basemap', async () => {
    const { app, config } = testApp
    const owner = await signInNewUser(app, `basemap-${mode}-${randomBytes(3).toString('hex')}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Basemap city' })
    const archive = pmtilesArchive(300_000)
    const uploaded = await postMultipart<BasemapFile>(app, '/web/upload/uploadBasemap', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: archive, fileName: 'harbour.pmtiles' },
    ])
    expect(uploaded.envelope.code, uploaded.envelope.message).toBe('0')
    const basemap = uploaded.envelope.datum
    const fileKey = fileKeyOf(basemap.url)
    const basemaps = app.deps.storage.named('basemaps')
    const basemapsFolder = join(config.dataDir, 'basemaps')

    expect(await basemaps.list('')).toMatchObject([
      { name: `${fileKey}.pmtiles`, sizeBytes: archive.length },
    ])
    // the upload itself is gone; on a folder the archive is where earlier versions kept it,
    // with a bucket nothing of it stays on this machine
    expect(await filesUnder(join(config.dataDir, 'city-incoming'))).toEqual([])
    expect(await filesUnder(basemapsFolder)).toEqual(
      mode === 'folder' ? [`${fileKey}.pmtiles`] : [],
    )

    const whole = await download(basemap.url)
    expect(whole.status).toBe(200)
    expect(whole.header('content-type')).toBe('application/vnd.pmtiles')
    expect(whole.header('cache-control')).toBe('private, max-age=31536000, immutable')
    expect(whole.body.equals(archive)).toBe(true)
    // PMTiles readers fetch the header and directories by ranges
    const header = await download(basemap.url, { range: 'bytes=0-126' })
    expect(header.status).toBe(206)
    expect(header.header('content-range')).toBe(`bytes 0-126/${archive.length}`)
    expect(header.body.equals(archive.subarray(0, 127))).toBe(true)
    const tail = await download(basemap.url, { range: 'bytes=250000-' })
    expect(tail.status).toBe(206)
    expect(tail.body.equals(archive.subarray(250_000))).toBe(true)
    // a wrong grant reads nothing, whatever the store
    const forged = basemap.url.replace(/\/[^/]+\/harbour\.pmtiles$/, '/forged/harbour.pmtiles')
    expect((await app.inject({ method: 'GET', url: forged })).statusCode).toBe(403)

    // the offline package reads the archive from the store
    const saved = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/save',
      token: owner,
      json: { project_id: project.id, kind: 'pmtiles', pmtiles_id: basemap.id },
    })
    expect(saved.envelope.code, saved.envelope.message).toBe('0')
    const built = await buildPackageToEnd(app, owner, project.id)
    const zip = await buffer(
      await app.deps.storage.named('offline-packages').open(`${project.id}/${built.id}.zip`),
    )
    const packed = unzipSync(new Uint8Array(zip))['basemap/basemap.pmtiles']
    expect(packed && Buffer.from(packed).equals(archive)).toBe(true)

    // stored archives no row names go at the sweep (at start-up whatever their age); the
    // project's stays, and so does a file the sweep does not own
    const stray = `${randomUUID()}.pmtiles`
    await basemaps.write(stray, pmtilesArchive(1000))
    await basemaps.write('notes.txt', Buffer.from('not a basemap'))
    expect(await app.deps.services.basemaps.sweepTask().sweep('periodic')).toBe(0)
    expect(await app.deps.services.basemaps.sweepTask().sweep('startup')).toBe(1)
    expect((await basemaps.list('')).map((file) => file.name).sort()).toEqual(
      [`${fileKey}.pmtiles`, 'notes.txt'].sort(),
    )
    await basemaps.remove('notes.txt')

    // removed with its basemap, from whichever store holds it
    await callApi(app, {
      url: '/web/basemap/save',
      token: owner,
      json: { project_id: project.id, kind: 'offline' },
    })
    const removed = await callApi(app, {
      url: '/web/basemap/del',
      token: owner,
      json: { id: basemap.id },
    })
    expect(removed.envelope.code, removed.envelope.message).toBe('0')
    expect(await basemaps.list('')).toEqual([])
    expect(await filesUnder(basemapsFolder)).toEqual([])
  }, 120_000)
})

describe('basemaps in a store that cannot be reached', () => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: objectStore.env('basemaps-down', 'proxy') })
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('refuses an upload with 503 and a retry time, keeping nothing', async () => {
    const { app, config } = testApp
    const owner = await signInNewUser(app, `basemap-down-${randomBytes(3).toString('hex')}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Store down' })
    await objectStore.stop()
    let refused: Awaited<ReturnType<typeof postMultipart>>
    try {
      refused = await postMultipart(app, '/web/upload/uploadBasemap', owner, [
        { name: 'project_id', value: project.id },
        { name: 'file', value: pmtilesArchive(20_000), fileName: 'down.pmtiles' },
      ])
    } finally {
      await objectStore.restart()
    }
    expect(refused.statusCode).toBe(503)
    expect(refused.envelope.code).toBe('1503')
    const listed = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/find',
      token: owner,
      json: { project_id: project.id },
    })
    expect(listed.envelope.datum.files).toEqual([])
    expect(await app.deps.storage.named('basemaps').list('')).toEqual([])
    expect(await filesUnder(join(config.dataDir, 'city-incoming'))).toEqual([])
  }, 120_000)

  it('removes a basemap while the store is out of reach; its archive goes at the next sweep', async () => {
    const { app } = testApp
    const owner = await signInNewUser(app, `basemap-gone-${randomBytes(3).toString('hex')}`)
    const project = await createProject(app, owner, { kind: 'city', name: 'Store gone' })
    const uploaded = await postMultipart<BasemapFile>(app, '/web/upload/uploadBasemap', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: pmtilesArchive(20_000), fileName: 'gone.pmtiles' },
    ])
    expect(uploaded.envelope.code, uploaded.envelope.message).toBe('0')
    const basemaps = app.deps.storage.named('basemaps')
    const name = `${fileKeyOf(uploaded.envelope.datum.url)}.pmtiles`
    await objectStore.stop()
    let removed: Awaited<ReturnType<typeof callApi>>
    try {
      removed = await callApi(app, {
        url: '/web/basemap/del',
        token: owner,
        json: { id: uploaded.envelope.datum.id },
      })
    } finally {
      await objectStore.restart()
    }
    // the basemap is gone for the user; the archive the store could not remove waits
    expect(removed.envelope.code, removed.envelope.message).toBe('0')
    const listed = await callApi<BasemapFindDatum>(app, {
      url: '/web/basemap/find',
      token: owner,
      json: { project_id: project.id },
    })
    expect(listed.envelope.datum.files).toEqual([])
    expect((await basemaps.list('')).map((file) => file.name)).toEqual([name])
    expect(await app.deps.services.basemaps.sweepTask().sweep('startup')).toBe(1)
    expect(await basemaps.list('')).toEqual([])
  }, 120_000)
})
