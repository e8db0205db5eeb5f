import { describe, expect, it } from 'vitest'
import type { RegionOption } from '../../api/geo'
import { cachedRegionLoader, regionPathName, resolveRegionPath } from './region-path'

const region = (codeid: string, name: string, children = true): RegionOption => ({
  codeid,
  name,
  level: ({ 2: 1, 4: 2, 6: 3, 9: 4 } as const)[codeid.length as 2 | 4 | 6 | 9],
  children,
})

// A slice of the real table: Hubei down to a street, and Dongguan, whose towns sit under the city
const tree: Record<string, RegionOption[]> = {
  '0': [region('42', '湖北省'), region('44', '广东省')],
  '42': [region('4201', '武汉市')],
  '4201': [region('420102', '江岸区')],
  '420102': [region('420102002', '大智街道', false), region('420102003', '一元街道', false)],
  '44': [region('4419', '东莞市')],
  '4419': [region('441900003', '东城街道', false)],
}

describe('region paths', () => {
  const calls: string[] = []
  const load = async (codeid: string) => {
    calls.push(codeid)
    const children = tree[codeid]
    if (!children) throw new Error(`unknown ${codeid}`)
    return children
  }

  it('resolves a street through four levels and a town under a county-less city', async () => {
    const street = await resolveRegionPath('420102002', load)
    expect(regionPathName(street!)).toBe('湖北省 / 武汉市 / 江岸区 / 大智街道')
    const town = await resolveRegionPath('441900003', load)
    expect(town!.map((step) => step.codeid)).toEqual(['44', '4419', '441900003'])
    expect(await resolveRegionPath('4299', load)).toBeUndefined()
  })

  it('asks the server once per region, and again after a failure', async () => {
    calls.length = 0
    const cached = cachedRegionLoader(load)
    await cached('42')
    await cached('42')
    expect(calls).toEqual(['42'])
    await expect(cached('99')).rejects.toThrow()
    await expect(cached('99')).rejects.toThrow()
    expect(calls).toEqual(['42', '99', '99'])
  })
})
