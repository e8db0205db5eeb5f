import * as Comlink from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import duckUrl from '../sbm/fixtures/duck.sbm?url'
import fixtureUrl from '../sbm/fixtures/two-storeys.sbm?url'
import type { SbmDecodeWorkerApi } from '../sbm/sbm-decode.worker'
import { transferablesOf } from '../sbm/decoded-sbm'
import { createSbmObject } from '../sbm/sbm-three'
import type { BvhWorkerApi } from './bvh.worker'
import { STALE } from '../protocol/latest-wins'

/** The real module workers in real Chromium, started the way the engine starts them. */
const workers: Worker[] = []
afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate()
})

function startPickingWorker(): Comlink.Remote<BvhWorkerApi> {
  const worker = new Worker(new URL('./bvh.worker.ts', import.meta.url), { type: 'module' })
  workers.push(worker)
  return Comlink.wrap<BvhWorkerApi>(worker)
}

const fixtureHref = () => new URL(fixtureUrl, location.href).href
const fromAbove = {
  origin: [1, 10, 1] as [number, number, number],
  direction: [0, -1, 0] as [number, number, number],
}

describe('picking worker in Chromium', () => {
  it('loads an SBM by URL and picks the expected mesh, point and normal', async () => {
    const picking = startPickingWorker()
    const added = await picking.addSbm('building', fixtureHref())
    if (!added.ok) throw new Error(added.error.detail)
    expect(added.value.meshes.map((mesh) => mesh.name)).toEqual(['F1 slab', 'F2 slab', 'F1 column'])
    expect(added.value.triangleCount).toBe(36)

    const hit = await picking.raycast(fromAbove)
    const picked = added.value.meshes.find((mesh) => mesh.meshId === hit?.meshId)
    expect(picked?.name).toBe('F2 slab')
    expect(hit!.point[1]).toBeCloseTo(3.1, 5)
    expect(hit!.normal).toEqual([0, 1, 0])

    const side = await picking.raycast({ origin: [-10, 1.5, 0], direction: [1, 0, 0] })
    expect(added.value.meshes.find((mesh) => mesh.meshId === side?.meshId)?.name).toBe('F1 column')
    expect(await picking.raycast({ origin: [50, 10, 50], direction: [0, -1, 0] })).toBeNull()

    expect(await picking.removeModel('building')).toBe(3)
    expect(await picking.raycast(fromAbove)).toBeNull()
  })

  it('answers only the newest of a burst of hover requests', async () => {
    const picking = startPickingWorker()
    const bytes = await (await fetch(fixtureHref())).arrayBuffer()
    const added = await picking.addSbm('building', Comlink.transfer(bytes, [bytes]))
    expect(added.ok).toBe(true)
    expect(bytes.byteLength).toBe(0) // transferred, not copied
    const answers = await Promise.all([
      picking.hover(fromAbove),
      picking.hover(fromAbove),
      picking.hover({ origin: [-2, 2, -2], direction: [0, -1, 0] }),
    ])
    // The newest request is always answered. Whether the older two were already in the worker's
    // queue when the first ran depends on thread scheduling (latest-wins.test.ts pins the gate
    // itself down), so each of them is either dropped or answered correctly — never wrong.
    expect(typeof answers[2] === 'object' && answers[2]?.point[1]).toBeCloseTo(0.1, 5)
    for (const answer of answers.slice(0, 2)) {
      if (answer !== STALE) expect(answer?.point[1]).toBeCloseTo(3.1, 5)
    }
  })

  it('refuses a file that is not SBM with the user-facing message', async () => {
    const picking = startPickingWorker()
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).buffer
    const outcome = await picking.addSbm('broken', png)
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'sbm.invalid', message: 'Failed to load a model, not a valid SBM file!' },
    })
    // The dev server answers unknown paths with its HTML page, which is simply not an SBM; a
    // closed port is what a real download failure looks like.
    const unreachable = await picking.addSbm('missing', 'http://127.0.0.1:9/model.sbm')
    expect(unreachable).toMatchObject({ ok: false, error: { code: 'sbm.downloadFailed' } })
  })
})

describe('decode worker in Chromium', () => {
  it('decodes once off the main thread, feeding three.js and the picking worker by transfer', async () => {
    const worker = new Worker(new URL('../sbm/sbm-decode.worker.ts', import.meta.url), {
      type: 'module',
    })
    workers.push(worker)
    const decoder = Comlink.wrap<SbmDecodeWorkerApi>(worker)
    const outcome = await decoder.decode(fixtureHref(), { forPicking: true })
    if (!outcome.ok) throw new Error(outcome.error.detail)
    expect(outcome.value.model.stats).toMatchObject({ storedBvhCount: 2, builtBvhCount: 0 })

    const model = createSbmObject(outcome.value.model, { imageBitmaps: outcome.value.imageBitmaps })
    expect(model.root.getObjectByName('F2 slab')).toBeDefined()
    // The BVHs went to the picking worker alone, not copied: the main thread never raycasts.
    expect(outcome.value.model.bvhRoots).toHaveLength(0)
    expect(model.bvhs).toHaveLength(0)

    const copy = outcome.value.pickingCopy!
    const picking = startPickingWorker()
    const added = await picking.addDecoded(
      'building',
      Comlink.transfer(copy, transferablesOf(copy)),
    )
    expect(copy.positions.byteLength).toBe(0) // moved to the picking worker, not copied
    expect(copy.bvhRoots.every((root) => root.byteLength === 0)).toBe(true)
    expect(outcome.value.model.positions.byteLength).toBeGreaterThan(0) // the main thread keeps its own
    const hit = await picking.raycast(fromAbove)
    expect(added.meshes.find((mesh) => mesh.meshId === hit?.meshId)?.name).toBe('F2 slab')
    model.dispose()
  })

  it('decodes embedded textures to ImageBitmaps in the worker and attaches them', async () => {
    const worker = new Worker(new URL('../sbm/sbm-decode.worker.ts', import.meta.url), {
      type: 'module',
    })
    workers.push(worker)
    const decoder = Comlink.wrap<SbmDecodeWorkerApi>(worker)
    const outcome = await decoder.decode(new URL(duckUrl, location.href).href)
    if (!outcome.ok) throw new Error(outcome.error.detail)
    expect(outcome.value.imageBitmaps[0]).toBeInstanceOf(ImageBitmap)
    const model = createSbmObject(outcome.value.model, { imageBitmaps: outcome.value.imageBitmaps })
    await model.texturesReady
    const map = (model.materials[0] as import('three').MeshStandardMaterial).map!
    expect(map.image).toBe(outcome.value.imageBitmaps[0])
    const bitmap = map.image as ImageBitmap
    expect([bitmap.width, bitmap.height]).toEqual([512, 512])
    model.dispose()
  })
})
