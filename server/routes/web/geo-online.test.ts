import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GeoReverseDatum, GeoSearchResult, MapConfigDatum } from '../../../contract/geo'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'

/**
 * GEOCODER_URL and MAP_STYLE_URL through the real app: the routes use a fake Nominatim on
 * 127.0.0.1 when configured, the offline geocoder when it fails, and the picker learns the
 * (proxied) style address from a public route; the proxy itself: map-proxy.test.ts.
 */
describe('online geocoder and map style configuration', () => {
  let fake: Server
  let fakeUrl: string
  let isFakeBroken = false
  let online: TestApp
  let offline: TestApp

  beforeAll(async () => {
    fake = createServer((request, response) => {
      if (isFakeBroken) {
        response.writeHead(500)
        response.end()
        return
      }
      const url = new URL(request.url ?? '/', 'http://fake')
      const body = url.pathname.endsWith('/search')
        ? [
            {
              osm_type: 'node',
              osm_id: 77,
              lat: '48.8588897',
              lon: '2.3200410',
              name: 'Paris',
              display_name: 'Paris, Île-de-France, France',
              address: { country: 'France', country_code: 'fr' },
            },
          ]
        : {
            osm_type: 'way',
            osm_id: 78,
            lat: '48.8584',
            lon: '2.2945',
            name: 'Tour Eiffel',
            display_name: 'Tour Eiffel, Avenue Gustave Eiffel, Paris, France',
            address: { country: 'France', country_code: 'fr' },
          }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve))
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`
    online = await createTestApp({
      env: {
        GEOCODER_URL: fakeUrl,
        GEOCODER_TIMEOUT_MS: '2000',
        MAP_STYLE_URL: 'https://tiles.example.com/styles/bright/style.json',
      },
    })
    offline = await createTestApp()
  })
  afterAll(async () => {
    await online?.close()
    await offline?.close()
    fake.closeAllConnections()
    await new Promise((resolve) => fake.close(resolve))
  })

  it('answers search and reverse from the configured geocoder', async () => {
    const token = await signIn(online.app, testEditor)
    const search = await callApi<GeoSearchResult[]>(online.app, {
      url: '/web/geo/search',
      token,
      json: { q: 'Paris', language: 'en' },
    })
    expect(search.envelope.datum).toEqual([
      expect.objectContaining({ id: 'nn77', name: 'Paris', countryCode: 'FR' }),
    ])
    const reverse = await callApi<GeoReverseDatum>(online.app, {
      url: '/web/geo/reverse',
      token,
      form: { lat: '48.8583', lng: '2.2944', language: 'en' },
    })
    expect(reverse.envelope.datum.address).toBe('Tour Eiffel, Avenue Gustave Eiffel, Paris, France')
  })

  it('falls back to the offline geocoder when the configured one fails', async () => {
    isFakeBroken = true
    try {
      const token = await signIn(online.app, testEditor)
      const search = await callApi<GeoSearchResult[]>(online.app, {
        url: '/web/geo/search',
        token,
        json: { q: '서울', language: 'ko' },
      })
      expect(search.statusCode).toBe(200)
      expect(search.envelope.datum[0]).toMatchObject({ name: '서울', countryCode: 'KR' })
    } finally {
      isFakeBroken = false
    }
  })

  it('tells the picker which style to use, through the map proxy (the CSP stays strict)', async () => {
    const answer = await callApi<MapConfigDatum>(online.app, {
      method: 'GET',
      url: '/web/publicselect/mapConfig',
    })
    expect(answer.envelope.datum.styleUrl).toMatch(
      /^\/web\/mapproxy\/[^/]+\/s\/[A-Za-z0-9_-]+\/styles\/bright\/style\.json$/,
    )
    expect(online.config.cspExtraOrigins).toEqual([])
    expect(online.config.mapProxy.allowedHosts).toContain('tiles.example.com')
    const unset = await callApi<MapConfigDatum>(offline.app, {
      method: 'GET',
      url: '/web/publicselect/mapConfig',
    })
    expect(unset.envelope.datum).toEqual({ styleUrl: null })
  })

  it('refuses to start with an address that is not http(s)', async () => {
    await expect(createTestApp({ env: { GEOCODER_URL: 'ftp://geo.example.com' } })).rejects.toThrow(
      /GEOCODER_URL must be an http/,
    )
    await expect(createTestApp({ env: { MAP_STYLE_URL: 'not a url' } })).rejects.toThrow(
      /MAP_STYLE_URL must be an http/,
    )
  })
})
