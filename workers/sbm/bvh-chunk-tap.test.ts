import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { BVH_CHUNK_TYPE } from './bvh-chunk'
import { BvhChunkTap } from './bvh-chunk-tap'
import { parseGlb, writeGlb } from './glb'
import type { PostedBytesMessage } from './posted-bytes'

const fixture = async () =>
  new Uint8Array(await readFile(new URL('./fixtures/two-storeys.sbm', import.meta.url)))

/** Feeds `file` to a tap `chunkBytes` at a time; what it opened and posted. */
function tapped(file: Uint8Array, chunkBytes: number) {
  const opened: number[] = []
  const messages: PostedBytesMessage[] = []
  const tap = new BvhChunkTap(file.byteLength, (tailByteLength) => {
    opened.push(tailByteLength)
    return {
      postMessage: (message: PostedBytesMessage) => messages.push(message),
      close: () => undefined,
    } as unknown as MessagePort
  })
  for (let at = 0; at < file.byteLength; at += chunkBytes) {
    tap.take(file.slice(at, at + chunkBytes))
  }
  tap.end()
  const chunks = messages.flatMap((message) =>
    message.kind === 'chunk' ? [new Uint8Array(message.bytes)] : [],
  )
  const tail = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    tail.set(chunk, at)
    at += chunk.byteLength
  }
  return { opened, tail, last: messages.at(-1) }
}

describe('BvhChunkTap', () => {
  it('copies the file from the BVH chunk header to its end, however the bytes are split', async () => {
    const file = await fixture()
    const container = parseGlb(file)
    const bvh = container.extraChunks.find((chunk) => chunk.type === BVH_CHUNK_TYPE)!
    const tailStart = bvh.data.byteOffset - file.byteOffset - 8
    for (const chunkBytes of [1, 7, 13, 4096, file.byteLength]) {
      const { opened, tail, last } = tapped(file, chunkBytes)
      expect(opened).toEqual([file.byteLength - tailStart])
      expect(tail).toEqual(file.subarray(tailStart))
      expect(new DataView(tail.buffer).getUint32(4, true)).toBe(BVH_CHUNK_TYPE)
      expect(last).toEqual({ kind: 'end' })
    }
  })

  it('opens nothing for a GLB that ends with its BIN chunk, or bytes that are not a GLB', async () => {
    const container = parseGlb(await fixture())
    const withoutBvh = writeGlb({ json: container.json, bin: container.bin, extraChunks: [] })
    expect(tapped(withoutBvh, 100).opened).toEqual([])
    expect(tapped(new Uint8Array(4096).fill(7), 100).opened).toEqual([])
  })
})
