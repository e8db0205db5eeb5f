import { readFile } from 'node:fs/promises'
import { BufferAttribute, BufferGeometry, DoubleSide, Matrix4, Ray, Vector3 } from 'three'
import { MeshBVH } from 'three-mesh-bvh'
import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { describe, expect, it, vi } from 'vitest'
import { ArrivingBytes } from './arriving-bytes'
import { BVH_CHUNK_TYPE } from './bvh-chunk'
import { decodeSbm } from './decode-sbm'
import { joinSplitDecode, takeForPicking, transferablesOf } from './decoded-sbm'
import { deserializeStoredBvh } from './deserialize-bvh'
import { parseGlb, writeGlb } from './glb'
import { readSbm } from './read-sbm'
import { NOT_VALID_SBM_MESSAGE, SbmDownloadError, SbmError } from './sbm-error'
import { describeSbm } from './sbm-info'

const fixture = async () =>
  new Uint8Array(await readFile(new URL('./fixtures/two-storeys.sbm', import.meta.url)))
const sharedData = (path: string) =>
  readFile(new URL(`../../../shared/data/${path}`, import.meta.url)).then((b) => new Uint8Array(b))

/**
 * The file's bytes arriving as a download does, `chunkBytes` at a time with a timer turn between
 * chunks (so the decode runs while they arrive); `holdLast` keeps the last chunk until released.
 */
function arriving(
  bytes: Uint8Array,
  chunkBytes = 4096,
  options: { holdLast?: Promise<void> } = {},
) {
  const target = new ArrivingBytes(bytes.byteLength)
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (at >= bytes.byteLength) {
        controller.close()
        return
      }
      const end = Math.min(at + chunkBytes, bytes.byteLength)
      if (end === bytes.byteLength) await options.holdLast
      controller.enqueue(bytes.slice(at, end))
      at = end
    },
  })
  void target.fill(stream)
  return target
}

async function refusedDetail(input: Uint8Array | ArrivingBytes): Promise<string> {
  try {
    await decodeSbm(input)
  } catch (error) {
    expect(error).toBeInstanceOf(SbmError)
    expect((error as Error).message).toBe(NOT_VALID_SBM_MESSAGE)
    return (error as SbmError).detail
  }
  throw new Error('expected the file to be refused')
}

/** Why a file is refused, checking that it is refused alike while its bytes are still arriving. */
async function refusal(bytes: Uint8Array): Promise<string> {
  const detail = await refusedDetail(bytes)
  if (bytes.byteLength > 0) {
    const chunkBytes = Math.max(64, Math.ceil(bytes.byteLength / 40))
    expect(await refusedDetail(arriving(bytes, chunkBytes))).toBe(detail)
  }
  return detail
}

/** Re-assembles the fixture with its JSON, BIN or BVH chunk changed by `edit`. */
async function tampered(
  edit: (parts: { json: Record<string, unknown>; bin: Uint8Array; bvh: Uint8Array }) => void,
): Promise<Uint8Array> {
  const container = parseGlb(await fixture())
  const parts = {
    json: structuredClone(container.json),
    bin: container.bin!.slice(),
    bvh: container.extraChunks.find((chunk) => chunk.type === BVH_CHUNK_TYPE)!.data.slice(),
  }
  edit(parts)
  return writeGlb({
    json: parts.json,
    bin: parts.bin,
    extraChunks: parts.bvh.byteLength ? [{ type: BVH_CHUNK_TYPE, data: parts.bvh }] : [],
  })
}

