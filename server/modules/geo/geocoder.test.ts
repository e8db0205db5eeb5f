import { describe, expect, it } from 'vitest'
import {
  type CountryShape,
  createGeocoder,
  distanceMeters,
  type Place,
  shippedGeocoderInstance,
  stripDivisionSuffix,
} from './geocoder'
import { searchKey } from './geo-text'

describe('shipped offline geocoder: search', () => {
  const geocoder = shippedGeocoderInstance()

  it('tells same-named places apart by admin-1 and country', () => {
    const suzhou = geocoder.search('Suzhou', { language: 'en' })
    expect(suzhou.map((hit) => hit.context).sort()).toEqual(['Anhui, China', 'Jiangsu, China'])
    const valencia = geocoder.search('valencia', { language: 'en' })
    expect(valencia.map((hit) => hit.countryCode).sort()).toEqual(['ES', 'VE'])
    const hyderabad = geocoder.search('Hyderabad', { language: 'en' })
    expect(hyderabad.map((hit) => hit.address)).toEqual([
      'Hyderabad, Andhra Pradesh, India',
      'Hyderabad, Sind, Pakistan',
    ])
  })

  it('ranks equally good matches by population', () => {
    const santiago = geocoder.search('Santiago', { language: 'en' })
    expect(santiago[0]).toMatchObject({ countryCode: 'CL', name: 'Santiago' })
    const populations = geocoder
      .search('san', { language: 'en', limit: 5 })
      .map((hit) => geocoder.places().find((place) => place.id === hit.id)?.population ?? 0)
    expect(populations).toEqual([...populations].sort((a, b) => b - a))
  })

  it('prefers an exact name over a prefix over a substring', () => {
    expect(geocoder.search('york', { language: 'en' })[0]?.name).toBe('New York City')
    expect(geocoder.search('new york', { language: 'ko' })[0]?.name).toBe('뉴욕')
    // 'Paris' is exact; more populous places only contain 'par' elsewhere in their names
    expect(geocoder.search('paris', { language: 'en' })[0]?.countryCode).toBe('FR')
  })

  it('finds places by Korean, Chinese (either script), English and accent-free names', () => {
    expect(geocoder.search('서울', { language: 'ko' })[0]).toMatchObject({
      name: '서울',
      countryCode: 'KR',
      location: { lat: 37.56635, lng: 126.99973 },
    })
    expect(geocoder.search('부산', { language: 'ko' })[0]?.name).toBe('부산')
    expect(geocoder.search('首尔', { language: 'en' })[0]?.name).toBe('Seoul')
    expect(geocoder.search('首爾', { language: 'en' })[0]?.name).toBe('Seoul')
    expect(geocoder.search('廣州', { language: 'zh' })[0]?.name).toBe('广州市')
    expect(geocoder.search('urumqi', { language: 'en' })[0]?.name).toBe('Ürümqi')
    expect(geocoder.search('Beijing', { language: 'zh' })[0]).toMatchObject({
      name: '北京',
      location: { lat: 39.92889, lng: 116.38829 },
    })
  })

  it('finds China divisions down to streets, located at their nearest located parent', () => {
    const jiangan = geocoder.search('江岸区', { language: 'zh' })[0]!
    expect(jiangan).toMatchObject({
      kind: 'region',
      regionCode: '420102',
      precision: 'approximate',
      address: '中国 湖北省 武汉市 江岸区',
      location: { lat: 30.58003, lng: 114.27002 },
    })
    const street = geocoder.search('大智街道', { language: 'zh' })[0]!
    expect(street).toMatchObject({
      regionCode: '420102002',
      context: '湖北省 / 武汉市 / 江岸区, 中国',
    })
  })

  it('lists a city matched to a place once, as the division, with the exact location', () => {
    const hits = geocoder.search('武汉', { language: 'zh' })
    expect(hits[0]).toMatchObject({ kind: 'region', regionCode: '4201', precision: 'exact' })
    expect(hits.filter((hit) => hit.location.lat === 30.58003 && hit.kind === 'place')).toEqual([])
  })

  it('does not borrow a same-named place from another province', () => {
    // Natural Earth puts a place called 白城 in Guangxi; 白城市 is in Jilin
    const baicheng = geocoder.search('白城市', { language: 'zh' })[0]!
    expect(baicheng.regionCode).toBe('2208')
    expect(baicheng.precision).toBe('approximate')
    expect(baicheng.location.lat).toBeGreaterThan(40)
  })

  it('answers an empty query with nothing and honours the limit', () => {
    expect(geocoder.search('   ', { language: 'en' })).toEqual([])
    expect(geocoder.search('a', { language: 'en', limit: 3 })).toHaveLength(3)
  })
})

