import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BasemapFindDatum, KeepMapRegionDatum } from '../../../contract/city'
import type { MapConfigDatum } from '../../../contract/geo'
import { isPrivateAddress } from '../../modules/map-proxy/address-guard'
import { tileRange } from '../../modules/map-proxy/map-proxy.service'
import { callApi, createTestApp, type TestApp, testEditor, signIn } from '../../testing/test-app'
import { createProject } from './project-test-kit'

/**
 * The map proxy through the real app against a tiny map server on 127.0.0.1 that this test
 * starts (the machine has no internet, and production refuses loopback: the test app lets
 * exactly 127.0.0.1 through with MAP_PROXY_TEST_PRIVATE_ADDRESSES). Every other private address
 * stays refused, and nothing here ever leaves the machine.
 */

const tilePng = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
const glyphPbf = Buffer.from('glyph range 0-255')
const vectorTile = Buffer.from('vector tile 3/4/5 bytes')

describe('map proxy', () => {
  let upstream: Server
  let upstreamOrigin: string
  const hits = new Map<string, number>()
  let online: TestApp
  let token: string

  const hitsOf = (path: string) => hits.get(path) ?? 0

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      const path = request.url ?? '/'
      hits.set(path, hitsOf(path) + 1)
      const json = (value: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(value))
      }
      switch (path) {
        case '/styles/bright/style.json':
          return json({
            version: 8,
            name: 'Bright',
            sprite: `${upstreamOrigin}/sprites/bright`,
            glyphs: `${upstreamOrigin}/fonts/{fontstack}/{range}.pbf`,
            sources: {
              streets: { type: 'vector', url: '../../data/streets.json' },
              aerial: {
                type: 'raster',
                tiles: [`${upstreamOrigin}/aerial/{z}/{x}/{y}.png?key=k1`],
              },
              elsewhere: { type: 'raster', tiles: ['https://not-allowed.example/{z}/{x}/{y}.png'] },
            },
            layers: [
              { id: 'background', type: 'background', paint: { 'background-color': '#123456' } },
            ],
          })
        case '/data/streets.json':
          return json({ tilejson: '3.0.0', tiles: ['/vector/{z}/{x}/{y}.pbf'], maxzoom: 14 })
        case '/sprites/bright@2x.json':
          return json({ dot: { x: 0, y: 0, width: 8, height: 8, pixelRatio: 2 } })
        case '/fonts/Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf':
          response.writeHead(200, { 'content-type': 'application/x-protobuf' })
          return response.end(glyphPbf)
        case '/vector/3/4/5.pbf':
          response.writeHead(200, {
            'content-type': 'application/x-protobuf',
            'content-encoding': 'gzip',
          })
          return response.end(gzipSync(vectorTile))
        case '/big.png':
          response.writeHead(200, { 'content-type': 'image/png' })
          return response.end(Buffer.alloc(80 * 1024, 7))
        case '/big-unannounced.png':
          // no content-length: the limit must hold while reading
          response.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' })
          for (let index = 0; index < 20; index++) response.write(Buffer.alloc(8 * 1024, 1))
          return response.end()
        case '/broken.png':
          response.writeHead(500)
          return response.end('upstream trouble')
        case '/not-a-style.json':
          response.writeHead(200, { 'content-type': 'text/html' })
          return response.end('<html>login page</html>')
        case '/to-metadata':
          response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' })
          return response.end()
        case '/to-private-lan':
          response.writeHead(302, { location: 'http://10.1.2.3/style.json' })
          return response.end()
        case '/to-ipv6-loopback':
          response.writeHead(302, { location: `http://[::1]:${new URL(upstreamOrigin).port}/` })
          return response.end()
        case '/to-ftp':
          response.writeHead(302, { location: 'ftp://127.0.0.1/style.json' })
          return response.end()
        case '/moved/style.json':
          response.writeHead(301, { location: '/styles/bright/style.json' })
          return response.end()
        default:
          if (/^\/aerial\/\d+\/\d+\/\d+\.png\?key=k1$/.test(path)) {
            response.writeHead(200, { 'content-type': 'image/png' })
            return response.end(tilePng)
          }
          response.writeHead(404)
          return response.end()
      }
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
    online = await createTestApp({
      env: {
        MAP_STYLE_URL: `${upstreamOrigin}/styles/bright/style.json`,
        // on the list so that the private-address check, not the list, is what refuses them
        MAP_PROXY_HOSTS: '127.0.0.1 localhost 10.1.2.3 169.254.169.254 [::1]',
        MAP_PROXY_TEST_PRIVATE_ADDRESSES: '127.0.0.1',
        MAP_PROXY_RESPONSE_LIMIT_KB: '64',
        MAP_PROXY_TIMEOUT_MS: '5000',
      },
    })
    token = await signIn(online.app, testEditor)
  })
  afterAll(async () => {
    await online?.close()
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
  })
  beforeEach(() => hits.clear())

  /** GETs a proxied address (absolute ones are made relative for inject). */
  const get = (address: string) =>
    online.app.inject({ method: 'GET', url: address.replace(/^https?:\/\/[^/]+/, '') })

  /** The proxied address of a style the test names, through a saved online basemap. */
  async function proxiedStyle(styleUrl: string): Promise<string> {
    const project = await createProject(online.app, token, { kind: 'city', name: 'Proxy city' })
    const saved = await callApi<BasemapFindDatum>(online.app, {
      url: '/web/basemap/save',
      token,
      json: { project_id: project.id, kind: 'online', style_url: styleUrl },
    })
    expect(saved.envelope.code).toBe('0')
    return saved.envelope.datum.style_proxy_url ?? ''
  }

  it('serves the configured style through the proxy, every address rewritten to come back here', async () => {
    const config = await callApi<MapConfigDatum>(online.app, {
      method: 'GET',
      url: '/web/publicselect/mapConfig',
    })
    const styleAddress = config.envelope.datum.styleUrl ?? ''
    expect(styleAddress).toMatch(
      /^\/web\/mapproxy\/[^/]+\/s\/[A-Za-z0-9_-]+\/styles\/bright\/style\.json$/,
    )
    // the page's CSP stays strict: nothing about the map host is added
    expect(online.config.cspExtraOrigins).toEqual([])

    const answer = await get(styleAddress)
    expect(answer.statusCode).toBe(200)
    const style = answer.json()
    expect(style.layers[0].paint['background-color']).toBe('#123456')
    const proxied = /^http:\/\/localhost(:80)?\/web\/mapproxy\//
    expect(style.sprite).toMatch(proxied)
    expect(style.glyphs).toMatch(proxied)
    expect(style.glyphs).toContain('/fonts/{fontstack}/{range}.pbf')
    expect(style.sources.streets.url).toMatch(proxied)
    expect(style.sources.aerial.tiles[0]).toMatch(proxied)
    expect(style.sources.aerial.tiles[0]).toContain('/aerial/{z}/{x}/{y}.png?key=k1')
    // hosts off the list are rewritten too, and refused when asked for
    const elsewhere = await get(style.sources.elsewhere.tiles[0].replace('{z}/{x}/{y}', '1/0/0'))
    expect(elsewhere.statusCode).toBe(403)
    expect(elsewhere.json()).toMatchObject({ code: '1003', datum: { reason: 'host' } })

    // sprite (MapLibre appends @2x.json), glyphs (font stack as MapLibre encodes it), tiles
    const sprite = await get(`${style.sprite}@2x.json`)
    expect(sprite.statusCode).toBe(200)
    expect(sprite.json().dot.width).toBe(8)
    const glyphs = await get(
      style.glyphs
        // as the browser sends MapLibre's font stack: spaces escaped, the comma as is
        .replace('{fontstack}', 'Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular')
        .replace('{range}', '0-255'),
    )
    expect(glyphs.statusCode, glyphs.body).toBe(200)
    expect(glyphs.rawPayload.equals(glyphPbf)).toBe(true)
    const tile = await get(style.sources.aerial.tiles[0].replace('{z}/{x}/{y}', '3/4/5'))
    expect(tile.statusCode).toBe(200)
    expect(tile.headers['content-type']).toBe('image/png')
    expect(tile.rawPayload.equals(tilePng)).toBe(true)

    // a TileJSON source: its relative tile template is resolved and rewritten as well
    const tileJson = await get(style.sources.streets.url)
    expect(tileJson.statusCode).toBe(200)
    const template: string = tileJson.json().tiles[0]
    expect(template).toMatch(proxied)
    const vector = await get(template.replace('{z}/{x}/{y}', '3/4/5'))
    expect(vector.statusCode).toBe(200)
    // stored and served decompressed: the browser gets plain protobuf
    expect(vector.rawPayload.equals(vectorTile)).toBe(true)
  })

  it('caches what it fetched: a second request does not reach the upstream', async () => {
    const style = (
      await get(await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`))
    ).json()
    const tileAddress = style.sources.aerial.tiles[0].replace('{z}/{x}/{y}', '7/8/9')
    const first = await get(tileAddress)
    expect(first.statusCode).toBe(200)
    expect(hitsOf('/aerial/7/8/9.png?key=k1')).toBe(1)
    const second = await get(tileAddress)
    expect(second.statusCode).toBe(200)
    expect(second.rawPayload.equals(tilePng)).toBe(true)
    expect(hitsOf('/aerial/7/8/9.png?key=k1')).toBe(1)
    // the cache is on disk under DATA_DIR, so it outlives a restart
    expect(online.config.mapProxy.cacheDirectory.startsWith(online.config.dataDir)).toBe(true)
  })

  it('keeps a region for offline use: its tiles are fetched ahead and served from the cache', async () => {
    const region = { west: 121.5, south: 31.1, east: 121.7, north: 31.3 }
    const kept = await callApi<KeepMapRegionDatum>(online.app, {
      url: '/web/mapproxy/keepRegion',
      token,
      json: {
        style_url: `${upstreamOrigin}/styles/bright/style.json`,
        ...region,
        min_zoom: 10,
        max_zoom: 11,
      },
    })
    expect(kept.envelope.code).toBe('0')
    // three sources (aerial, streets through its TileJSON, one off the allow-list), two zooms
    expect(kept.envelope.datum.tiles).toBeGreaterThanOrEqual(6)
    expect(kept.envelope.datum.failed).toBeGreaterThan(0)
    expect(kept.envelope.datum.failed).toBeLessThan(kept.envelope.datum.tiles)
    expect(kept.envelope.datum.cache_bytes).toBeGreaterThan(0)
    const range = tileRange(region, 11)
    const tilePath = `/aerial/11/${range.minX}/${range.minY}.png?key=k1`
    expect(hitsOf(tilePath)).toBe(1)

    // drawn later: the browser's request is answered from the cache, upstream is not asked
    const style = (
      await get(await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`))
    ).json()
    hits.clear()
    const tile = await get(
      style.sources.aerial.tiles[0].replace('{z}/{x}/{y}', `11/${range.minX}/${range.minY}`),
    )
    expect(tile.statusCode).toBe(200)
    expect(hitsOf(tilePath)).toBe(0)

    // bounded: a large area over many zooms is refused before anything is fetched
    const tooMany = await callApi(online.app, {
      url: '/web/mapproxy/keepRegion',
      token,
      json: {
        style_url: `${upstreamOrigin}/styles/bright/style.json`,
        west: 100,
        south: 20,
        east: 130,
        north: 45,
        min_zoom: 0,
        max_zoom: 12,
      },
    })
    expect(tooMany.statusCode).toBe(413)
    expect(tooMany.envelope).toMatchObject({ messageId: 'mapProxy.regionTooLarge' })
    expect([...hits.keys()].filter((path) => path.startsWith('/aerial/12/'))).toEqual([])
    // and only for signed-in editors
    const anonymous = await callApi(online.app, {
      url: '/web/mapproxy/keepRegion',
      json: {
        style_url: `${upstreamOrigin}/styles/bright/style.json`,
        ...region,
        min_zoom: 1,
        max_zoom: 1,
      },
    })
    expect(anonymous.statusCode).toBe(401)
  })

  it('keeps serving a cached tile when the upstream is gone', async () => {
    const style = (
      await get(await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`))
    ).json()
    const tileAddress = style.sources.aerial.tiles[0].replace('{z}/{x}/{y}', '5/6/7')
    expect((await get(tileAddress)).statusCode).toBe(200)
    // past the fresh window (MAP_CACHE_FRESH_HOURS) the upstream is asked again …
    online.clock.advanceMs(8 * 24 * 3_600_000)
    token = await signIn(online.app, testEditor)
    const fresh = await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`)
    hits.clear()
    const again = tileAddress.replace(/\/mapproxy\/[^/]+\//, `/mapproxy/${grantOf(fresh)}/`)
    expect((await get(again)).statusCode).toBe(200)
    expect(hitsOf('/aerial/5/6/7.png?key=k1')).toBe(1)
    online.clock.advanceMs(8 * 24 * 3_600_000)
    token = await signIn(online.app, testEditor)
    const later = await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`)
    // the upstream "goes offline": every answer is a failure now
    const listeners = upstream.listeners('request')
    upstream.removeAllListeners('request')
    upstream.on('request', (_request, response) => {
      response.writeHead(503)
      response.end()
    })
    try {
      // … and when it then fails, the kept copy answers: a region once seen works offline
      const stale = await get(
        tileAddress.replace(/\/mapproxy\/[^/]+\//, `/mapproxy/${grantOf(later)}/`),
      )
      expect(stale.statusCode).toBe(200)
      expect(stale.headers['x-map-cache']).toBe('stale')
      expect(stale.rawPayload.equals(tilePng)).toBe(true)
    } finally {
      upstream.removeAllListeners('request')
      for (const listener of listeners) upstream.on('request', listener as never)
    }
  })

  it('refuses styles from hosts off the allow-list, and non-http(s) addresses', async () => {
    const project = await createProject(online.app, token, { kind: 'city', name: 'List city' })
    const offList = await callApi(online.app, {
      url: '/web/basemap/save',
      token,
      json: {
        project_id: project.id,
        kind: 'online',
        style_url: 'https://tiles.example.org/style.json',
      },
    })
    expect(offList.statusCode).toBe(403)
    expect(offList.envelope).toMatchObject({ code: '1003', datum: { reason: 'host' } })
    expect(offList.envelope.message).toContain('tiles.example.org')
    // a message id with its parameter, for the console to say it in the user's language
    expect(offList.envelope).toMatchObject({
      messageId: 'mapProxy.hostNotAllowed',
      params: { host: 'tiles.example.org' },
    })
    const ftp = await callApi(online.app, {
      url: '/web/basemap/save',
      token,
      json: { project_id: project.id, kind: 'online', style_url: 'ftp://127.0.0.1/style.json' },
    })
    expect(ftp.statusCode).toBe(400)
    // nothing was saved
    const found = await callApi<BasemapFindDatum>(online.app, {
      url: '/web/basemap/find',
      token,
      json: { project_id: project.id },
    })
    expect(found.envelope.datum.setting.kind).toBe('offline')
    expect(hits.size).toBe(0)
  })

  it('refuses private, loopback and link-local addresses, also by name and after redirects', async () => {
    for (const address of [
      '127.0.0.2',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fe80::1',
      'fd00::1',
      '192.168.1.1',
      '172.16.0.1',
      '100.64.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true)
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) {
      expect(isPrivateAddress(address), address).toBe(false)
    }
    const base = new URL(
      await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`),
      'http://x',
    )
    const grant = base.pathname.split('/')[3]!
    const through = (upstreamUrl: string) => {
      const url = new URL(upstreamUrl)
      const origin = Buffer.from(`${url.protocol}//${url.host}`).toString('base64url')
      return get(`/web/mapproxy/${grant}/r/${origin}${url.pathname}${url.search}`)
    }
    const refusals = [
      'http://10.1.2.3/tile.png',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:9/tile.png',
      // redirects out of the public internet
      `${upstreamOrigin}/to-metadata`,
      `${upstreamOrigin}/to-private-lan`,
      `${upstreamOrigin}/to-ipv6-loopback`,
    ]
    for (const address of refusals) {
      const answer = await through(address)
      expect(answer.statusCode, address).toBe(403)
      expect(answer.json(), address).toMatchObject({
        code: '1003',
        datum: { reason: 'privateAddress' },
      })
    }
    expect(hitsOf('/aerial/3/4/5.png?key=k1')).toBe(0)
    const ftp = await through(`${upstreamOrigin}/to-ftp`)
    expect(ftp.statusCode).toBe(400)
    // an allowed redirect within the same public-enough host is followed
    const moved = await get(
      `/web/mapproxy/${grant}/s/${Buffer.from(upstreamOrigin).toString('base64url')}/moved/style.json`,
    )
    expect(moved.statusCode).toBe(200)
    expect(moved.json().name).toBe('Bright')
  })

  it('refuses loopback entirely without the test-only exception', async () => {
    const strict = await createTestApp({
      env: {
        MAP_STYLE_URL: `${upstreamOrigin}/styles/bright/style.json`,
        MAP_PROXY_HOSTS: '127.0.0.1 localhost',
      },
    })
    try {
      const config = await callApi<MapConfigDatum>(strict.app, {
        method: 'GET',
        url: '/web/publicselect/mapConfig',
      })
      const answer = await strict.app.inject({
        method: 'GET',
        url: config.envelope.datum.styleUrl ?? '',
      })
      expect(answer.statusCode).toBe(403)
      expect(answer.json()).toMatchObject({ code: '1003', datum: { reason: 'privateAddress' } })
      // a DNS name that resolves to loopback: every address it resolves to is checked
      const grant = grantOf(config.envelope.datum.styleUrl ?? '')
      const byName = Buffer.from(`http://localhost:${new URL(upstreamOrigin).port}`).toString(
        'base64url',
      )
      const named = await strict.app.inject({
        method: 'GET',
        url: `/web/mapproxy/${grant}/r/${byName}/aerial/3/4/5.png?key=k1`,
      })
      expect(named.statusCode).toBe(403)
      expect(named.json()).toMatchObject({ code: '1003', datum: { reason: 'privateAddress' } })
      expect(hits.size).toBe(0)
    } finally {
      await strict.close()
    }
  })

  it('limits sizes, and answers upstream failures with an envelope', async () => {
    const base = new URL(
      await proxiedStyle(`${upstreamOrigin}/styles/bright/style.json`),
      'http://x',
    )
    const grant = base.pathname.split('/')[3]!
    const origin = Buffer.from(upstreamOrigin).toString('base64url')
    const big = await get(`/web/mapproxy/${grant}/r/${origin}/big.png`)
    expect(big.statusCode).toBe(413)
    expect(big.json()).toMatchObject({ code: '1013', datum: { reason: 'tooLarge' } })
    const unannounced = await get(`/web/mapproxy/${grant}/r/${origin}/big-unannounced.png`)
    expect(unannounced.statusCode).toBe(413)

    const broken = await get(`/web/mapproxy/${grant}/r/${origin}/broken.png`)
    expect(broken.statusCode).toBe(503)
    expect(broken.json()).toMatchObject({
      code: '1503',
      messageId: 'mapProxy.upstreamStatus',
      params: { status: 500 },
      datum: { reason: 'status', upstreamStatus: 500 },
    })
    const missing = await get(`/web/mapproxy/${grant}/r/${origin}/missing.png`)
    expect(missing.statusCode).toBe(404)
    const notStyle = await get(`/web/mapproxy/${grant}/s/${origin}/not-a-style.json`)
    expect(notStyle.statusCode).toBe(415)
    expect(notStyle.json()).toMatchObject({ code: '1015', datum: { reason: 'notStyle' } })

    // a forged or expired grant, and a malformed origin
    expect(
      (await get(`/web/mapproxy/1.${'a'.repeat(43)}/r/${origin}/aerial/3/4/5.png`)).statusCode,
    ).toBe(403)
    expect((await get(`/web/mapproxy/${grant}/r/not%20base64/x.png`)).statusCode).toBe(404)
    expect((await get(`/web/mapproxy/${grant}/x/${origin}/x.png`)).statusCode).toBe(404)
  })
})

/** The grant segment of a proxied address. */
function grantOf(address: string): string {
  return new URL(address, 'http://x').pathname.split('/')[3]!
}
