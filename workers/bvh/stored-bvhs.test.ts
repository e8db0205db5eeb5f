import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { BVH_CHUNK_TYPE } from '../sbm/bvh-chunk'
import { decodeSbm } from '../sbm/decode-sbm'
import { takeForPicking } from '../sbm/decoded-sbm'
import { parseGlb, writeGlb } from '../sbm/glb'
import type { PostedModelSource } from '../sbm/posted-bytes'
import { NOT_VALID_SBM_MESSAGE } from '../sbm/sbm-error'
import { createBvhApi } from './bvh-api'

const fixture = async () =>
  new Uint8Array(await readFile(new URL('../sbm/fixtures/two-storeys.sbm', import.meta.url)))

/** The file's tail from its BVH chunk header on, posted as the downloading thread posts it. */
function postedTail(file: Uint8Array): PostedModelSource {
  const bvh = parseGlb(file).extraChunks.find((chunk) => chunk.type === BVH_CHUNK_TYPE)!
  const tail = file.slice(bvh.data.byteOffset - file.byteOffset - 8)
  const byteLength = tail.byteLength
  const channel = new MessageChannel()
  channel.port1.postMessage({ kind: 'chunk', bytes: tail.buffer }, [tail.buffer])
  channel.port1.postMessage({ kind: 'end' })
  return { port: channel.port2, byteLength }
}

/** A picking copy decoded with the stored BVHs left to the picking worker. */
async function copyWithoutStoredBvhs(file: Uint8Array) {
  return takeForPicking(
    await decodeSbm(file.slice(), { copyGeometryForPicking: true, storedBvhsElsewhere: true }),
  )
}

describe('stored BVHs decoded by the picking worker', () => {
  it('picks what the BVHs decoded with the geometry pick', async () => {
    const file = await fixture()
    const picking = createBvhApi()
    picking.decodeStoredBvhs('house', postedTail(file))
    const added = await picking.addDecoded('house', await copyWithoutStoredBvhs(file))
    const reference = createBvhApi()
    const whole = takeForPicking(await decodeSbm(file.slice(), { copyGeometryForPicking: true }))
    expect(added.triangleCount).toBe((await reference.addDecoded('house', whole)).triangleCount)
    expect(added.timings?.['storedBvhs.streamedBvhs']).toBeGreaterThan(0)
    for (const x of [-3, -1, 0, 1, 3]) {
      const ray = {
        origin: [x, 50, 0.5] as [number, number, number],
        direction: [0, -1, 0] as [number, number, number],
      }
      expect(picking.raycast(ray)).toEqual(reference.raycast(ray))
    }
  })

  it('refuses the file when a stored tree is not sound, as the decode worker did', async () => {
    const container = parseGlb(await fixture())
    const bvh = container.extraChunks.find((chunk) => chunk.type === BVH_CHUNK_TYPE)!.data.slice()
    bvh.fill(0xab, bvh.byteLength - 40)
    const file = writeGlb({
      json: container.json,
      bin: container.bin,
      extraChunks: [{ type: BVH_CHUNK_TYPE, data: bvh }],
    })
    const picking = createBvhApi()
    picking.decodeStoredBvhs('house', postedTail(file))
    await expect(picking.addDecoded('house', await copyWithoutStoredBvhs(file))).rejects.toThrow(
      NOT_VALID_SBM_MESSAGE,
    )
  })

  it('builds the BVH of a stored primitive whose tail never came, so it is still pickable', async () => {
    const file = await fixture()
    const picking = createBvhApi()
    const added = await picking.addDecoded('house', await copyWithoutStoredBvhs(file))
    const reference = createBvhApi()
    const whole = takeForPicking(await decodeSbm(file.slice(), { copyGeometryForPicking: true }))
    expect(added.triangleCount).toBe((await reference.addDecoded('house', whole)).triangleCount)
    const ray = {
      origin: [0, 50, 0.5] as [number, number, number],
      direction: [0, -1, 0] as [number, number, number],
    }
    expect(picking.raycast(ray)?.point).toEqual(reference.raycast(ray)?.point)
  })
})
