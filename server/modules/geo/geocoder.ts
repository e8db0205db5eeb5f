/**
 * Offline geocoding for the map address picker (decisions.md "Maps"): place search over the
 * shipped Natural Earth places (en/zh names, Korean where known) and China's divisions, and
 * reverse geocoding to the nearest place and the country containing the point. No network.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { searchKey } from './geo-text'
import { type RegionIndex, type RegionOption, shippedRegions } from './regions'

/** The languages the console speaks; results are named in the asked one where known. */
export type GeoLanguage = 'ko' | 'zh' | 'en'

/** A point in WGS84 degrees (the map pick result's `location`, SPEC §3). */
export interface LatLng {
  lat: number
  lng: number
}

/** One populated place as shipped in server/resources/geo/places.tsv.gz. */
export interface Place {
  id: string
  name: string
  nameEn: string
  nameZh: string
  nameKo: string
  nameAscii: string
  lat: number
  lng: number
  /** ISO 3166-1 alpha-2, or '' for the few places Natural Earth leaves without one. */
  countryCode: string
  countryName: string
  admin1: string
  population: number
  featureClass: string
}

/** A country outline for point-in-polygon. Rings are [lng, lat] closed loops. */
export interface CountryShape {
  countryCode: string
  name: string
  polygons: [number, number][][][]
}

/** One search hit. `precision` says whether the location is the named thing itself. */
export interface GeoSearchResult {
  id: string
  kind: 'place' | 'region'
  /** The name in the asked language where known, else the English (places) or official name. */
  name: string
  /** Where it is, e.g. 'Jiangsu, China' or '湖北省 / 武汉市, 中国', to tell same-named places apart. */
  context: string
  /** The text to put in an address field: name plus context. */
  address: string
  location: LatLng
  countryCode: string
  /** 'exact': the place's own coordinates; 'approximate': the nearest located parent region's. */
  precision: 'exact' | 'approximate'
  /** The division code for region hits. */
  regionCode?: string
}

/** What reverse geocoding knows about a point. */
export interface ReverseGeocodeResult {
  location: LatLng
  /** A readable address in the asked language; the coordinates when nothing is known. */
  address: string
  countryCode: string | null
  countryName: string | null
  nearestPlace: { id: string; name: string; distanceMeters: number } | null
}

/** The search options a caller may set. */
export interface GeoSearchOptions {
  language: GeoLanguage
  /** At most this many results (default 10). */
  limit?: number
}

/** The offline geocoder: pure functions over the loaded tables. */
export interface Geocoder {
  search(query: string, options: GeoSearchOptions): GeoSearchResult[]
  reverse(location: LatLng, language: GeoLanguage): ReverseGeocodeResult
  /** The located places, for the map's place layer. */
  places(): readonly Place[]
  /** The country outlines as a GeoJSON FeatureCollection (for the offline map style). */
  countriesGeoJson(): unknown
}

/** A place is named as itself in the address only when the click is this close to it. */
export const NEAR_PLACE_RADIUS_METERS = 30_000
const EARTH_RADIUS_METERS = 6_371_008.8

/** Parses places.tsv (header line first). */
export function parsePlaces(tsv: string): Place[] {
  const [header, ...lines] = tsv.split('\n').filter((line) => line !== '')
  const columns = header?.split('\t') ?? []
  const column = (name: string) => {
    const index = columns.indexOf(name)
    if (index < 0) throw new Error(`places table has no column ${name}`)
    return index
  }
  const at = {
    name: column('name'),
    nameEn: column('nameEn'),
    nameZh: column('nameZh'),
    nameKo: column('nameKo'),
    nameAscii: column('nameAscii'),
    lat: column('lat'),
    lng: column('lng'),
    countryCode: column('countryCode'),
    countryName: column('countryName'),
    admin1: column('admin1'),
    population: column('population'),
    featureClass: column('featureClass'),
  }
  return lines.map((line, index) => {
    const cells = line.split('\t')
    const cell = (position: number) => cells[position] ?? ''
    return {
      id: `p${index}`,
      name: cell(at.name),
      nameEn: cell(at.nameEn),
      nameZh: cell(at.nameZh),
      nameKo: cell(at.nameKo),
      nameAscii: cell(at.nameAscii),
      lat: Number(cell(at.lat)),
      lng: Number(cell(at.lng)),
      countryCode: cell(at.countryCode),
      countryName: cell(at.countryName),
      admin1: cell(at.admin1),
      population: Number(cell(at.population)) || 0,
      featureClass: cell(at.featureClass),
    }
  })
}

