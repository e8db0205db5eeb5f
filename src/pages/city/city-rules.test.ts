import { describe, expect, it } from 'vitest'
import type { BasemapFindDatum, GisModel } from '../../api/city'
import { styleUrlProblem } from './basemap/basemap-form'
import { cityModules, cityTabPath, parseCityPath } from './city-modules'
import { engineBasemap, projectCenter, tilesetSource } from './city-project-store'
import { propertyRows, suggestedModelName } from './monomer/feature-properties'
import { monomerTreeNodes } from './monomer/MonomerTab'
import { obliqueTreeNodes } from './oblique/ObliqueTab'
import { createMemoryCityServer } from './testing/memory-city-server'

describe('city paths /home/{module}/{tab}', () => {
  it('has the spec’s sidebar modules and every city sub-tab exactly once', () => {
    expect(cityModules.map((module) => module.id)).toEqual([
      'map',
      'model',
      'poi',
      'path',
      'location',
      'style',
      'template',
      'visit',
    ])
    const tabTitles = cityModules.flatMap((module) => module.tabs.map((tab) => tab.title.message))
    for (const title of [
      'Area division',
      'Oblique photography',
      'Model library',
      'Monomer',
      'Manage POI',
      'Model animation',
      'POI inventory',
      'Monomer POI',
      'Path programming',
      'GPS positioning',
      'Anchor point set',
      'Electronic fence',
      'View tour',
      'Path navigation',
      'Basemap setting',
      'Model setting',
      'Personal setting',
      'Other setting',
      'Preview',
      'More cases',
    ]) {
      expect(tabTitles.filter((candidate) => candidate === title)).toHaveLength(1)
    }
  })

  it('reads module and tab, falling back to defaults for missing or unknown parts', () => {
    expect(parseCityPath('/home/style/basemap')).toMatchObject({
      module: { id: 'style' },
      tab: { id: 'basemap' },
    })
    expect(parseCityPath('/HOME/Model/MONOMER')).toMatchObject({
      module: { id: 'model' },
      tab: { id: 'monomer' },
    })
    expect(parseCityPath('/home/map')).toMatchObject({
      module: { id: 'map' },
      tab: { id: 'oblique' },
    })
    expect(parseCityPath('/home/map/nonsense').tab.id).toBe('oblique')
    expect(parseCityPath('/home/nowhere/x').module.id).toBe('map')
    expect(parseCityPath('/home/model/poi').tab.id).toBe('poi')
    expect(cityTabPath('visit', 'tour')).toBe('/home/visit/tour')
  })
})

