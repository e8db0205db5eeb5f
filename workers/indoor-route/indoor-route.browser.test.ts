import * as Comlink from 'comlink'
import { describe, expect, it } from 'vitest'
import twoStoreyGml from './fixtures/two-storey.gml?raw'
import { STALE } from '../protocol/latest-wins'
import type { GmlParseProgress } from './gml-parser'
import type { IndoorRouteWorkerApi } from './indoor-route.worker'

function startWorker() {
  const worker = new Worker(new URL('./indoor-route.worker.ts', import.meta.url), {
    type: 'module',
  })
  const api = Comlink.wrap<IndoorRouteWorkerApi>(worker)
  return {
    api,
    stop() {
      api[Comlink.releaseProxy]()
      worker.terminate()
    },
  }
}

describe('indoor-route worker in a real browser', () => {
  it('loads a transferred file with progress and answers routes with their polyline', async () => {
    const { api, stop } = startWorker()
    try {
      const bytes = new TextEncoder().encode(twoStoreyGml)
      const progress: GmlParseProgress[] = []
      const report = await api.load(
        Comlink.transfer(bytes.buffer, [bytes.buffer]),
        Comlink.proxy((step: GmlParseProgress) => {
          progress.push(step)
        }),
      )
      expect(report.info).toMatchObject({ states: 10, edges: 8, storeys: 2 })
      expect(bytes.byteLength).toBe(0)

      const route = await api.route('R101', 'R201')
      expect(route.path).toEqual(['R101', 'C1a', 'C1b', 'ST1', 'ST2', 'C2b', 'C2a', 'R201'])
      if (!route.path || !('polyline' in route)) throw new Error('expected a route')
      expect(route.polyline).toBeInstanceOf(Float64Array)
      expect(Array.from(route.polyline.slice(0, 3))).toEqual([0, 5, 0])
      expect(route.floorChanges).toEqual([
        { index: 4, fromStateId: 'ST1', toStateId: 'ST2', fromStorey: '1', toStorey: '2' },
      ])
      expect(await api.route('R101', 'X201')).toMatchObject({ path: null, reason: 'unreachable' })
      expect(await api.nearestState([0.3, 4.7, 0], '2')).toMatchObject({ stateId: 'R201' })
      // The last progress report reached the full size (it may be the only one: the file is small).
      await expect.poll(() => progress.at(-1)?.read).toBe(twoStoreyGml.length)
    } finally {
      stop()
    }
  })

  it('keeps the gml.* error code across the worker boundary', async () => {
    const { api, stop } = startWorker()
    try {
      await expect(api.route('R101', 'R201')).rejects.toMatchObject({ code: 'gml.notLoaded' })
      await expect(api.load('{"not":"xml"}')).rejects.toMatchObject({ code: 'gml.notXml' })
      await api.load(twoStoreyGml)
      await expect(api.route('R101', 'nowhere')).rejects.toMatchObject({
        code: 'gml.unknownState',
        message: expect.stringContaining("'nowhere'"),
      })
    } finally {
      stop()
    }
  })

  it('answers the latest of a burst of interactive queries', async () => {
    const { api, stop } = startWorker()
    try {
      await api.load(twoStoreyGml)
      const targets = ['R102', 'C2a', 'ST2', 'R201']
      const answers = await Promise.all(
        targets.map((target) => api.routeInteractive('R101', target)),
      )
      answers.forEach((answer, index) => {
        if (answer === STALE) return
        expect(answer.path?.at(-1)).toBe(targets[index])
      })
      const latest = answers.at(-1)
      expect(latest !== STALE && latest?.path?.at(-1)).toBe('R201')
    } finally {
      stop()
    }
  })
})
