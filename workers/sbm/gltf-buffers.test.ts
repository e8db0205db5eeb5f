import { readFile } from 'node:fs/promises'
import { MeshoptDecoder } from 'meshoptimizer/decoder'
import { MeshoptEncoder } from 'meshoptimizer/encoder'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeSbm } from './decode-sbm'
import { type AccessorDestination, GltfBufferReader, type GltfBufferDecoder } from './gltf-buffers'
import { readSbm } from './read-sbm'

type Json = Record<string, unknown>

/** The real meshopt decoder, noting every buffer it was asked to write into. */
function recordingDecoder(): GltfBufferDecoder & { targets: Uint8Array[]; sizes: number[] } {
  const targets: Uint8Array[] = []
  const sizes: number[] = []
  return {
    targets,
    sizes,
    decodeGltfBuffer(target, count, size, source, mode, filter) {
      targets.push(target)
      sizes.push(size)
      MeshoptDecoder.decodeGltfBuffer(target, count, size, source, mode, filter)
    },
  }
}

interface PrimitiveLayout {
  position: number
  normal: number | null
  uv: number | null
  index: number | null
  vertexOffset: number
  vertexCount: number
  indexOffset: number
  indexCount: number
}

/** Every triangle primitive of a file laid out as decodeSbm lays it out (indices grouped by view). */
function layOut(json: Json, reader: GltfBufferReader) {
  const layouts: PrimitiveLayout[] = []
  let vertexTotal = 0
  for (const mesh of json.meshes as { primitives: Json[] }[]) {
    for (const primitive of mesh.primitives) {
      const attributes = primitive.attributes as Record<string, number>
      const position = attributes.POSITION!
      const vertexCount = reader.count(position)
      const index = (primitive.indices as number | undefined) ?? null
      layouts.push({
        position,
        normal: attributes.NORMAL ?? null,
        uv: attributes.TEXCOORD_0 ?? null,
        index,
        vertexOffset: vertexTotal,
        vertexCount,
        indexOffset: 0,
        indexCount: index === null ? vertexCount : reader.count(index),
      })
      vertexTotal += vertexCount
    }
  }
  const byView = [...layouts].sort((a, b) => {
    const placeA = a.index === null ? null : reader.viewPlacement(a.index)
    const placeB = b.index === null ? null : reader.viewPlacement(b.index)
    return (
      (placeA?.viewIndex ?? -1) - (placeB?.viewIndex ?? -1) ||
      (placeA?.byteOffset ?? 0) - (placeB?.byteOffset ?? 0)
    )
  })
  let indexTotal = 0
  for (const layout of byView) {
    layout.indexOffset = indexTotal
    indexTotal += layout.indexCount
  }
  return { layouts, vertexTotal, indexTotal }
}

/**
 * Reads every primitive's positions, normals, uvs and indices the way decodeSbm does. With
 * `declareDestinations` false the reads are declared without destinations, which is the copying
 * path: decode each view into a temporary buffer, then copy.
 */
function readGeometry(file: { json: Json; bin: Uint8Array | null }, declareDestinations: boolean) {
  const decoder = recordingDecoder()
  const reader = new GltfBufferReader(file.json, file.bin, decoder)
  const { layouts, vertexTotal, indexTotal } = layOut(file.json, reader)
  const positions = new Float32Array(vertexTotal * 3)
  const normals = new Float32Array(vertexTotal * 3)
  const uvs = new Float32Array(vertexTotal * 2)
  const indices = new Uint32Array(indexTotal)
  const declare = (accessor: number | null, destination: AccessorDestination) => {
    if (accessor !== null)
      reader.expectReads(accessor, declareDestinations ? destination : undefined)
  }
  for (const layout of layouts) {
    const vertices = { elementOffset: layout.vertexOffset, elementCount: layout.vertexCount }
    declare(layout.position, { target: positions, ...vertices })
    declare(layout.normal, { target: normals, ...vertices })
    declare(layout.uv, { target: uvs, ...vertices })
    declare(layout.index, {
      target: indices,
      elementOffset: layout.indexOffset,
      elementCount: layout.indexCount,
    })
  }
  for (const layout of layouts) {
    reader.readFloatsInto(layout.position, 3, positions, layout.vertexOffset)
    if (layout.normal !== null) {
      reader.readFloatsInto(layout.normal, 3, normals, layout.vertexOffset)
    }
    if (layout.uv !== null) reader.readFloatsInto(layout.uv, 2, uvs, layout.vertexOffset)
    if (layout.index !== null) {
      reader.readIndicesInto(layout.index, layout.vertexCount, indices, layout.indexOffset)
    }
  }
  const outputBuffers = new Set<ArrayBufferLike>([
    positions.buffer,
    normals.buffer,
    uvs.buffer,
    indices.buffer,
  ])
  return {
    layouts,
    arrays: { positions, normals, uvs, indices },
    counts: reader.meshoptDecodeCounts(),
    decodedIntoOutputs: decoder.targets.map((target) => outputBuffers.has(target.buffer)),
  }
}