describe('decodeSbm on the converter-made fixture', () => {
  it('reads the marker, floors and scene, using every stored BVH and building none', async () => {
    const decoded = await decodeSbm(await fixture())
    expect(decoded.header).toMatchObject({ version: 1, role: 'floor', units: 'm', upAxis: 'Y' })
    expect(decoded.header.floors).toEqual([
      { id: 'F1', name: '1F', elevationMeters: 0 },
      { id: 'F2', name: '2F', elevationMeters: 3 },
    ])
    expect(decoded.stats).toEqual({
      triangleCount: 24,
      vertexCount: 48,
      storedBvhCount: 2,
      builtBvhCount: 0,
      skippedPrimitiveCount: 0,
    })
    expect(decoded.meshes.map((mesh) => mesh.name)).toEqual(['slab', 'column'])
    expect(decoded.instances.map((instance) => [instance.name, instance.matrixWorld[13]])).toEqual([
      ['F1 slab', 0],
      ['F2 slab', 3],
      ['F1 column', 1.5],
    ])
    expect(decoded.materials[0]).toMatchObject({ name: 'concrete', alphaMode: 'OPAQUE' })
    const slab = decoded.primitives[0]!
    expect(slab.boundingBox.map((value) => Math.round(value * 100) / 100)).toEqual([
      -5, -0.1, -5, 5, 0.1, 5,
    ])
    expect(slab.boundingSphere[3]).toBeCloseTo(Math.hypot(5, 0.1, 5), 5)
  })

  it('packs geometry into a handful of distinct transferable buffers', async () => {
    const decoded = await decodeSbm(await fixture())
    const buffers = transferablesOf(decoded)
    expect(new Set(buffers).size).toBe(buffers.length)
    expect(decoded.positions.length).toBe(decoded.stats.vertexCount * 3)
    expect(decoded.normals!.length).toBe(decoded.stats.vertexCount * 3)
    expect(decoded.indices.length).toBe(decoded.stats.triangleCount * 3)
  })

  it('gives a stored BVH that raycasts exactly like one built from scratch', async () => {
    const decoded = await decodeSbm(await fixture())
    const column = decoded.primitives[1]!
    const positions = decoded.positions.subarray(
      column.vertexOffset * 3,
      (column.vertexOffset + column.vertexCount) * 3,
    )
    const indices = decoded.indices.subarray(
      column.indexOffset,
      column.indexOffset + column.indexCount,
    )
    const storedGeometry = new BufferGeometry()
    storedGeometry.setAttribute('position', new BufferAttribute(positions, 3))
    storedGeometry.setIndex(new BufferAttribute(indices, 1))
    const stored = deserializeStoredBvh(
      column.bvhRootIndices.map((index) => decoded.bvhRoots[index]!),
      indices,
      storedGeometry,
    )
    const fresh = new BufferGeometry()
    fresh.setAttribute('position', new BufferAttribute(positions.slice(), 3))
    fresh.setIndex(new BufferAttribute(indices.slice(), 1))
    const built = new MeshBVH(fresh)
    for (const [origin, direction] of [
      [new Vector3(-5, 0.3, 0.1), new Vector3(1, 0, 0)],
      [new Vector3(0.1, 5, 0.05), new Vector3(0, -1, 0)],
      [new Vector3(2, 1, 2), new Vector3(-1, -0.2, -1).normalize()],
    ] as const) {
      const a = stored.raycastFirst(new Ray(origin, direction), DoubleSide)
      const b = built.raycastFirst(new Ray(origin, direction), DoubleSide)
      expect(a?.distance).toBeCloseTo(b!.distance, 6)
    }
  })

  it('builds a BVH only for primitives that have none stored', async () => {
    const withoutBvh = await tampered((parts) => {
      parts.bvh = new Uint8Array(0)
    })
    const decoded = await decodeSbm(withoutBvh)
    expect(decoded.stats.storedBvhCount).toBe(0)
    expect(decoded.stats.builtBvhCount).toBe(2)
    expect(decoded.primitives.every((primitive) => !primitive.isBvhStored)).toBe(true)
    const slab = decoded.primitives[0]!
    expect(slab.boundingBox.map((value) => Math.round(value * 100) / 100)).toEqual([
      -5, -0.1, -5, 5, 0.1, 5,
    ])
  })

  it('decodes for picking without normals, uvs or images', async () => {
    const decoded = await decodeSbm(await fixture(), { purpose: 'picking' })
    expect(decoded.normals).toBeNull()
    expect(decoded.uvs).toBeNull()
    expect(decoded.materials).toEqual([])
    expect(decoded.stats.storedBvhCount).toBe(2)
  })
})

