import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webRouteAreas, webRoutes } from '../../../contract/routes'
import { createTestApp, type TestApp } from '../../testing/test-app'

/**
 * The route table in contract/ and the server's routes are one set (issue 14 item 7): no
 * descriptor the server does not answer, and no documented /web/ route without a descriptor.
 */
describe('route table', () => {
  let testApp: TestApp

  beforeAll(async () => {
    testApp = await createTestApp({ env: { LOG_LEVEL: 'error' } })
  })
  afterAll(async () => {
    await testApp.close()
  })

  const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`

  it('names each endpoint once', () => {
    const keys = webRoutes.map((route) => keyOf({ method: route.method, url: route.path }))
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys.length).toBeGreaterThan(80)
  })

  it('has a served route for every descriptor, with its method, path and auth', () => {
    const served = new Set(testApp.app.openApi.listServed().map(keyOf))
    const documented = new Map(testApp.app.openApi.list().map((route) => [keyOf(route), route]))
    for (const [area, routes] of Object.entries(webRouteAreas)) {
      for (const [name, route] of Object.entries(routes)) {
        const key = `${route.method} ${route.path}`
        expect(served.has(key), `${area}.${name}: ${key} is not served`).toBe(true)
        const entry = documented.get(key)
        expect(entry, `${area}.${name}: ${key} is not documented`).toBeDefined()
        // The same schema objects: the server validates with what the client is typed by.
        expect(entry?.auth).toBe(route.auth)
        expect(entry?.datum).toBe(route.datum)
        expect(entry?.body).toBe(route.body)
        expect(entry?.query).toBe(route.query)
        expect(entry?.fileFields).toEqual(route.fileFields)
      }
    }
  })

  it('has a descriptor for every documented route', () => {
    const described = new Set(webRoutes.map((route) => `${route.method} ${route.path}`))
    const undescribed = testApp.app.openApi
      .list()
      .map(keyOf)
      .filter((key) => !described.has(key))
    expect(undescribed).toEqual([])
    expect(testApp.app.openApi.list()).toHaveLength(webRoutes.length)
  })

  it('leaves only raw routes (files, documents, tiles, tus, the XLSX download, the OpenAPI document, the IoT live stream) undescribed', () => {
    const described = new Set(webRoutes.map((route) => `${route.method} ${route.path}`))
    const raw = testApp.app.openApi
      .listServed()
      .filter((route) => route.method !== 'HEAD' && !described.has(keyOf(route)))
    expect(raw.length).toBeGreaterThan(0)
    // Bytes, not envelopes: a new envelope route outside these belongs in the table.
    const rawPaths =
      /^\/web\/(openapi\.json$|files\/|maps\/|gml\/files\/|model\/(files|structure|converted)\/|tiles\/|basemaps\/|mapproxy\/|upload\/resumable(\/|$)|modelConfig\/files\/|modelDetail\/documents\/|cityModel\/files\/|templateModels\/|poi\/downloadPoiTemplate$|bimBiz\/getSbkFile$|iot\/live$)/
    expect(raw.map(keyOf).filter((key) => !rawPaths.test(key.split(' ')[1] ?? ''))).toEqual([])
  })
})