const bytesOf = (array: Float32Array | Uint32Array) =>
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength)

beforeAll(async () => {
  await MeshoptDecoder.ready
  await MeshoptEncoder.ready
})

describe('GltfBufferReader decoding compressed views in place', () => {
  for (const name of ['two-storeys.sbm', 'duck.sbm']) {
    it(`writes ${name}'s views straight into the outputs, byte for byte what copying gives`, async () => {
      const file = readSbm(await readFile(new URL(`./fixtures/${name}`, import.meta.url)))
      const direct = readGeometry(file, true)
      const copied = readGeometry(file, false)

      expect(direct.counts.copied).toBe(0)
      expect(direct.counts.inPlace).toBe(copied.counts.copied)
      expect(direct.counts.inPlace).toBeGreaterThan(0)
      expect(direct.decodedIntoOutputs.every(Boolean)).toBe(true)
      expect(copied.counts.inPlace).toBe(0)
      expect(copied.decodedIntoOutputs.some(Boolean)).toBe(false)
      for (const key of ['positions', 'normals', 'uvs', 'indices'] as const) {
        expect(bytesOf(direct.arrays[key])).toEqual(bytesOf(copied.arrays[key]))
      }

      // decodeSbm takes the same path: its geometry equals the copying path's, primitive by primitive.
      const decoded = await decodeSbm(
        await readFile(new URL(`./fixtures/${name}`, import.meta.url)),
      )
      decoded.primitives.forEach((primitive, at) => {
        const layout = copied.layouts[at]!
        const vertices = (array: Float32Array, size: number, offset: number) => [
          ...array.subarray(offset * size, (offset + primitive.vertexCount) * size),
        ]
        expect(vertices(decoded.positions, 3, primitive.vertexOffset)).toEqual(
          vertices(copied.arrays.positions, 3, layout.vertexOffset),
        )
        expect(vertices(decoded.normals!, 3, primitive.vertexOffset)).toEqual(
          vertices(copied.arrays.normals, 3, layout.vertexOffset),
        )
        const own = (array: Uint32Array, offset: number) => [
          ...array.subarray(offset, offset + primitive.indexCount),
        ]
        expect(own(decoded.indices, primitive.indexOffset)).toEqual(
          own(copied.arrays.indices, layout.indexOffset),
        )
      })
    })
  }
})

/** Encodes index lists into TRIANGLES views, one view per list of accessors, and a GLB-like file. */
function indexFile(
  views: { bytesPerIndex: 2 | 4; accessors: number[][] }[],
  floatViews: { byteStride: 12 | 16; vertexCount: number }[] = [],
) {
  const chunks: Uint8Array[] = []
  let binLength = 0
  const bufferViews: Json[] = []
  const accessors: Json[] = []
  const addView = (decoded: Uint8Array, count: number, byteStride: number, mode: string) => {
    const encoded = MeshoptEncoder.encodeGltfBuffer(decoded, count, byteStride, mode)
    bufferViews.push({
      buffer: 1,
      byteLength: decoded.byteLength,
      ...(mode === 'ATTRIBUTES' ? { byteStride } : {}),
      extensions: {
        EXT_meshopt_compression: {
          buffer: 0,
          byteOffset: binLength,
          byteLength: encoded.byteLength,
          byteStride,
          count,
          mode,
        },
      },
    })
    chunks.push(encoded)
    binLength += Math.ceil(encoded.byteLength / 4) * 4
  }
  for (const view of views) {
    const all = view.accessors.flat()
    const decoded = view.bytesPerIndex === 2 ? new Uint16Array(all) : new Uint32Array(all)
    let byteOffset = 0
    for (const list of view.accessors) {
      accessors.push({
        bufferView: bufferViews.length,
        byteOffset,
        componentType: view.bytesPerIndex === 2 ? 5123 : 5125,
        count: list.length,
        type: 'SCALAR',
      })
      byteOffset += list.length * view.bytesPerIndex
    }
    addView(new Uint8Array(decoded.buffer), all.length, view.bytesPerIndex, 'TRIANGLES')
  }
  for (const { byteStride, vertexCount } of floatViews) {
    const floats = new Float32Array((vertexCount * byteStride) / 4).map((_, at) => at * 0.5 - 3)
    accessors.push({
      bufferView: bufferViews.length,
      componentType: 5126,
      count: vertexCount,
      type: 'VEC3',
    })
    addView(new Uint8Array(floats.buffer), vertexCount, byteStride, 'ATTRIBUTES')
  }
  const bin = new Uint8Array(binLength)
  let at = 0
  for (const chunk of chunks) {
    bin.set(chunk, at)
    at += Math.ceil(chunk.byteLength / 4) * 4
  }
  return { json: { accessors, bufferViews } as Json, bin }
}