interface CountriesFile {
  features: {
    properties: { countryCode: string; name: string }
    geometry: { coordinates: [number, number][][][] }
  }[]
}

/** Reads the shipped country outlines (a FeatureCollection of MultiPolygons). */
export function parseCountries(json: string): { shapes: CountryShape[]; geoJson: unknown } {
  const parsed = JSON.parse(json) as CountriesFile
  const shapes = parsed.features.map((feature) => ({
    countryCode: feature.properties.countryCode,
    name: feature.properties.name,
    polygons: feature.geometry.coordinates,
  }))
  return { shapes, geoJson: parsed }
}

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const toRadians = Math.PI / 180
  const dLat = (b.lat - a.lat) * toRadians
  const dLng = (b.lng - a.lng) * toRadians
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * toRadians) * Math.cos(b.lat * toRadians) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Even-odd point-in-polygon over all rings of one polygon (outer ring and holes). */
function isInPolygon(point: LatLng, rings: [number, number][][]): boolean {
  let inside = false
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!
      const [xj, yj] = ring[j]!
      if (yi > point.lat !== yj > point.lat) {
        const crossingLng = ((xj - xi) * (point.lat - yi)) / (yj - yi) + xi
        if (point.lng < crossingLng) inside = !inside
      }
    }
  }
  return inside
}

interface IndexedShape {
  shape: CountryShape
  boxes: { minLng: number; minLat: number; maxLng: number; maxLat: number }[]
}

function indexShapes(shapes: CountryShape[]): IndexedShape[] {
  return shapes.map((shape) => ({
    shape,
    boxes: shape.polygons.map((polygon) => {
      const box = { minLng: 180, minLat: 90, maxLng: -180, maxLat: -90 }
      for (const [lng, lat] of polygon[0] ?? []) {
        box.minLng = Math.min(box.minLng, lng)
        box.maxLng = Math.max(box.maxLng, lng)
        box.minLat = Math.min(box.minLat, lat)
        box.maxLat = Math.max(box.maxLat, lat)
      }
      return box
    }),
  }))
}

// Division suffixes, longest first, stripped so '武汉' finds 武汉市 and the place 武汉 matches it.
const divisionSuffixes = [
  '维吾尔自治区',
  '壮族自治区',
  '回族自治区',
  '特别行政区',
  '自治区',
  '自治州',
  '自治县',
  '地区',
  '省',
  '市',
  '区',
  '县',
  '盟',
  '旗',
]

/** A division or place name without its administrative suffix ('武汉市' → '武汉'). */
export function stripDivisionSuffix(name: string): string {
  for (const suffix of divisionSuffixes) {
    if (name.endsWith(suffix) && name.length - suffix.length >= 2) {
      return name.slice(0, -suffix.length)
    }
  }
  return name
}

interface RegionLocation {
  location: LatLng
  precision: 'exact' | 'approximate'
  placeId?: string
}

/**
 * Gives every division a location: cities and districts whose name matches a Natural Earth
 * place in China take its coordinates ('exact'); a province takes its capital's (the first of
 * its cities that matches, which is the xx01 capital for every province but the
 * municipalities, which match by their own name); everything else takes its parent's
 * ('approximate'). A city or district match must lie in the same Natural Earth admin-1 as its
 * province's capital, which filters out same-named places elsewhere.
 */