describe('decodeSbm refuses what is not a valid SBM', () => {
  it('refuses empty, truncated and renamed files', async () => {
    const bytes = await fixture()
    expect(await refusal(new Uint8Array(0))).toMatch(/empty/)
    expect(await refusal(bytes.subarray(0, bytes.byteLength - 100))).toMatch(/declares/)
    expect(await refusal(bytes.subarray(0, 16))).toMatch(/too short|declares/)
    const png = await sharedData('gltf/BoxTextured/separate/CesiumLogoFlat.png')
    expect(await refusal(png)).toMatch(/magic/)
  })

  it('refuses a plain GLB (no marker) and glTF 1.0 binaries', async () => {
    expect(await refusal(await sharedData('gltf/Duck/Duck.glb'))).toMatch(/no asset.extras.sbm/)
    expect(await refusal(await sharedData('gltf/edge-cases/glTF1.0-BoxTextured.glb'))).toMatch(
      /version 1/,
    )
  })

  it('refuses a GLB whose chunk lengths lie', async () => {
    const bytes = (await fixture()).slice()
    const view = new DataView(bytes.buffer)
    const jsonLength = view.getUint32(12, true)
    view.setUint32(20 + jsonLength, 0x7fff_fff0, true)
    expect(await refusal(bytes)).toMatch(/declares 2147483632 bytes/)
  })

  it('refuses a marker with an unknown version or role, or malformed floors', async () => {
    const withMarker = (sbm: Record<string, unknown>) =>
      tampered((parts) => {
        const asset = parts.json.asset as { extras: { sbm: Record<string, unknown> } }
        asset.extras.sbm = { ...asset.extras.sbm, ...sbm }
      })
    expect(await refusal(await withMarker({ version: 2 }))).toMatch(/SBM version 2/)
    expect(await refusal(await withMarker({ role: 'roof' }))).toMatch(/role roof/)
    expect(await refusal(await withMarker({ floors: [{ id: 'F1' }] }))).toMatch(/floors\[0\]/)
  })

  it('refuses a BVH that belongs to other geometry or is not a sound tree', async () => {
    const otherCount = await tampered((parts) => {
      new DataView(parts.bvh.buffer).setUint32(8 + 8, 13, true)
    })
    expect(await refusal(otherCount)).toMatch(/covers other geometry/)
    const orphan = await tampered((parts) => {
      new DataView(parts.bvh.buffer).setUint32(8, 7, true)
    })
    expect(await refusal(orphan)).toMatch(/do not exist/)
    const garbage = await tampered((parts) => {
      const dataStart = parts.bvh.byteLength - 40
      parts.bvh.fill(0xab, dataStart)
    })
    expect(await refusal(garbage)).toMatch(/BVH/)
  })

  it('refuses damaged geometry: indices past the vertices, views past the BIN, external buffers', async () => {
    const outOfRange = await tampered((parts) => {
      const accessors = parts.json.accessors as { count: number; type: string }[]
      const position = accessors.find((accessor) => accessor.type === 'VEC3')!
      position.count = 3
    })
    expect(await refusal(outOfRange)).toMatch(/indexes vertex|past the end|does not decode/)
    const pastBin = await tampered((parts) => {
      const views = parts.json.bufferViews as {
        extensions?: { EXT_meshopt_compression?: { byteOffset?: number } }
      }[]
      views[0]!.extensions!.EXT_meshopt_compression!.byteOffset = 1 << 20
    })
    expect(await refusal(pastBin)).toMatch(/outside the BIN chunk/)
    const external = await tampered((parts) => {
      ;(parts.json.buffers as { uri?: string }[])[0]!.uri = 'https://example.com/steal.bin'
    })
    expect(await refusal(external)).toMatch(/outside data/)
    const bomb = await tampered((parts) => {
      const views = parts.json.bufferViews as {
        extensions?: { EXT_meshopt_compression?: { count: number } }
      }[]
      views[0]!.extensions!.EXT_meshopt_compression!.count = 2 ** 31
    })
    expect(await refusal(bomb)).toMatch(/would decode to/)
  })

  it('refuses a node graph with a cycle', async () => {
    const cyclic = await tampered((parts) => {
      const nodes = parts.json.nodes as { children?: number[] }[]
      nodes[0]!.children = [1]
      nodes[1]!.children = [0]
    })
    expect(await refusal(cyclic)).toMatch(/reached twice/)
  })
})