/** Reads index accessors into one Uint32Array at the given offsets, declared or not. */
function readIndices(
  file: { json: Json; bin: Uint8Array },
  reads: { accessor: number; offset: number }[],
  declareDestinations: boolean,
  outputLength?: number,
) {
  const decoder = recordingDecoder()
  const reader = new GltfBufferReader(file.json, file.bin, decoder)
  const total = reads.reduce((sum, read) => sum + reader.count(read.accessor), 0)
  const indices = new Uint32Array(outputLength ?? total)
  for (const { accessor, offset } of reads) {
    const destination = {
      target: indices,
      elementOffset: offset,
      elementCount: reader.count(accessor),
    }
    reader.expectReads(accessor, declareDestinations ? destination : undefined)
  }
  for (const { accessor, offset } of reads) reader.readIndicesInto(accessor, 1000, indices, offset)
  return {
    indices,
    counts: reader.meshoptDecodeCounts(),
    decodedIntoOutput: decoder.targets.map((target) => target.buffer === indices.buffer),
    decodedBytesPerIndex: decoder.sizes,
  }
}

const triangles = (count: number, first: number) =>
  Array.from({ length: count * 3 }, (_, at) => first + ((at * 7) % (count * 3)))

describe('GltfBufferReader with views shared by several accessors', () => {
  it('decodes interleaved 16- and 32-bit index views in place, skipping an unread accessor', () => {
    const gap = triangles(2, 500)
    const [a, b, c, d] = [triangles(2, 10), triangles(3, 20), triangles(1, 30), triangles(2, 40)]
    // View 0 (16-bit): an accessor nobody reads, then a, b. View 1 (32-bit): c, d.
    const file = indexFile([
      { bytesPerIndex: 2, accessors: [gap, a, b] },
      { bytesPerIndex: 4, accessors: [c, d] },
    ])
    // Primitives read a, c, b, d (views interleaved); the output groups them by view.
    const reads = [
      { accessor: 1, offset: 0 },
      { accessor: 3, offset: a.length + b.length },
      { accessor: 2, offset: a.length },
      { accessor: 4, offset: a.length + b.length + c.length },
    ]
    const direct = readIndices(file, reads, true)
    const copied = readIndices(file, reads, false)
    expect(direct.counts).toEqual({ inPlace: 2, copied: 0 })
    expect(direct.decodedIntoOutput).toEqual([true, true])
    expect(copied.counts).toEqual({ inPlace: 0, copied: 2 })
    expect([...direct.indices]).toEqual([...a, ...b, ...c, ...d])
    expect(direct.indices).toEqual(copied.indices)
  })

  it('decodes index views at 4 bytes straight into an output laid out as the views are, unread room included', () => {
    const gap = triangles(2, 500)
    const [a, b, c, d] = [triangles(2, 10), triangles(3, 20), triangles(1, 30), triangles(2, 40)]
    const file = indexFile([
      { bytesPerIndex: 2, accessors: [gap, a, b] },
      { bytesPerIndex: 4, accessors: [c, d] },
    ])
    // Each view's accessors sit where they sit in the view: room for the unread `gap` first.
    const viewLength = gap.length + a.length + b.length
    const reads = [
      { accessor: 1, offset: gap.length },
      { accessor: 3, offset: viewLength },
      { accessor: 2, offset: gap.length + a.length },
      { accessor: 4, offset: viewLength + c.length },
    ]
    const direct = readIndices(file, reads, true, viewLength + c.length + d.length)
    expect(direct.counts).toEqual({ inPlace: 2, copied: 0 })
    expect(direct.decodedIntoOutput).toEqual([true, true])
    // 16-bit indices decoded at the output's width: no widening pass
    expect(direct.decodedBytesPerIndex).toEqual([4, 4])
    const read = (offset: number, length: number) => [
      ...direct.indices.subarray(offset, offset + length),
    ]
    expect(read(gap.length, a.length + b.length)).toEqual([...a, ...b])
    expect(read(viewLength, c.length + d.length)).toEqual([...c, ...d])
  })

  it("widens instead when another read lands in a view's unread room, and reads the same", () => {
    const gap = triangles(2, 500)
    const [a, b, c, d] = [triangles(2, 10), triangles(3, 20), triangles(1, 30), triangles(2, 40)]
    const file = indexFile([
      { bytesPerIndex: 2, accessors: [gap, a, b] },
      { bytesPerIndex: 4, accessors: [c, d] },
    ])
    // c sits where the 16-bit view's unread gap would go: decoding that view whole would
    // overwrite it, so it is decoded at 2 bytes into a and b's range and widened.
    const end = gap.length + a.length + b.length
    const reads = [
      { accessor: 1, offset: gap.length },
      { accessor: 2, offset: gap.length + a.length },
      { accessor: 3, offset: 0 },
      { accessor: 4, offset: end },
    ]
    const direct = readIndices(file, reads, true, end + d.length)
    expect(direct.counts).toEqual({ inPlace: 1, copied: 1 })
    expect(direct.decodedBytesPerIndex).toEqual([2, 4])
    expect([...direct.indices.subarray(0, c.length)]).toEqual(c)
    expect([...direct.indices.subarray(gap.length)]).toEqual([...a, ...b, ...d])
  })

  it('falls back to copying when the outputs are not back to back, and reads the same', () => {
    const [a, b, c, d] = [triangles(2, 10), triangles(3, 20), triangles(1, 30), triangles(2, 40)]
    const file = indexFile([
      { bytesPerIndex: 2, accessors: [a, b] },
      { bytesPerIndex: 4, accessors: [c, d] },
    ])
    // Laid out in read order a, c, b, d: neither view's accessors land next to each other.
    const reads = [
      { accessor: 0, offset: 0 },
      { accessor: 2, offset: a.length },
      { accessor: 1, offset: a.length + c.length },
      { accessor: 3, offset: a.length + c.length + b.length },
    ]
    const direct = readIndices(file, reads, true)
    expect(direct.counts).toEqual({ inPlace: 0, copied: 2 })
    expect(direct.decodedIntoOutput).toEqual([false, false])
    expect([...direct.indices]).toEqual([...a, ...c, ...b, ...d])
  })

  it('falls back when widening would overwrite indices not yet read (an unread gap mid-view)', () => {
    // Read 6, skip 6, read 3: the 16-bit view ends 6 bytes into the 36-byte output range, so
    // widening a's fifth index would overwrite the bytes of its sixth before they are read.
    const [a, gap, b] = [triangles(2, 10), triangles(2, 600), triangles(1, 20)]
    const file = indexFile([{ bytesPerIndex: 2, accessors: [a, gap, b] }])
    const reads = [
      { accessor: 0, offset: 0 },
      { accessor: 2, offset: a.length },
    ]
    const direct = readIndices(file, reads, true)
    expect(direct.counts).toEqual({ inPlace: 0, copied: 1 })
    expect([...direct.indices]).toEqual([...a, ...b])
  })

  it('decodes a tightly packed float view in place but copies from a strided one', () => {
    const file = indexFile(
      [],
      [
        { byteStride: 12, vertexCount: 5 },
        { byteStride: 16, vertexCount: 5 },
      ],
    )
    const read = (declareDestinations: boolean) => {
      const reader = new GltfBufferReader(file.json, file.bin, recordingDecoder())
      const positions = new Float32Array(30)
      for (const [accessor, elementOffset] of [
        [0, 0],
        [1, 5],
      ] as const) {
        const destination = { target: positions, elementOffset, elementCount: 5 }
        reader.expectReads(accessor, declareDestinations ? destination : undefined)
      }
      reader.readFloatsInto(0, 3, positions, 0)
      reader.readFloatsInto(1, 3, positions, 5)
      return { positions, counts: reader.meshoptDecodeCounts() }
    }
    const direct = read(true)
    expect(direct.counts).toEqual({ inPlace: 1, copied: 1 })
    expect(direct.positions).toEqual(read(false).positions)
    // The strided view's fourth float of each vertex is skipped: its vertex 1 starts at float 4.
    expect([...direct.positions.subarray(18, 21)]).toEqual([-1, -0.5, 0])
  })
})