function locateRegions(
  regions: RegionIndex,
  places: readonly Place[],
): Map<string, RegionLocation> {
  const chinesePlaces = new Map<string, Place[]>()
  for (const place of places) {
    if (place.countryCode !== 'CN' || place.nameZh === '') continue
    const key = stripDivisionSuffix(place.nameZh)
    chinesePlaces.set(key, [...(chinesePlaces.get(key) ?? []), place])
  }
  const located = new Map<string, RegionLocation>()
  const adminOfProvince = new Map<string, string>()
  const exact = (place: Place): RegionLocation => ({
    location: { lat: place.lat, lng: place.lng },
    precision: 'exact',
    placeId: place.id,
  })
  const candidates = (region: RegionOption) =>
    chinesePlaces.get(stripDivisionSuffix(region.name)) ?? []

  for (const province of regions.childrenOf('0') ?? []) {
    const isMunicipality = province.name.endsWith('市')
    const own = isMunicipality ? candidates(province) : []
    if (own.length === 1) {
      located.set(province.codeid, exact(own[0]!))
      adminOfProvince.set(province.codeid, own[0]!.admin1)
      continue
    }
    for (const city of regions.childrenOf(province.codeid) ?? []) {
      const matches = candidates(city)
      if (matches.length === 1) {
        located.set(province.codeid, { ...exact(matches[0]!), precision: 'approximate' })
        adminOfProvince.set(province.codeid, matches[0]!.admin1)
        break
      }
    }
  }

  // code order puts every parent before its children, so a parent is located first
  for (const region of regions.all()) {
    if (region.level === 1) continue
    const parentCode = regions.parentOf(region.codeid) ?? '0'
    const provinceCode = region.codeid.slice(0, 2)
    const admin1 = adminOfProvince.get(provinceCode)
    const match =
      region.level <= 3 && admin1 !== undefined
        ? candidates(region).filter((place) => place.admin1 === admin1)
        : []
    if (match.length === 1) {
      located.set(region.codeid, exact(match[0]!))
      continue
    }
    const inherited = located.get(parentCode)
    if (inherited)
      located.set(region.codeid, { location: inherited.location, precision: 'approximate' })
  }
  return located
}

function localName(place: Place, language: GeoLanguage): string {
  if (language === 'zh' && place.nameZh) return place.nameZh
  if (language === 'ko' && place.nameKo) return place.nameKo
  return place.nameEn || place.name
}

const displayNamesCache = new Map<GeoLanguage, Intl.DisplayNames>()

/** A country's name in the asked language (ICU's region names), else the given fallback. */
export function countryDisplayName(code: string, language: GeoLanguage, fallback: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return fallback
  let names = displayNamesCache.get(language)
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region' })
    displayNamesCache.set(language, names)
  }
  return names.of(code) ?? fallback
}

/** Joins address parts given from the largest (country) to the smallest (place). */
function joinAddress(partsLargestFirst: string[], language: GeoLanguage): string {
  const parts = partsLargestFirst.filter((part, index, all) => part && all.indexOf(part) === index)
  // English writes the smallest part first; Chinese and Korean addresses go largest first
  return language === 'en' ? [...parts].reverse().join(', ') : parts.join(' ')
}

/** Coordinates as text, for a point nothing is known about (open sea). */
export function formatCoordinates(location: LatLng): string {
  return `${location.lat.toFixed(5)}, ${location.lng.toFixed(5)}`
}

interface SearchEntry {
  id: string
  keys: string[]
  /** Bigger ranks higher among equally good matches. */
  importance: number
  result(language: GeoLanguage): GeoSearchResult
  /** For regions located by a place: that place, which is then not listed twice. */
  duplicateOfPlaceId?: string
}

// A district outranks a village-sized place, a province every place but megacities
const regionImportanceByLevel = { 1: 20_000_000, 2: 3_000_000, 3: 300_000, 4: 30_000 } as const

