import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createFallbackGeocodingService,
  createNominatimGeocoder,
  type GeocodingService,
  type OnlineGeocoderFailure,
} from './online-geocoder'

/**
 * The online geocoder is a third party we cannot reach from tests, so a fake Nominatim runs on
 * 127.0.0.1 and each test sets how it behaves. The offline side is a tiny service with fixed
 * answers: what matters here is which side answered.
 */
type FakeBehaviour = (request: IncomingMessage, response: ServerResponse) => void

const seoulSearch = [
  {
    place_id: 1,
    osm_type: 'relation',
    osm_id: 2297418,
    lat: '37.5666791',
    lon: '126.9782914',
    name: '서울특별시',
    display_name: '서울특별시, 대한민국',
    address: { country: '대한민국', country_code: 'kr' },
  },
  { place_id: 2, lat: 'not a number', lon: '1', display_name: 'Broken' },
]

const cityHallReverse = {
  place_id: 3,
  osm_type: 'way',
  osm_id: 4242,
  lat: '37.5663',
  lon: '126.9779',
  name: 'Seoul City Hall',
  display_name: 'Seoul City Hall, 110 Sejong-daero, Jung-gu, Seoul, South Korea',
  address: { country: 'South Korea', country_code: 'kr' },
}

const offline: GeocodingService = {
  search: async (query) => [
    {
      id: 'p1',
      kind: 'place',
      name: `offline ${query}`,
      context: 'Offline',
      address: `offline ${query}`,
      location: { lat: 1, lng: 2 },
      countryCode: 'XX',
      precision: 'exact',
    },
  ],
  reverse: async (location) => ({
    location,
    address: 'offline address',
    countryCode: null,
    countryName: null,
    nearestPlace: null,
  }),
}

describe('online geocoder with offline fallback', () => {
  let server: Server
  let baseUrl: string
  let behaviour: FakeBehaviour
  let requests: URL[]

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(new URL(request.url ?? '/', 'http://fake'))
      behaviour(request, response)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/nominatim`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  beforeEach(() => {
    requests = []
  })

  const json = (body: unknown, status = 200): FakeBehaviour => {
    return (_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
  }

  function service(options: { timeoutMs?: number; now?: () => number } = {}) {
    const failures: OnlineGeocoderFailure[] = []
    const geocoding = createFallbackGeocodingService({
      online: createNominatimGeocoder({ baseUrl, userAgent: 'Twinscape-test/1' }),
      offline,
      timeoutMs: options.timeoutMs ?? 2_000,
      ...(options.now ? { now: options.now } : {}),
      onFallback: (failure) => failures.push(failure),
    })
    return { geocoding, failures }
  }

  it('searches online with the asked language and limit, skipping unusable hits', async () => {
    behaviour = json(seoulSearch)
    const { geocoding, failures } = service()
    const results = await geocoding.search('서울', { language: 'ko', limit: 5 })
    expect(results).toEqual([
      {
        id: 'nr2297418',
        kind: 'place',
        name: '서울특별시',
        context: '대한민국',
        address: '서울특별시, 대한민국',
        location: { lat: 37.5666791, lng: 126.9782914 },
        countryCode: 'KR',
        precision: 'exact',
      },
    ])
    const sent = requests[0]!
    expect(sent.pathname).toBe('/nominatim/search')
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      q: '서울',
      format: 'jsonv2',
      limit: '5',
      'accept-language': 'ko',
    })
    expect(failures).toEqual([])
  })

  it('reverse-geocodes online, keeping the clicked point and measuring to the named place', async () => {
    behaviour = json(cityHallReverse)
    const { geocoding } = service()
    const clicked = { lat: 37.5665, lng: 126.978 }
    const result = await geocoding.reverse(clicked, 'en')
    expect(result).toMatchObject({
      location: clicked,
      address: 'Seoul City Hall, 110 Sejong-daero, Jung-gu, Seoul, South Korea',
      countryCode: 'KR',
      countryName: 'South Korea',
      nearestPlace: { id: 'nw4242', name: 'Seoul City Hall' },
    })
    // 0.0002° of latitude and 0.0001° of longitude: about 24 m
    expect(result.nearestPlace?.distanceMeters).toBeGreaterThan(15)
    expect(result.nearestPlace?.distanceMeters).toBeLessThan(35)
    expect(requests[0]?.searchParams.get('lon')).toBe('126.978')
  })

  it('answers offline when the service fails, then rests it instead of waiting again', async () => {
    behaviour = json({ message: 'overloaded' }, 503)
    let nowMs = 1_000_000
    const { geocoding, failures } = service({ now: () => nowMs })
    expect((await geocoding.search('Seoul', { language: 'en' }))[0]?.name).toBe('offline Seoul')
    expect(failures).toMatchObject([{ operation: 'search', reason: 'error' }])

    behaviour = json(seoulSearch)
    expect((await geocoding.search('Seoul', { language: 'en' }))[0]?.name).toBe('offline Seoul')
    expect(requests).toHaveLength(1)
    expect(failures.at(-1)).toEqual({ operation: 'search', reason: 'resting' })

    nowMs += 60_001
    expect((await geocoding.search('Seoul', { language: 'en' }))[0]?.name).toBe('서울특별시')
    expect(requests).toHaveLength(2)
  })

  it('answers offline when the service is slower than the timeout', async () => {
    behaviour = (_request, response) => {
      setTimeout(() => json(cityHallReverse)(_request, response), 1_500)
    }
    const { geocoding, failures } = service({ timeoutMs: 150 })
    const startedMs = performance.now()
    const result = await geocoding.reverse({ lat: 37.5, lng: 127 }, 'en')
    expect(result.address).toBe('offline address')
    expect(performance.now() - startedMs).toBeLessThan(1_200)
    expect(failures).toMatchObject([{ operation: 'reverse', reason: 'timeout' }])
  })

  it('answers offline for an empty or unusable answer without resting the service', async () => {
    const { geocoding, failures } = service()
    behaviour = json([])
    expect((await geocoding.search('nowhere', { language: 'en' }))[0]?.name).toBe('offline nowhere')
    behaviour = json({ error: 'Unable to geocode' })
    expect((await geocoding.reverse({ lat: 0, lng: -30 }, 'en')).address).toBe('offline address')
    behaviour = json(cityHallReverse)
    expect((await geocoding.reverse({ lat: 37.5, lng: 127 }, 'en')).countryCode).toBe('KR')
    expect(failures.map((failure) => failure.reason)).toEqual(['empty', 'empty'])
  })

  it('answers offline when the service sends something that is not JSON', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<html>captive portal</html>')
    }
    const { geocoding, failures } = service()
    expect((await geocoding.search('Seoul', { language: 'en' }))[0]?.id).toBe('p1')
    expect(failures).toMatchObject([{ reason: 'error' }])
  })

  it('answers offline when nothing listens at the address', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const geocoding = createFallbackGeocodingService({
      online: createNominatimGeocoder({ baseUrl: `http://127.0.0.1:${port}`, userAgent: 'test' }),
      offline,
      timeoutMs: 2_000,
    })
    expect((await geocoding.reverse({ lat: 1, lng: 1 }, 'zh')).address).toBe('offline address')
  })
})