describe('readSbm and describeSbm', () => {
  it('describe meshes, triangles, stored BVHs, role and floors without decoding geometry', async () => {
    const bytes = await fixture()
    expect(readSbm(bytes).bvhEntries).toHaveLength(2)
    expect(describeSbm(bytes)).toMatchObject({
      role: 'floor',
      floors: [
        { id: 'F1', name: '1F', elevationMeters: 0 },
        { id: 'F2', name: '2F', elevationMeters: 3 },
      ],
      meshCount: 2,
      triangleCount: 24,
      meshesWithStoredBvh: 2,
      isMeshoptCompressed: true,
      meshes: [
        { name: 'slab', triangleCount: 12, hasStoredBvh: true },
        { name: 'column', triangleCount: 12, hasStoredBvh: true },
      ],
    })
  })

  it('refuses accessors that claim more elements than their buffer view holds', async () => {
    const lying = await tampered((parts) => {
      const meshes = parts.json.meshes as { primitives: { indices: number }[] }[]
      const accessors = parts.json.accessors as { count: number }[]
      accessors[meshes[0]!.primitives[0]!.indices]!.count = 2_000_000_000
      parts.bvh = new Uint8Array(0)
    })
    expect(() => describeSbm(lying)).toThrow(NOT_VALID_SBM_MESSAGE)
    expect(await refusal(lying)).toMatch(/declares 2000000000 elements/)
    const offset = await tampered((parts) => {
      const accessors = parts.json.accessors as { byteOffset?: number }[]
      accessors[0]!.byteOffset = 1 << 24
    })
    expect(() => readSbm(offset)).toThrow(SbmError)
    const viewless = await tampered((parts) => {
      const accessors = parts.json.accessors as { bufferView?: number }[]
      delete accessors[0]!.bufferView
    })
    expect(() => readSbm(viewless)).toThrow(SbmError)
    const viewPastBuffer = await tampered((parts) => {
      const views = parts.json.bufferViews as { byteLength: number }[]
      views.at(-1)!.byteLength += 1 << 20
    })
    expect(() => readSbm(viewPastBuffer)).toThrow(SbmError)
  })

  it('reports meshes without a stored BVH', async () => {
    const withoutBvh = await tampered((parts) => {
      parts.bvh = new Uint8Array(0)
    })
    const info = describeSbm(withoutBvh)
    expect(info.meshesWithStoredBvh).toBe(0)
    expect(info.meshes.map((mesh) => mesh.hasStoredBvh)).toEqual([false, false])
  })

  it('keeps world placement: the F2 slab sits 3 m above the F1 slab', async () => {
    const decoded = await decodeSbm(await fixture())
    const [f1, f2] = decoded.instances
    const lift = new Vector3().setFromMatrixPosition(new Matrix4().fromArray(f2!.matrixWorld))
    const base = new Vector3().setFromMatrixPosition(new Matrix4().fromArray(f1!.matrixWorld))
    expect(lift.y - base.y).toBe(3)
  })
})

