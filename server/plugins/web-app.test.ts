import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../testing/test-app'
import { webAppMissingMessage } from './web-app'

describe('the web app', () => {
  let webDir: string
  let testApp: TestApp

  beforeAll(async () => {
    webDir = await mkdtemp(join(tmpdir(), 'twinscape-web-'))
    await mkdir(join(webDir, 'assets'))
    await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Twinscape</title>')
    await writeFile(join(webDir, 'assets', 'index-Ab12Cd.js'), 'console.log("app")')
    await writeFile(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
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
