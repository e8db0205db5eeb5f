import { describe, expect, it } from 'vitest'
import { STALE } from '../protocol/latest-wins'
import { readRealFile, readTwoStoreyFixture, realFiles, testGml } from './fixtures/test-gml'
import type { GmlParseProgress } from './gml-parser'
import { createIndoorRouteApi } from './indoor-route-api'

describe('createIndoorRouteApi', () => {
  it('loads text, reports counts, and routes between State ids', async () => {
    const api = createIndoorRouteApi()
    const report = await api.load(readTwoStoreyFixture())
    expect(report.info).toMatchObject({ states: 10, edges: 8, storeys: 2, components: 2 })
    expect(report.repairCount).toBe(0)
    const answer = await api.route('R101', 'R102')
    expect(answer.path).toEqual(['R101', 'C1a', 'C1b', 'R102'])
  })

  it('hands out the network for drawing: States with storeys, edges with geometry', async () => {
    const api = createIndoorRouteApi()
    await api.load(readTwoStoreyFixture())
    const network = api.network()
    const r201 = network.stateIds.indexOf('R201')
    expect(network.stateNames[r201]).toBe('201')
    expect(network.storeys[network.stateStoreys[r201]!]?.label).toBe('2')
    expect(Array.from(network.positions.slice(r201 * 3, r201 * 3 + 3))).toEqual([0, 5, 4])
    expect(network.edgeGeometryStarts.at(-1)! * 3).toBe(network.edgeGeometry.length)
    const stair = network.edgeSourceIds.indexOf('T5')
    const points = network.edgeGeometryStarts[stair + 1]! - network.edgeGeometryStarts[stair]!
    expect(points).toBe(3)
  })

  it('lists every State as plain data: name, storey label and file position', async () => {
    const api = createIndoorRouteApi()
    await api.load(readRealFile(realFiles.fjkHaus))
    const states = api.listStates()
    expect(states).toHaveLength(14)
    expect(new Set(states.map((state) => state.storey))).toEqual(new Set(['1', '2', '3']))
    const r10 = states.find((state) => state.stateId === 'R10')
    expect(r10).toMatchObject({ name: '004', storey: '1' })
    expect(r10?.position?.[0]).toBeCloseTo(445541.3208, 4)
    expect(r10?.position?.[2]).toBeCloseTo(-2.02, 6)
    // Plain objects: what crosses the worker boundary survives JSON unchanged.
    expect(JSON.parse(JSON.stringify(states))).toEqual(states)
  })

  it('lists a State without a name or any position with nulls', async () => {
    const api = createIndoorRouteApi()
    await api.load(
      testGml({
        states: [
          { id: 'A', name: 'Hall', position: [0, 0, 0], connects: ['T1'] },
          { id: 'B', position: [4, 0, 0], connects: ['T1'] },
          { id: 'Lost' },
        ],
        transitions: [
          {
            id: 'T1',
            connects: ['A', 'B'],
            points: [
              [0, 0, 0],
              [4, 0, 0],
            ],
          },
        ],
      }),
    )
    expect(api.listStates()).toEqual([
      { stateId: 'A', name: 'Hall', storey: '1', position: [0, 0, 0] },
      { stateId: 'B', name: null, storey: '1', position: [4, 0, 0] },
      { stateId: 'Lost', name: null, storey: '1', position: null },
    ])
  })

  it('loads an ArrayBuffer and reports throttled progress ending at the full size', async () => {
    const api = createIndoorRouteApi()
    const bytes = readRealFile(realFiles.pnu)
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
    const progress: GmlParseProgress[] = []
    const report = await api.load(buffer as ArrayBuffer, (step) => progress.push(step))
    expect(report.sizeRead).toBe(bytes.byteLength)
    expect(progress.at(-1)).toEqual({
      read: bytes.byteLength,
      total: bytes.byteLength,
      unit: 'bytes',
    })
    expect(api.info().states).toBe(80)
  })

  it('snaps points to the nearest connected State, per storey when asked', async () => {
    const api = createIndoorRouteApi()
    await api.load(readTwoStoreyFixture())
    // (5, 5) is the isolated storage room X201: it is skipped for the nearest connected State.
    expect(api.nearestState([5, 5, 4])?.stateId).not.toBe('X201')
    // A point picked on the storey-2 floor plan at z = 0 still lands on storey 2.
    expect(api.nearestState([0.2, 4.8, 0], '2')).toMatchObject({ stateId: 'R201', storey: '2' })
    expect(api.nearestState([0.2, 4.8, 0])).toMatchObject({ stateId: 'R101', storey: '1' })
    const answer = await api.route({ point: [0.1, 5.2, 0], storey: '1' }, { point: [0, 5, 4] })
    expect(answer.path?.[0]).toBe('R101')
    expect(answer.path?.at(-1)).toBe('R201')
    expect(answer).toMatchObject({
      snapped: { from: { stateId: 'R101' }, to: { stateId: 'R201' } },
    })
    expect(() => api.nearestState([0, 0, 0], '7')).toThrow(
      expect.objectContaining({ code: 'gml.invalidQuery' }),
    )
  })

  it('refuses queries before a load and after dispose with gml.notLoaded', async () => {
    const api = createIndoorRouteApi()
    await expect(api.route('A', 'B')).rejects.toMatchObject({ code: 'gml.notLoaded' })
    await api.load(readTwoStoreyFixture())
    api.dispose()
    expect(() => api.info()).toThrow(expect.objectContaining({ code: 'gml.notLoaded' }))
    expect(() => api.listStates()).toThrow(expect.objectContaining({ code: 'gml.notLoaded' }))
  })

  it('keeps the previous network when a new file fails to load', async () => {
    const api = createIndoorRouteApi()
    await api.load(readTwoStoreyFixture())
    await expect(api.load(readRealFile(realFiles.noDualGraph))).rejects.toMatchObject({
      code: 'gml.noNavigationNetwork',
    })
    expect(api.info().states).toBe(10)
  })

  it('lets the latest interactive query win over older pending ones', async () => {
    const api = createIndoorRouteApi()
    await api.load(readTwoStoreyFixture())
    const first = api.routeInteractive('R101', 'R102')
    const second = api.routeInteractive('R101', 'C1b')
    const third = api.routeInteractive('R101', 'R201')
    expect(await first).toBe(STALE)
    expect(await second).toBe(STALE)
    const latest = await third
    expect(latest !== STALE && latest.path?.at(-1)).toBe('R201')
    // Non-interactive queries are never dropped.
    const [a, b] = await Promise.all([api.route('R101', 'R102'), api.route('R101', 'C1b')])
    expect([a.path?.at(-1), b.path?.at(-1)]).toEqual(['R102', 'C1b'])
  })

  it('cancels a load in progress when disposed', async () => {
    const api = createIndoorRouteApi()
    const large = readRealFile(realFiles.pnu)
    const loading = api.load(large)
    api.dispose()
    await expect(loading).rejects.toMatchObject({ code: 'gml.aborted' })
  })
})