describe('decodeSbm on a file still arriving', () => {
  const withoutTimings = ({
    timings: _timings,
    ...decoded
  }: Awaited<ReturnType<typeof decodeSbm>>) => decoded

  it('gives exactly what the whole file gives, for rendering and for picking', async () => {
    const duck = new Uint8Array(await readFile(new URL('./fixtures/duck.sbm', import.meta.url)))
    for (const [bytes, chunkSizes] of [
      [await fixture(), [13, 256, 1 << 20]],
      [duck, [4096]],
    ] as const) {
      for (const purpose of ['render', 'picking'] as const) {
        const whole = await decodeSbm(bytes, { purpose })
        for (const chunkBytes of chunkSizes) {
          const streamed = await decodeSbm(arriving(bytes, chunkBytes), { purpose })
          expect(withoutTimings(streamed)).toEqual(withoutTimings(whole))
          // Views and stored BVHs were decoded on the way, not after the last byte.
          expect(streamed.timings.streamedViews).toBeGreaterThanOrEqual(0)
          expect(streamed.timings.streamedBvhs).toBeGreaterThanOrEqual(0)
        }
      }
    }
  })

  it('decodes the BIN views before the last byte has arrived', async () => {
    const bytes = await fixture()
    let releaseLast = () => {}
    const holdLast = new Promise<void>((resolve) => (releaseLast = resolve))
    const decodes = vi.spyOn(MeshoptDecoder, 'decodeGltfBuffer')
    try {
      const decoding = decodeSbm(arriving(bytes, 256, { holdLast }))
      await vi.waitFor(() => expect(decodes).toHaveBeenCalled())
      releaseLast()
      const decoded = await decoding
      expect(decoded.stats.triangleCount).toBe(24)
      expect(decoded.timings.streamedViews).toBeGreaterThanOrEqual(0)
    } finally {
      decodes.mockRestore()
    }
  })

  it('copies positions and indices for picking on the way, as they are at the end', async () => {
    const withoutBvh = await tampered((parts) => {
      parts.bvh = new Uint8Array(0)
    })
    // With stored BVHs the early copies stand; with BVHs built here (indices reordered after
    // the copy) they are made again.
    for (const bytes of [await fixture(), withoutBvh]) {
      for (const input of [bytes, arriving(bytes, 64)]) {
        const decoded = await decodeSbm(input, { copyGeometryForPicking: true })
        const copy = decoded.pickingGeometry!
        expect(copy.positions).toEqual(decoded.positions)
        expect(copy.indices).toEqual(decoded.indices)
        expect(copy.positions.buffer).not.toBe(decoded.positions.buffer)
        const forPicking = takeForPicking(decoded)
        expect(forPicking.positions).toBe(copy.positions)
        expect(forPicking.indices).toBe(copy.indices)
        expect(decoded.pickingGeometry).toBeUndefined()
      }
    }
  })

  it('decodes for drawing alone, without BVHs, what the full decode draws', async () => {
    // The picking worker decodes its own share of the same bytes (model-download.ts); the
    // drawing decode then skips the BVHs, and each box is its vertices' box.
    const withoutBvh = await tampered((parts) => {
      parts.bvh = new Uint8Array(0)
    })
    for (const bytes of [await fixture(), withoutBvh]) {
      const full = await decodeSbm(bytes)
      for (const input of [bytes, arriving(bytes, 64)]) {
        const drawing = await decodeSbm(input, {
          withoutBvhs: true,
          copyGeometryForPicking: true,
        })
        expect(drawing.bvhRoots).toEqual([])
        expect(drawing.pickingGeometry).toBeUndefined()
        expect(drawing.positions).toEqual(full.positions)
        expect(drawing.normals).toEqual(full.normals)
        expect(drawing.stats).toEqual(full.stats)
        expect(drawing.timings.streamedBvhs ?? 0).toBe(0)
        drawing.primitives.forEach((primitive, index) => {
          const fromBvh = full.primitives[index]!
          expect(primitive.isBvhStored).toBe(fromBvh.isBvhStored)
          expect(primitive.bvhRootIndices).toEqual([])
          for (const [axis, value] of primitive.boundingBox.entries()) {
            expect(value).toBeCloseTo(fromBvh.boundingBox[axis]!, 5)
          }
          for (const [axis, value] of primitive.boundingSphere.entries()) {
            expect(value).toBeCloseTo(fromBvh.boundingSphere[axis]!, 5)
          }
          // indices as stored (a BVH built by the full decode reorders its primitive's)
          if (fromBvh.isBvhStored) {
            const range = (decoded: typeof full) =>
              decoded.indices.subarray(
                primitive.indexOffset,
                primitive.indexOffset + primitive.indexCount,
              )
            expect(range(drawing)).toEqual(range(full))
          }
        })
      }
    }
  })

  it('rejects with a download error when the bytes stop short or the stream fails', async () => {
    const bytes = await fixture()
    const short = new ArrivingBytes(bytes.byteLength)
    void short.fill(new Blob([bytes.subarray(0, bytes.byteLength - 8)]).stream())
    await expect(decodeSbm(short)).rejects.toBeInstanceOf(SbmDownloadError)
    const failing = new ArrivingBytes(bytes.byteLength)
    void failing.fill(
      new ReadableStream({
        start(controller) {
          controller.enqueue(bytes.slice(0, 2000))
          controller.error(new Error('connection reset'))
        },
      }),
    )
    await expect(decodeSbm(failing)).rejects.toThrow(/connection reset/)
    const long = new ArrivingBytes(bytes.byteLength - 4)
    void long.fill(new Blob([bytes]).stream())
    await expect(decodeSbm(long)).rejects.toBeInstanceOf(SbmDownloadError)
  })
})

