import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GeoReverseDatum, GeoSearchResult } from '../../../contract/geo'
import type { RegionOption } from '../../../contract/region'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'

describe('region cascade, offline geocoding and map data', () => {
  let testApp: TestApp
  let editor: string

  beforeAll(async () => {
    testApp = await createTestApp()
    editor = await signIn(testApp.app, testEditor)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const findAreaJson = (codeid: string | number) =>
    callApi<RegionOption[]>(testApp.app, {
      url: '/web/publicselect/findAreaJson',
      form: { codeid: String(codeid) },
    })

  it('walks from the root to a street in four calls, without signing in', async () => {
    const provinces = (await findAreaJson(0)).envelope.datum
    const hubei = provinces.find((region) => region.name === '湖北省')!
    const cities = (await findAreaJson(hubei.codeid)).envelope.datum
    const wuhan = cities.find((region) => region.name === '武汉市')!
    const districts = (await findAreaJson(wuhan.codeid)).envelope.datum
    const jiangan = districts.find((region) => region.name === '江岸区')!
    const streets = (await findAreaJson(jiangan.codeid)).envelope.datum
    expect([hubei.codeid, wuhan.codeid, jiangan.codeid]).toEqual(['42', '4201', '420102'])
    expect(streets).toHaveLength(17)
    expect(streets[0]).toEqual({ codeid: '420102002', name: '大智街道', level: 4, children: false })
  })

  it('answers a county-less city with its towns, and refuses unknown or malformed codes', async () => {
    const dongguan = (await findAreaJson('4419')).envelope.datum
    expect(dongguan.every((region) => region.level === 4 && region.codeid.length === 9)).toBe(true)
    expect((await findAreaJson('4290')).envelope.datum.map((region) => region.name)).toContain(
      '仙桃市',
    )
    expect(await findAreaJson('99')).toMatchObject({ statusCode: 404, envelope: { code: '1004' } })
    expect((await findAreaJson('12a')).statusCode).toBe(400)
    const json = await callApi<RegionOption[]>(testApp.app, {
      url: '/web/publicselect/findAreaJson',
      json: { codeid: 0 },
    })
    expect(json.envelope.datum).toHaveLength(31)
  })

  it('searches places offline in the asked language', async () => {
    const answer = await callApi<GeoSearchResult[]>(testApp.app, {
      url: '/web/geo/search',
      token: editor,
      json: { q: '서울', language: 'ko' },
    })
    expect(answer.envelope.datum[0]).toMatchObject({ name: '서울', countryCode: 'KR' })
    const suzhou = await callApi<GeoSearchResult[]>(testApp.app, {
      url: '/web/geo/search',
      token: editor,
      form: { q: 'suzhou', language: 'en', limit: '5' },
    })
    expect(suzhou.envelope.datum).toHaveLength(2)
    const empty = await callApi(testApp.app, {
      url: '/web/geo/search',
      token: editor,
      json: { q: '' },
    })
    expect(empty.statusCode).toBe(400)
    const anonymous = await callApi(testApp.app, { url: '/web/geo/search', json: { q: 'x' } })
    expect(anonymous.envelope.code).toBe('2011')
  })

  it('reverse-geocodes a clicked point', async () => {
    const answer = await callApi<GeoReverseDatum>(testApp.app, {
      url: '/web/geo/reverse',
      token: editor,
      form: { lat: '31.2', lng: '121.5', language: 'zh' },
    })
    expect(answer.envelope.datum).toMatchObject({ countryCode: 'CN', address: '中国 上海市' })
    const outOfRange = await callApi(testApp.app, {
      url: '/web/geo/reverse',
      token: editor,
      json: { lat: 91, lng: 0 },
    })
    expect(outOfRange.statusCode).toBe(400)
  })

  it('serves the offline map style sources as GeoJSON', async () => {
    const countries = await testApp.app.inject({ url: '/web/maps/countries.geojson' })
    expect(countries.headers['content-type']).toContain('application/geo+json')
    const countriesJson = countries.json() as {
      features: { properties: { countryCode: string } }[]
    }
    expect(countriesJson.features).toHaveLength(177)
    expect(countriesJson.features.map((feature) => feature.properties.countryCode)).toContain('FR')
    const places = (await testApp.app.inject({ url: '/web/maps/places.geojson' })).json() as {
      features: { properties: { nameKo: string; rank: number } }[]
    }
    expect(places.features.length).toBe(1249)
    expect(
      places.features.find((feature) => feature.properties.nameKo === '서울')?.properties.rank,
    ).toBe(0)
  })
})