/** 0 exact, 1 prefix, 2 start of a later word, 3 anywhere else, -1 no match. */
function matchQuality(key: string, query: string): number {
  // one indexOf per key: this runs for every one of ~46,000 names on each search
  const at = key.indexOf(query)
  if (at < 0) return -1
  if (at === 0) return key.length === query.length ? 0 : 1
  if (key.charCodeAt(at - 1) === 32 || key.includes(` ${query}`)) return 2
  return 3
}

/** Builds a geocoder over loaded tables (tests pass their own; the product uses the shipped). */
export function createGeocoder(tables: {
  places: Place[]
  countries: CountryShape[]
  countriesGeoJson?: unknown
  regions?: RegionIndex
}): Geocoder {
  const { places, countries } = tables
  const shapes = indexShapes(countries)
  const placesById = new Map(places.map((place) => [place.id, place]))
  let regionEntries: SearchEntry[] | undefined
  const regionCodeByPlaceId = new Map<string, string>()

  const placeEntries: SearchEntry[] = places.map((place) => ({
    id: place.id,
    keys: [
      ...new Set(
        [place.name, place.nameEn, place.nameAscii, place.nameZh, place.nameKo]
          .filter(Boolean)
          .map(searchKey),
      ),
    ],
    importance: place.population,
    result(language) {
      const countryName = countryDisplayName(place.countryCode, language, place.countryName)
      const name = localName(place, language)
      const contextParts = [countryName, place.admin1 !== name ? place.admin1 : '']
      return {
        id: place.id,
        kind: 'place',
        name,
        context: joinAddress(contextParts, 'en'),
        address: joinAddress([...contextParts, name], language),
        location: { lat: place.lat, lng: place.lng },
        countryCode: place.countryCode,
        precision: 'exact',
      }
    },
  }))

  const ensureRegionEntries = (): SearchEntry[] => {
    if (regionEntries) return regionEntries
    const regions = tables.regions
    if (!regions) {
      regionEntries = []
      return regionEntries
    }
    const locations = locateRegions(regions, places)
    regionEntries = []
    for (const region of regions.all()) {
      const location = locations.get(region.codeid)
      if (!location) continue
      if (location.placeId && location.precision === 'exact') {
        const known = regionCodeByPlaceId.get(location.placeId)
        // the deepest match (a district over its city) names the place best
        if (!known || known.length < region.codeid.length) {
          regionCodeByPlaceId.set(location.placeId, region.codeid)
        }
      }
      const linkedPlace = location.placeId ? placesById.get(location.placeId) : undefined
      const keys = [searchKey(region.name)]
      const stripped = stripDivisionSuffix(region.name)
      if (stripped !== region.name) keys.push(searchKey(stripped))
      regionEntries.push({
        id: `r${region.codeid}`,
        keys,
        importance: Math.max(regionImportanceByLevel[region.level], linkedPlace?.population ?? 0),
        ...(location.placeId ? { duplicateOfPlaceId: location.placeId } : {}),
        result(language) {
          const path = regions.pathOf(region.codeid) ?? [region]
          const country = countryDisplayName('CN', language, 'China')
          const ancestors = path.slice(0, -1).map((ancestor) => ancestor.name)
          return {
            id: `r${region.codeid}`,
            kind: 'region',
            name: region.name,
            context: [ancestors.join(' / '), country].filter(Boolean).join(', '),
            address: joinAddress(
              [country, ...path.map((part) => part.name)],
              language === 'en' ? 'en' : 'zh',
            ),
            location: location.location,
            countryCode: 'CN',
            precision: location.precision,
            regionCode: region.codeid,
          }
        },
      })
    }
    return regionEntries
  }

  return {
    search(query, { language, limit = 10 }) {
      const key = searchKey(query)
      if (key === '') return []
      const hits: { entry: SearchEntry; quality: number }[] = []
      for (const entries of [placeEntries, ensureRegionEntries()]) {
        for (const entry of entries) {
          let best = -1
          for (const candidate of entry.keys) {
            const quality = matchQuality(candidate, key)
            if (quality >= 0 && (best < 0 || quality < best)) best = quality
          }
          if (best >= 0) hits.push({ entry, quality: best })
        }
      }
      const regionPlaceIds = new Set(
        hits.map((hit) => hit.entry.duplicateOfPlaceId).filter((id) => id !== undefined),
      )
      return hits
        .filter((hit) => !regionPlaceIds.has(hit.entry.id))
        .sort(
          (a, b) =>
            a.quality - b.quality ||
            b.entry.importance - a.entry.importance ||
            a.entry.id.localeCompare(b.entry.id),
        )
        .slice(0, Math.max(1, Math.min(limit, 50)))
        .map((hit) => hit.entry.result(language))
    },

    reverse(location, language) {
      let country: CountryShape | null = null
      for (const { shape, boxes } of shapes) {
        const isInside = shape.polygons.some((polygon, index) => {
          const box = boxes[index]!
          if (
            location.lng < box.minLng ||
            location.lng > box.maxLng ||
            location.lat < box.minLat ||
            location.lat > box.maxLat
          ) {
            return false
          }
          return isInPolygon(location, polygon)
        })
        if (isInside) {
          country = shape
          break
        }
      }
      let nearest: Place | null = null
      let nearestMeters = Number.POSITIVE_INFINITY
      for (const place of places) {
        const meters = distanceMeters(location, place)
        if (meters < nearestMeters) {
          nearest = place
          nearestMeters = meters
        }
      }
      const countryCode =
        country?.countryCode ||
        (nearest && nearestMeters <= NEAR_PLACE_RADIUS_METERS ? nearest.countryCode : '') ||
        null
      const countryName = countryCode
        ? countryDisplayName(countryCode, language, country?.name ?? nearest?.countryName ?? '')
        : (country?.name ?? null)
      const isNear =
        nearest !== null &&
        nearestMeters <= NEAR_PLACE_RADIUS_METERS &&
        (country === null || nearest.countryCode === country.countryCode)
      const parts: string[] = [countryName ?? '']
      if (isNear && nearest) {
        const region = regionForPlace(nearest.id)
        if (region && language === 'zh') parts.push(...region.map((part) => part.name))
        else {
          // Natural Earth's admin-1 names are English only: in a ko/zh address they are noise
          if (language === 'en') parts.push(nearest.admin1)
          parts.push(localName(nearest, language))
        }
      }
      const address = joinAddress(parts, language) || formatCoordinates(location)
      return {
        location,
        address,
        countryCode,
        countryName,
        nearestPlace: nearest
          ? {
              id: nearest.id,
              name: localName(nearest, language),
              distanceMeters: Math.round(nearestMeters),
            }
          : null,
      }
    },

    places: () => places,
    countriesGeoJson: () =>
      tables.countriesGeoJson ?? {
        type: 'FeatureCollection',
        features: countries.map((shape) => ({
          type: 'Feature',
          properties: { countryCode: shape.countryCode, name: shape.name },
          geometry: { type: 'MultiPolygon', coordinates: shape.polygons },
        })),
      },
  }

  function regionForPlace(placeId: string): RegionOption[] | undefined {
    ensureRegionEntries()
    const code = regionCodeByPlaceId.get(placeId)
    return code === undefined ? undefined : tables.regions?.pathOf(code)
  }
}

const shippedGeoFolder = new URL('../../resources/geo/', import.meta.url)
let shippedGeocoder: Geocoder | undefined

/** The geocoder over the data shipped in server/resources (loaded on first use, then kept). */
export function shippedGeocoderInstance(): Geocoder {
  if (shippedGeocoder) return shippedGeocoder
  const places = parsePlaces(
    gunzipSync(readFileSync(new URL('places.tsv.gz', shippedGeoFolder))).toString('utf8'),
  )
  const countries = parseCountries(
    gunzipSync(readFileSync(new URL('countries.json.gz', shippedGeoFolder))).toString('utf8'),
  )
  shippedGeocoder = createGeocoder({
    places,
    countries: countries.shapes,
    countriesGeoJson: countries.geoJson,
    regions: shippedRegions(),
  })
  return shippedGeocoder
}
