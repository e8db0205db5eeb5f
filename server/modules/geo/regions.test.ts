import { describe, expect, it } from 'vitest'
import { createRegionIndex, ROOT_REGION_CODE, regionPathName, shippedRegions } from './regions'

describe('shipped China divisions', () => {
  const regions = shippedRegions()

  it('walks 湖北省 → 武汉市 → 江岸区 → its 17 streets in four lookups', () => {
    const provinces = regions.childrenOf(ROOT_REGION_CODE)!
    expect(provinces).toHaveLength(31)
    const hubei = provinces.find((region) => region.name === '湖北省')!
    expect(hubei).toEqual({ codeid: '42', name: '湖北省', level: 1, children: true })
    const wuhan = regions.childrenOf(hubei.codeid)!.find((region) => region.name === '武汉市')!
    expect(wuhan.codeid).toBe('4201')
    const jiangan = regions.childrenOf(wuhan.codeid)!.find((region) => region.name === '江岸区')!
    expect(jiangan.codeid).toBe('420102')
    const streets = regions.childrenOf(jiangan.codeid)!
    expect(streets).toHaveLength(17)
    expect(streets[0]).toMatchObject({ name: '大智街道', level: 4, children: false })
    expect(regions.childrenOf(streets[0]!.codeid)).toEqual([])
  })

  it("gives 北京市 one level-2 child, 市辖区 (1101), which has Beijing's districts", () => {
    const beijing = regions.childrenOf('11')!
    expect(beijing.map((region) => [region.codeid, region.name])).toEqual([['1101', '市辖区']])
    expect(regions.childrenOf('1101')!.map((region) => region.name)).toContain('东城区')
  })

  it('puts the towns of county-less cities directly under the city', () => {
    for (const cityCode of ['4419', '4420', '4604', '6202']) {
      const children = regions.childrenOf(cityCode)!
      expect(children.length).toBeGreaterThan(3)
      for (const child of children) {
        expect(child.codeid).toHaveLength(9)
        expect(child.level).toBe(4)
        expect(child.children).toBe(false)
      }
    }
    expect(regions.childrenOf('4419')!.map((region) => region.name)).toContain('东城街道')
    expect(regions.find('441900')).toBeUndefined()
  })

  it('keeps the province-administered county-level divisions', () => {
    const direct = regions.childrenOf('42')!.find((region) => region.codeid === '4290')!
    expect(direct.name).toBe('省直辖县级行政区划')
    expect(regions.childrenOf('4290')!.map((region) => region.name)).toContain('仙桃市')
  })

  it('has the source counts: 31 provinces, 342 cities, 2,974 districts, 41,352 streets', () => {
    // pcas-code's 2,978 districts include one synthetic district per county-less city (4)
    expect(regions.countsByLevel()).toEqual([31, 342, 2978 - 4, 41_352])
  })

  it('answers unknown codes with undefined rather than an empty list', () => {
    expect(regions.childrenOf('99')).toBeUndefined()
    expect(regions.childrenOf('')).toBeUndefined()
    expect(regions.find('4201')?.name).toBe('武汉市')
  })

  it('names a path from the province down', () => {
    expect(regionPathName(regions.pathOf('420102002')!)).toBe('湖北省 / 武汉市 / 江岸区 / 大智街道')
    expect(regions.pathOf('123')).toBeUndefined()
  })
})

describe('createRegionIndex', () => {
  it('rejects malformed lines and children listed before their parent', () => {
    expect(() => createRegionIndex('42\n')).toThrow(/Malformed/)
    expect(() => createRegionIndex('4201\t武汉市\n42\t湖北省\n')).not.toThrow()
    expect(() => createRegionIndex('12345\tX\n')).toThrow(/Malformed/)
  })
})
