import { type ChildProcess, execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DownloadState } from '../../../contract/offline-package'
import { sbmFixtureFiles } from '../../routes/web/building-test-kit'
import { createProject, postMultipart, signInNewUser } from '../../routes/web/project-test-kit'
import { startPackageServer } from '../../testing/package-server'
import { callApi, createTestApp, type TestApp } from '../../testing/test-app'

const run = promisify(execFile)

/** One GET (or another method) with the path sent exactly as written: no URL normalising. */
function rawRequest(
  port: number,
  path: string,
  method = 'GET',
): Promise<{ status: number; body: Buffer; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path, method }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks),
          type: response.headers['content-type'],
        }),
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

/**
 * The package's own web server for browsers that refuse `file://` (issue 20): unzipped with
 * Info-ZIP as a person would, `node serve.mjs` serves the package's folder (not the folder it
 * is started from) on 127.0.0.1, and refuses every path that tries to leave it.
 */
describe("the offline package's serve.mjs", () => {
  let testApp: TestApp
  let app: FastifyInstance
  let folder: string
  let server: ChildProcess | undefined

  beforeAll(async () => {
    // the viewer is built by `npm run build`; a package carries serve.mjs beside its viewer
    if (!existsSync('dist/offline-viewer/viewer.js')) {
      await run('npx', ['vite', 'build', '-c', 'vite.viewer.config.ts'])
    }
    testApp = await createTestApp()
    app = testApp.app
    folder = await mkdtemp(join(tmpdir(), 'offline-serve-'))
  }, 120_000)
  afterAll(async () => {
    server?.kill()
    await testApp?.close()
    if (folder) await rm(folder, { recursive: true, force: true })
  })

  it('serves the unpacked package to this computer and nothing outside its folder', async () => {
    const owner = await signInNewUser(app, `serve-owner-${Date.now()}`)
    const project = await createProject(app, owner, { kind: 'building', name: 'Served tower' })
    const upload = await postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: project.id },
      { name: 'file', value: (await sbmFixtureFiles()).twoStoreys, fileName: 'two-storeys.sbm' },
    ])
    expect(upload.envelope.code, upload.envelope.message).toBe('0')
    await callApi(app, {
      url: '/web/bimBiz/buildSbkFile',
      token: owner,
      json: { project_id: project.id },
    })
    await app.deps.services.offlinePackages.settle()
    const state = await callApi<DownloadState>(app, {
      url: '/web/bimBiz/checkSbkDownloadState',
      token: owner,
      json: { project_id: project.id },
    })
    const zip = await app.inject({
      method: 'GET',
      url: state.envelope.datum.package!.download_url!,
    })
    expect(zip.statusCode).toBe(200)
    await writeFile(join(folder, 'package.zip'), zip.rawPayload)
    const unpacked = join(folder, 'package')
    await run('unzip', ['-q', join(folder, 'package.zip'), '-d', unpacked])
    const readme = await readFile(join(unpacked, 'README.md'), 'utf8')
    // when to use it, in en, zh and ko
    expect(readme).toContain('node serve.mjs')
    expect(readme).toContain('## 中文')
    expect(readme).toContain('## 한국어')
    // beside the package: what must never be served
    await writeFile(join(folder, 'secret.txt'), 'not for the browser')
    await symlink(join(folder, 'secret.txt'), join(unpacked, 'link-out.txt'))

    // started from another folder: it serves its own
    const started = await startPackageServer(unpacked, folder)
    server = started.child
    const { port } = started
    const page = await rawRequest(port, '/')
    expect(page.status).toBe(200)
    expect(page.type).toBe('text/html; charset=utf-8')
    expect(page.body.toString()).toContain('<script src="viewer/viewer.js"></script>')
    const data = await rawRequest(port, '/viewer/data.js')
    expect(data.status).toBe(200)
    expect(data.type).toBe('text/javascript; charset=utf-8')
    // a model, byte for byte
    const models = JSON.parse(await readFile(join(unpacked, 'building/models.json'), 'utf8'))
    const modelPath = models.models[0].file as string
    const model = await rawRequest(port, `/${modelPath}`)
    expect(model.status).toBe(200)
    expect(model.body.equals(await readFile(join(unpacked, modelPath)))).toBe(true)
    expect((await rawRequest(port, '/no-such-file.js')).status).toBe(404)

    for (const path of [
      '/../secret.txt',
      '/viewer/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/link-out.txt',
      '/%00',
    ]) {
      const refused = await rawRequest(port, path)
      expect(refused.status, path).toBe(403)
      expect(refused.body.toString(), path).not.toContain('not for the browser')
    }
    // an absolute path stays inside the folder
    expect((await rawRequest(port, `/${join(folder, 'secret.txt')}`)).status).toBe(404)
    expect((await rawRequest(port, '/index.html', 'POST')).status).toBe(405)
  }, 120_000)
})
