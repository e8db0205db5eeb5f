import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { MeshoptEncoder } from 'meshoptimizer/encoder'
import { TorusKnotGeometry } from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import { beforeAll, describe, expect, it } from 'vitest'
import { BvhEncoding, decodeBvhRoots, parseBvhChunk, validateBvhRoot } from './bvh-chunk'
import { encodeBvhChunk } from './bvh-chunk-write'
import { SbmError } from './sbm-error'

beforeAll(async () => {
  await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready])
})

function builtBvh() {
  const geometry = new TorusKnotGeometry(1, 0.3, 64, 16)
  const bvh = new MeshBVH(geometry)
  return { geometry, roots: MeshBVH.serialize(bvh).roots, triangleCount: geometry.index!.count / 3 }
}

function detailOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(SbmError)
    return (error as SbmError).detail
  }
  throw new Error('expected a refusal')
}

describe('BVH chunk', () => {
  it('round-trips roots bit for bit, compressed and raw', () => {
    const { roots, triangleCount } = builtBvh()
    for (const encoder of [MeshoptEncoder, undefined]) {
      const chunk = encodeBvhChunk(
        [{ meshIndex: 3, primitiveIndex: 1, triangleCount, roots }],
        encoder,
      )
      const [entry] = parseBvhChunk(chunk)
      expect(entry).toMatchObject({ meshIndex: 3, primitiveIndex: 1, triangleCount })
      expect(entry!.encoding).toBe(encoder ? BvhEncoding.meshopt : BvhEncoding.raw)
      const decoded = decodeBvhRoots(entry!, MeshoptDecoder)
      expect(decoded.map((root) => [...new Uint8Array(root)])).toEqual(
        roots.map((root) => [...new Uint8Array(root)]),
      )
    }
  })

  it('compresses the nodes to well under their raw size', () => {
    const { roots, triangleCount } = builtBvh()
    const raw = encodeBvhChunk([{ meshIndex: 0, primitiveIndex: 0, triangleCount, roots }])
    const compressed = encodeBvhChunk(
      [{ meshIndex: 0, primitiveIndex: 0, triangleCount, roots }],
      MeshoptEncoder,
    )
    expect(compressed.byteLength).toBeLessThan(raw.byteLength * 0.8)
  })

  it('refuses tables that do not fit their chunk or list a primitive twice', () => {
    const { roots, triangleCount } = builtBvh()
    const chunk = encodeBvhChunk([{ meshIndex: 0, primitiveIndex: 0, triangleCount, roots }])
    expect(detailOf(() => parseBvhChunk(chunk.subarray(0, chunk.byteLength - 64)))).toMatch(
      /past the end/,
    )
    const manyEntries = chunk.slice()
    new DataView(manyEntries.buffer).setUint32(4, 1_000_000, true)
    expect(detailOf(() => parseBvhChunk(manyEntries))).toMatch(/more than it can hold/)
    const twice = encodeBvhChunk([
      { meshIndex: 0, primitiveIndex: 0, triangleCount, roots },
      { meshIndex: 0, primitiveIndex: 0, triangleCount, roots },
    ])
    expect(detailOf(() => parseBvhChunk(twice))).toMatch(/two BVH entries/)
    const unknownLayout = chunk.slice()
    unknownLayout[0] = 7
    expect(detailOf(() => parseBvhChunk(unknownLayout))).toMatch(/layout 7/)
  })
})

describe('validateBvhRoot', () => {
  it('accepts what three-mesh-bvh builds and covers every triangle exactly once', () => {
    const { roots, triangleCount } = builtBvh()
    expect(() => validateBvhRoot(roots[0]!, triangleCount)).not.toThrow()
    // Every leaf's triangles together are exactly 0..triangleCount-1.
    const uint32 = new Uint32Array(roots[0]!)
    const uint16 = new Uint16Array(roots[0]!)
    const covered = new Uint8Array(triangleCount)
    for (let node = 0; node < roots[0]!.byteLength / 32; node++) {
      if (uint16[node * 16 + 15] !== 0xffff) continue
      for (let at = 0; at < uint16[node * 16 + 14]!; at++) covered[uint32[node * 8 + 6]! + at]!++
    }
    expect(covered.every((count) => count === 1)).toBe(true)
  })

  it('refuses a tree pointing a child backwards (which would make a raycast loop)', () => {
    const { roots, triangleCount } = builtBvh()
    const root = roots[0]!.slice(0)
    new Uint32Array(root)[6] = 0
    expect(detailOf(() => validateBvhRoot(root, triangleCount))).toMatch(/outside its span/)
  })

  it('refuses leaves addressing triangles the geometry does not have', () => {
    const { roots, triangleCount } = builtBvh()
    expect(detailOf(() => validateBvhRoot(roots[0]!, triangleCount - 1))).toMatch(/does not have/)
  })

  it('refuses a bad split axis and a ragged node buffer', () => {
    const { roots, triangleCount } = builtBvh()
    const root = roots[0]!.slice(0)
    new Uint32Array(root)[7] = 9
    expect(detailOf(() => validateBvhRoot(root, triangleCount))).toMatch(/split axis/)
    expect(detailOf(() => validateBvhRoot(new ArrayBuffer(40), triangleCount))).toMatch(
      /whole number/,
    )
  })
})