describe('what the engine is given', () => {
  it('builds the offline basemap from the server’s shipped data, or the saved online/PMTiles one', () => {
    const offline = engineBasemap(null, 'ko', 'http://127.0.0.1:8080')
    expect(offline.kind).toBe('offline')
    const style =
      'style' in offline ? (offline.style as { sources: Record<string, { data: string }> }) : null
    expect(style?.sources.countries?.data).toBe('http://127.0.0.1:8080/web/maps/countries.geojson')

    const saved = (kind: 'online' | 'pmtiles'): BasemapFindDatum => ({
      setting: {
        kind,
        style_url: kind === 'online' ? 'https://tiles.example.com/style.json' : null,
        pmtiles_id: kind === 'pmtiles' ? 'file-1' : null,
      },
      pmtiles_url: kind === 'pmtiles' ? '/web/basemaps/file-1/map.pmtiles?sig=1' : null,
      style_proxy_url:
        kind === 'online' ? '/web/mapproxy/g1/s/aHR0cHM6Ly90aWxlcw/style.json' : null,
      files: [],
    })
    // online styles are drawn through the server's proxy (the page's CSP allows nothing else)
    expect(engineBasemap(saved('online'), 'en', 'http://127.0.0.1:8080')).toMatchObject({
      kind: 'online',
      styleUrl: 'http://127.0.0.1:8080/web/mapproxy/g1/s/aHR0cHM6Ly90aWxlcw/style.json',
      // the offline map stays in view when the online style fails
      fallbackStyle: { name: 'Twinscape offline' },
    })
    expect(engineBasemap(saved('pmtiles'), 'en', 'http://127.0.0.1:8080')).toEqual({
      kind: 'pmtiles',
      url: 'http://127.0.0.1:8080/web/basemaps/file-1/map.pmtiles?sig=1',
    })
  })

  it('streams only tilesets with content, with their placement in the engine’s terms', async () => {
    const server = createMemoryCityServer('p')
    const file = new File([new Uint8Array(8)], 'site.zip')
    const { uploadId } = await server.services.uploadResumable(file, {
      purpose: 'tileset',
      onProgress: () => undefined,
    })
    const tileset = await server.services.uploadTiltModel({ projectId: 'p', uploadId })
    const placed = { ...tileset, placement: { lng: 1, lat: 2, height_offset: 3, heading: 90 } }
    expect(tilesetSource(placed)).toMatchObject({
      id: tileset.id,
      isVisible: true,
      placement: { lng: 1, lat: 2, heightOffset: 3, heading: 90 },
    })
    expect(tilesetSource(placed)?.url).toMatch(/^https?:\/\/.+\/web\/tiles\//)
    expect(tilesetSource({ ...tileset, root_url: null })).toBeNull()
    expect(projectCenter(null)).toEqual({ lng: 121.6, lat: 31.2 })
  })
})

describe('trees', () => {
  it('names oblique parts after their content and numbers the nameless', async () => {
    const server = createMemoryCityServer('p')
    const { uploadId } = await server.services.uploadResumable(new File([], 'a.zip'), {
      purpose: 'tileset',
      onProgress: () => undefined,
    })
    const tileset = await server.services.uploadTiltModel({ projectId: 'p', uploadId })
    tileset.top_tiles = [
      { index: 0, name: 'tileset.json', content_uri: 'city/tileset.json', bounding_volume: null },
      { index: 1, name: '', content_uri: null, bounding_volume: null },
    ]
    const [node] = obliqueTreeNodes([tileset], (number) => `Part ${number}`)
    expect(node?.children?.map((child) => child.name)).toEqual(['city', 'Part 2'])
  })

  it('groups single-building models under their tileset', () => {
    const model = (id: string, tilesetId: string | null): GisModel => ({
      id,
      modelname: `Model ${id}`,
      project_id: 'p',
      tileset_id: tilesetId,
      feature_ids: [1],
      properties: {},
      created_at: '',
      updated_at: '',
    })
    const nodes = monomerTreeNodes(
      [model('1', 't1'), model('2', null), model('3', 't1')],
      new Map([['t1', 'Old town']]),
      'Not linked',
    )
    expect(nodes.map((node) => [node.name, node.children?.map((child) => child.name)])).toEqual([
      ['Old town', ['Model 1', 'Model 3']],
      ['Not linked', ['Model 2']],
    ])
  })
})

describe('picked building properties', () => {
  it('lists batch-table values readably and suggests a name from them', () => {
    const properties = {
      id: 3,
      Longitude: -1.3197004795898053,
      Height: 11.721514919772744,
      info: { name: 'building0', year: 0 },
      rooms: ['room0_a', 'room0_b'],
      note: null,
      long: 'x'.repeat(500),
    }
    const rows = propertyRows(properties)
    expect(rows.slice(0, 6)).toEqual([
      { name: 'id', value: '3' },
      // 3D Tiles batch tables store radians; a person reads degrees.
      { name: 'Longitude', value: '-75.6132677°', storedValue: '-1.31970048 rad' },
      { name: 'Height', value: '11.72151492' },
      { name: 'info', value: '{"name":"building0","year":0}' },
      { name: 'rooms', value: 'room0_a, room0_b' },
      { name: 'note', value: '—' },
    ])
    expect(rows[6]?.value).toHaveLength(200)
    expect(propertyRows({ Longitude: 121.5, Latitude: 31.2 })[0]?.value).toBe('121.5')
    expect(suggestedModelName(properties, 'Building 3')).toBe('building0')
    expect(suggestedModelName({ name: ' Tower ' }, 'Building 3')).toBe('Tower')
    expect(suggestedModelName({ id: 7 }, 'Building 7')).toBe('Building 7')
  })
})

describe('online style address', () => {
  it('accepts only absolute http(s) addresses', () => {
    expect(styleUrlProblem('  ')).toBe('empty')
    expect(styleUrlProblem('maps/style.json')).toBe('notUrl')
    expect(styleUrlProblem('ftp://example.com/style.json')).toBe('notHttp')
    expect(styleUrlProblem('javascript:alert(1)')).toBe('notHttp')
    expect(styleUrlProblem('https://example.com/style.json')).toBeNull()
  })
})
