import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { buffer } from 'node:stream/consumers'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import {
  downloadAsBrowser,
  filesUnder,
  startTestObjectStore,
  type TestObjectStore,
} from '../../testing/test-object-store'
import { sbmFixtureFiles } from './building-test-kit'
import { buildPackageToEnd, insertCutPackageBuild } from './orders-test-kit'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'

/**
 * Offline packages on an S3-compatible store (a local s3rver): a server with STORAGE_URL
 * writes the package zip into the bucket only (nothing of it under DATA_DIR), sends it whole
 * and by Range, proxied or by a redirect to a signed address of the store, removes a superseded
 * one from the bucket, and its start-up recovery removes every zip in the bucket that no ready
 * package names.
 */

let objectStore: TestObjectStore
beforeAll(async () => {
  objectStore = await startTestObjectStore()
})
afterAll(async () => {
  await objectStore?.close()
})

describe.each(['proxy', 'redirect'] as const)('offline packages on S3, sent by %s', (serve) => {
  let testApp: TestApp
  beforeAll(async () => {
    testApp = await createTestApp({ env: objectStore.env(`packages-${serve}`, serve) })
  })
  afterAll(async () => {
    await testApp?.close()
  })

  it('builds into the bucket only, sends it whole and by Range, and recovery sweeps the bucket', async () => {
    const { app } = testApp
    const owner = await signInNewUser(app, `s3-package-${serve}-${randomBytes(3).toString('hex')}`)
    const project = await createProject(app, owner, { kind: 'building', name: 'Bucket tower' })
    const upload = await postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: (await sbmFixtureFiles()).twoStoreys, fileName: 'two-storeys.sbm' },
    ])
    expect(upload.envelope.code, upload.envelope.message).toBe('0')
    const buildToEnd = () => buildPackageToEnd(app, owner, project.id)
    const packages = app.deps.storage.named('offline-packages')
    const packagesFolder = join(testApp.config.dataDir, 'offline-packages')

    const first = await buildToEnd()
    // in the bucket, and nothing of it (zip, part or spool) on this machine
    expect(await packages.list('')).toMatchObject([
      { name: `${project.id}/${first.id}.zip`, sizeBytes: first.size_bytes },
    ])
    expect(await filesUnder(packagesFolder)).toEqual([])

    const second = await buildToEnd()
    // the superseded package left the bucket with its row
    expect(await packages.list('')).toMatchObject([
      { name: `${project.id}/${second.id}.zip`, sizeBytes: second.size_bytes },
    ])
    const stored = await buffer(await packages.open(`${project.id}/${second.id}.zip`))
    const row = await app.deps.database.db
      .selectFrom('offline_packages')
      .select('sha256')
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow()
    expect(createHash('sha256').update(stored).digest('hex')).toBe(row.sha256)
    expect(Object.keys(unzipSync(new Uint8Array(stored)))).toContain('manifest.json')

    /** The package's bytes as a browser gets them (following a redirect to the store). */
    const download = (headers: Record<string, string> = {}) =>
      downloadAsBrowser(app, second.download_url!, {
        headers,
        redirectsTo: serve === 'redirect' ? objectStore : undefined,
      })
    const whole = await download()
    expect(whole.status).toBe(200)
    expect(whole.header('content-type')).toBe('application/zip')
    expect(whole.header('content-disposition')).toBe(`attachment; filename="${second.id}.zip"`)
    expect(whole.body.equals(stored)).toBe(true)
    // a download cut short resumes from where it stopped
    const rest = await download({ range: `bytes=100-` })
    expect(rest.status).toBe(206)
    expect(rest.header('content-range')).toBe(`bytes 100-${stored.length - 1}/${stored.length}`)
    expect(rest.body.equals(stored.subarray(100))).toBe(true)

    // what a crash leaves in the bucket: the zip of a build whose row never said ready (the
    // process died between the upload's end and the row), one of a deleted project, a stray
    const cutId = await insertCutPackageBuild(testApp, project.id, {
      variant: 'trial',
      afterMs: 60_000,
    })
    await packages.write(`${project.id}/${cutId}.zip`, randomBytes(2048))
    await packages.write(`${randomUUID()}/${randomUUID()}.zip`, randomBytes(1024))
    await packages.write(`${project.id}/notes.txt`, Buffer.from('not a package'))

    // the start-up recovery (the same call the app makes on ready)
    expect(await app.deps.services.offlinePackages.recover()).toBe(1)
    expect(await packages.list('')).toMatchObject([
      { name: `${project.id}/${second.id}.zip`, sizeBytes: second.size_bytes },
    ])
    // the ready package still downloads whole
    const after = await app.inject({ method: 'GET', url: second.download_url! })
    expect(after.statusCode).toBe(serve === 'proxy' ? 200 : 302)

    // a bucket that cannot be reached at start-up does not keep the server from starting: the
    // cut builds are marked failed all the same, their zips go at a later start
    const laterCutId = await insertCutPackageBuild(testApp, project.id, {
      variant: 'trial',
      afterMs: 120_000,
    })
    await packages.write(`${project.id}/${laterCutId}.zip`, randomBytes(512))
    await objectStore.stop()
    try {
      expect(await app.deps.services.offlinePackages.recover()).toBe(1)
    } finally {
      await objectStore.restart()
    }
    expect(await app.deps.services.offlinePackages.recover()).toBe(0)
    expect(await packages.list('')).toMatchObject([
      { name: `${project.id}/${second.id}.zip`, sizeBytes: second.size_bytes },
    ])
  }, 120_000)
})