describe('shipped offline geocoder: reverse', () => {
  const geocoder = shippedGeocoderInstance()

  it('names the nearest place and its country in each language', () => {
    const wuhan = { lat: 30.59, lng: 114.3 }
    expect(geocoder.reverse(wuhan, 'en')).toMatchObject({
      address: 'Wuhan, Hubei, China',
      countryCode: 'CN',
      nearestPlace: { name: 'Wuhan' },
    })
    expect(geocoder.reverse(wuhan, 'zh').address).toBe('中国 湖北省 武汉市')
    expect(geocoder.reverse({ lat: 37.566653, lng: 126.978408 }, 'ko').address).toBe(
      '대한민국 서울',
    )
  })

  it('gives only the country when no place is near', () => {
    const ruralFrance = geocoder.reverse({ lat: 46.5, lng: 2.5 }, 'en')
    expect(ruralFrance).toMatchObject({ address: 'France', countryCode: 'FR' })
    expect(ruralFrance.nearestPlace!.distanceMeters).toBeGreaterThan(30_000)
  })

  it('falls back to coordinates at sea', () => {
    const atlantic = geocoder.reverse({ lat: 40, lng: -40 }, 'zh')
    expect(atlantic).toMatchObject({ address: '40.00000, -40.00000', countryCode: null })
  })
})

describe('createGeocoder on small tables', () => {
  const square = (minLng: number, minLat: number, size: number): [number, number][] => [
    [minLng, minLat],
    [minLng + size, minLat],
    [minLng + size, minLat + size],
    [minLng, minLat + size],
    [minLng, minLat],
  ]
  const place = (
    id: string,
    name: string,
    lat: number,
    lng: number,
    population: number,
  ): Place => ({
    id,
    name,
    nameEn: name,
    nameZh: '',
    nameKo: '',
    nameAscii: name,
    lat,
    lng,
    countryCode: 'AA',
    countryName: 'Testland',
    admin1: 'North',
    population,
    featureClass: 'Populated place',
  })
  const countries: CountryShape[] = [
    // a country with a lake (hole) in its middle
    { countryCode: 'AA', name: 'Testland', polygons: [[square(0, 0, 10), square(4, 4, 2)]] },
  ]
  const geocoder = createGeocoder({
    places: [place('a', 'Alpha', 1, 1, 100), place('b', 'Alphaville', 9, 9, 5000)],
    countries,
  })

  it('treats a hole as outside the country', () => {
    expect(geocoder.reverse({ lat: 2, lng: 2 }, 'en').countryCode).toBe('AA')
    expect(geocoder.reverse({ lat: 5, lng: 5 }, 'en').countryCode).toBeNull()
    expect(geocoder.reverse({ lat: 11, lng: 5 }, 'en').countryCode).toBeNull()
  })

  it('ranks an exact name above a more populous prefix match', () => {
    expect(geocoder.search('alpha', { language: 'en' }).map((hit) => hit.id)).toEqual(['a', 'b'])
    expect(geocoder.search('lph', { language: 'en' }).map((hit) => hit.id)).toEqual(['b', 'a'])
  })
})

describe('text helpers', () => {
  it('folds case, accents, width and Chinese script into one key', () => {
    expect(searchKey('  Ürümqi ')).toBe('urumqi')
    expect(searchKey('ＳＥＯＵＬ')).toBe('seoul')
    expect(searchKey('蘭州')).toBe('兰州')
    expect(searchKey('서울')).toBe('서울')
  })

  it('strips administrative suffixes but never to a single character', () => {
    expect(stripDivisionSuffix('武汉市')).toBe('武汉')
    expect(stripDivisionSuffix('新疆维吾尔自治区')).toBe('新疆')
    expect(stripDivisionSuffix('沙市')).toBe('沙市')
  })

  it('measures Beijing–Shanghai as about 1,070 km', () => {
    const meters = distanceMeters(
      { lat: 39.92889, lng: 116.38829 },
      { lat: 31.21645, lng: 121.4365 },
    )
    expect(meters).toBeGreaterThan(1_050_000)
    expect(meters).toBeLessThan(1_090_000)
  })
})