describe('decodeSbm split into two shares (two workers, one file: issue 23.2)', () => {
  const withoutTimings = ({
    timings: _timings,
    ...decoded
  }: Awaited<ReturnType<typeof decodeSbm>>) => decoded
  const duck = async () =>
    new Uint8Array(await readFile(new URL('./fixtures/duck.sbm', import.meta.url)))
  const split = async (input: () => Uint8Array | ArrivingBytes) => {
    const first = await decodeSbm(input(), {
      copyGeometryForPicking: true,
      share: 'positionsAndBvhs',
    })
    const second = await decodeSbm(input(), {
      copyGeometryForPicking: true,
      share: 'indicesNormalsAndUvs',
      withoutBvhs: true,
    })
    return { first, second }
  }
  const asWorkerParts = (decoded: Awaited<ReturnType<typeof decodeSbm>>) => {
    const pickingCopy = takeForPicking(decoded)
    return { model: decoded, pickingCopy }
  }

  it('joins into exactly what one decode gives, from the whole file or while it arrives', async () => {
    const withoutBvh = await tampered((parts) => {
      parts.bvh = new Uint8Array(0)
    })
    // the last: no stored BVH, so the first share builds them over its own indices
    for (const bytes of [await fixture(), await duck(), withoutBvh]) {
      const one = asWorkerParts(await decodeSbm(bytes, { copyGeometryForPicking: true }))
      for (const input of [() => bytes, () => arriving(bytes, 64)]) {
        const { first, second } = await split(input)
        // each share holds only its own arrays
        expect(first.secondShare).toBeDefined()
        expect(first.normals).toBeNull()
        expect(first.indices).toHaveLength(0)
        expect(second.positions).toHaveLength(0)
        expect(second.bvhRoots).toEqual([])
        expect(second.indices).toHaveLength(one.model.indices.length)
        const joined = joinSplitDecode(asWorkerParts(first), asWorkerParts(second))
        expect(withoutTimings(joined.model)).toEqual(withoutTimings(one.model))
        expect(withoutTimings(joined.pickingCopy!)).toEqual(withoutTimings(one.pickingCopy))
      }
    }
    expect((await decodeSbm(await duck())).uvs?.length).toBeGreaterThan(0)
    expect((await decodeSbm(withoutBvh)).stats.builtBvhCount).toBeGreaterThan(0)
  })

  it('does not split a file with a primitive stored without normals: the first share decodes all', async () => {
    const withoutNormals = await tampered((parts) => {
      const meshes = parts.json.meshes as { primitives: { attributes: Record<string, number> }[] }[]
      delete meshes[0]!.primitives[0]!.attributes.NORMAL
    })
    const one = await decodeSbm(withoutNormals, { copyGeometryForPicking: true })
    const { first, second } = await split(() => withoutNormals)
    expect(first.secondShare).toBeUndefined()
    expect(withoutTimings(first)).toEqual(withoutTimings(one))
    // the second share decoded nothing, and the join leaves the first as it is
    expect(second.positions.length + second.indices.length + (second.normals?.length ?? 0)).toBe(0)
    const parts = asWorkerParts(first)
    expect(joinSplitDecode(parts, asWorkerParts(second))).toBe(parts)
  })

  it('refuses to join shares of two different files', async () => {
    const twoStoreys = await fixture()
    const theDuck = await duck()
    const { first } = await split(() => twoStoreys)
    const otherFile = await split(() => theDuck)
    expect(() => joinSplitDecode(asWorkerParts(first), asWorkerParts(otherFile.second))).toThrow(
      /do not fit/,
    )
    const notAShare = await decodeSbm(await fixture())
    expect(() => joinSplitDecode(asWorkerParts(first), asWorkerParts(notAShare))).toThrow(
      /do not fit/,
    )
  })
})
