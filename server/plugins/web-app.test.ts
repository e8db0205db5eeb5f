import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app'
import { webAppMissingMessage } from './web-app'

const bigScript = `export const names = [${'"tile",'.repeat(5000)}]\n`

describe('the web app', () => {
  let webDir: string
  let testApp: TestApp

  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'twinscape-web-'))
    await mkdir(join(webDir, 'assets'))
    await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Twinscape</title>')
    await writeFile(join(webDir, 'assets', 'index-Ab12Cd.js'), 'console.log("app")')
    await writeFile(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    // What tools/vite-precompress.ts writes beside a built file.
    await writeFile(join(webDir, 'assets', 'map-Xy34Zw.js'), bigScript)
    await writeFile(join(webDir, 'assets', 'map-Xy34Zw.js.br'), brotliCompressSync(bigScript))
    await writeFile(join(webDir, 'assets', 'map-Xy34Zw.js.gz'), gzipSync(bigScript))
    testApp = await createTestApp({ env: { WEB_DIR: webDir } })
  })
  afterAll(async () => {
    await testApp.close()
    await rm(webDir, { recursive: true, force: true })
  })

  const get = (url: string) => testApp.app.inject({ method: 'GET', url })

  it('serves index.html at / without caching it', async () => {
    const response = await get('/')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.body).toContain('<title>Twinscape</title>')
  })

  it('lets browsers keep hashed assets for a year', async () => {
    const response = await get('/assets/index-Ab12Cd.js')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body).toBe('console.log("app")')
  })

  it("sends the build's brotli copy to a browser that accepts it, marked and cacheable", async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/assets/map-Xy34Zw.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.rawPayload.length).toBeLessThan(bigScript.length / 10)
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(bigScript)
  })

  it('sends gzip to a browser without brotli, and the file itself to one without either', async () => {
    const gzipped = await testApp.app.inject({
      method: 'GET',
      url: '/assets/map-Xy34Zw.js',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(bigScript)
    const plain = await testApp.app.inject({
      method: 'GET',
      url: '/assets/map-Xy34Zw.js',
      headers: { 'accept-encoding': 'identity' },
    })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/accept-encoding/i)
    expect(plain.body).toBe(bigScript)
    // A file the build did not compress is sent as it is, whatever the browser accepts.
    const small = await testApp.app.inject({
      method: 'GET',
      url: '/assets/index-Ab12Cd.js',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.body).toBe('console.log("app")')
  })

  it('revalidates unhashed files', async () => {
    const response = await get('/favicon.svg')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-cache')
  })

  it('answers other page paths with index.html (the app routes itself)', async () => {
    for (const path of ['/projectManage', '/bim4/poi?x=1', '/login/']) {
      const response = await get(path)
      expect(response.statusCode, path).toBe(200)
      expect(response.body).toContain('<title>Twinscape</title>')
      expect(response.headers['cache-control']).toBe('no-cache')
    }
  })

  it('does not answer missing assets, API calls or non-GET requests with the page', async () => {
    expect((await get('/assets/index-Gone99.js')).statusCode).toBe(404)
    const api = await get('/web/nothing')
    expect(api.statusCode).toBe(404)
    expect(api.json().code).toBe('1004')
    const post = await testApp.app.inject({ method: 'POST', url: '/projectManage' })
    expect(post.statusCode).toBe(404)
    expect(post.json().code).toBe('1004')
  })

  it('says how to build the app when there is no build', async () => {
    const unbuilt = await createTestApp()
    try {
      for (const path of ['/', '/projectManage']) {
        const response = await unbuilt.app.inject({ method: 'GET', url: path })
        expect(response.statusCode).toBe(503)
        expect(response.headers['content-type']).toMatch(/^text\/plain/)
        expect(response.body).toBe(webAppMissingMessage)
        expect(response.body).toContain('npm run build')
      }
    } finally {
      await unbuilt.close()
    }
  })
})
