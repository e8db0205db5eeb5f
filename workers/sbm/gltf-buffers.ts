import { SbmError } from './sbm-error'

/** The part of meshoptimizer's decoder that EXT_meshopt_compression buffer views need. */
export interface GltfBufferDecoder {
  decodeGltfBuffer(
    target: Uint8Array,
    count: number,
    size: number,
    source: Uint8Array,
    mode: string,
    filter?: string,
  ): void
}

/**
 * Largest decoded buffer view accepted. A meshopt view declares its decoded size; a hostile file
 * could declare terabytes in a few bytes, so the reader refuses before allocating.
 */
export const MAX_DECODED_VIEW_BYTES = 1 << 30

const componentByteSizes: Record<number, number> = {
  5120: 1,
  5121: 1,
  5122: 2,
  5123: 2,
  5125: 4,
  5126: 4,
}
const typeComponentCounts: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
}

interface AccessorDefinition {
  bufferView?: number
  byteOffset?: number
  componentType: number
  normalized?: boolean
  count: number
  type: string
  sparse?: unknown
}

interface BufferViewDefinition {
  buffer: number
  byteOffset?: number
  byteLength: number
  byteStride?: number
  extensions?: {
    EXT_meshopt_compression?: {
      buffer: number
      byteOffset?: number
      byteLength: number
      byteStride: number
      count: number
      mode: string
      filter?: string
    }
  }
}

/** Bytes of one buffer view, with the stride its elements are laid out at. */
interface ViewData {
  bytes: Uint8Array
  byteStride: number | undefined
}

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/**
 * Reads accessors of a GLB's JSON + BIN with every offset, length and stride checked against the
 * real bytes, decoding EXT_meshopt_compression views on demand. A view decoded for several
 * accessors is kept until its last declared reader has read it (see {@link expectReads}), so peak
 * memory stays near the output size instead of holding every decoded view at once.
 */
export class GltfBufferReader {
  private readonly accessors: unknown[]
  private readonly bufferViews: unknown[]
  private readonly decodedViews = new Map<number, ViewData>()
  private readonly pendingReads = new Map<number, number>()

  constructor(
    json: Record<string, unknown>,
    private readonly bin: Uint8Array | null,
    private readonly decoder: GltfBufferDecoder,
  ) {
    this.accessors = Array.isArray(json.accessors) ? json.accessors : []
    this.bufferViews = Array.isArray(json.bufferViews) ? json.bufferViews : []
  }

  /** Number of elements of an accessor (vertices, indices). */
  count(accessorIndex: number): number {
    return this.accessor(accessorIndex).count
  }

  /** Declares that `accessorIndex` will be read once more, so its decoded view is kept until then. */
  expectReads(accessorIndex: number): void {
    const viewIndex = this.accessor(accessorIndex).bufferView
    if (viewIndex === undefined) return
    this.pendingReads.set(viewIndex, (this.pendingReads.get(viewIndex) ?? 0) + 1)
  }

  /**
   * Copies a float attribute (any component type, normalized or not, any stride) into `target`
   * at element `targetElementOffset`, as `components` floats per element. Returns the count.
   */
  readFloatsInto(
    accessorIndex: number,
    components: number,
    target: Float32Array,
    targetElementOffset: number,
  ): number {
    const accessor = this.accessor(accessorIndex)
    if (typeComponentCounts[accessor.type] !== components) {
      throw new SbmError(
        `accessor ${accessorIndex} is ${accessor.type}, expected ${components} components`,
      )
    }
    const targetStart = targetElementOffset * components
    if (targetStart + accessor.count * components > target.length) {
      throw new SbmError(`accessor ${accessorIndex} does not fit the output`)
    }
    const source = this.elements(accessorIndex, accessor)
    if (!source) return accessor.count // no buffer view: all zeros, which the target already is
    const { view, elementStride, byteOffset } = source
    const componentSize = componentByteSizes[accessor.componentType]!
    const read = componentReader(accessor.componentType, accessor.normalized === true)
    const absoluteOffset = view.byteOffset + byteOffset
    if (
      accessor.componentType === 5126 &&
      elementStride === components * 4 &&
      absoluteOffset % 4 === 0
    ) {
      // Tightly packed, aligned floats: one memcpy instead of a per-component loop.
      target.set(
        new Float32Array(view.buffer, absoluteOffset, accessor.count * components),
        targetStart,
      )
      this.doneReading(accessor)
      return accessor.count
    }
    const data = new DataView(view.buffer, view.byteOffset, view.byteLength)
    for (let element = 0; element < accessor.count; element++) {
      const elementStart = byteOffset + element * elementStride
      for (let component = 0; component < components; component++) {
        target[targetStart + element * components + component] = read(
          data,
          elementStart + component * componentSize,
        )
      }
    }
    this.doneReading(accessor)
    return accessor.count
  }

  /**
   * Copies a SCALAR unsigned index accessor into `target` at `targetOffset`, refusing indices at
   * or above `vertexCount` (they would read outside the geometry). Returns the count.
   */
  readIndicesInto(
    accessorIndex: number,
    vertexCount: number,
    target: Uint32Array,
    targetOffset: number,
  ): number {
    const accessor = this.accessor(accessorIndex)
    if (accessor.type !== 'SCALAR' || ![5121, 5123, 5125].includes(accessor.componentType)) {
      throw new SbmError(`accessor ${accessorIndex} is not an unsigned index accessor`)
    }
    if (targetOffset + accessor.count > target.length) {
      throw new SbmError(`accessor ${accessorIndex} does not fit the output`)
    }
    const source = this.elements(accessorIndex, accessor)
    if (!source) return accessor.count
    const { view, elementStride, byteOffset } = source
    const absolute = view.byteOffset + byteOffset
    const out = target.subarray(targetOffset, targetOffset + accessor.count)
    if (accessor.componentType === 5125 && elementStride === 4 && absolute % 4 === 0) {
      out.set(new Uint32Array(view.buffer, absolute, accessor.count))
    } else if (accessor.componentType === 5123 && elementStride === 2 && absolute % 2 === 0) {
      out.set(new Uint16Array(view.buffer, absolute, accessor.count))
    } else {
      const data = new DataView(view.buffer, view.byteOffset, view.byteLength)
      const size = componentByteSizes[accessor.componentType]!
      for (let element = 0; element < accessor.count; element++) {
        const at = byteOffset + element * elementStride
        out[element] =
          size === 1
            ? data.getUint8(at)
            : size === 2
              ? data.getUint16(at, true)
              : data.getUint32(at, true)
      }
    }
    this.doneReading(accessor)
    let largest = 0
    for (let element = 0; element < out.length; element++) {
      if (out[element]! > largest) largest = out[element]!
    }
    if (out.length > 0 && largest >= vertexCount) {
      throw new SbmError(`accessor ${accessorIndex} indexes vertex ${largest} of ${vertexCount}`)
    }
    return accessor.count
  }

  /** Bytes of a buffer view, e.g. an embedded image; checked against the BIN chunk. */
  viewBytes(viewIndex: number): Uint8Array {
    return this.view(viewIndex).bytes
  }

  private accessor(index: number): AccessorDefinition {
    const accessor = this.accessors[index] as AccessorDefinition | undefined
    if (
      !isNonNegativeInteger(index) ||
      typeof accessor !== 'object' ||
      accessor === null ||
      !isNonNegativeInteger(accessor.count) ||
      componentByteSizes[accessor.componentType] === undefined ||
      typeComponentCounts[accessor.type] === undefined
    ) {
      throw new SbmError(`accessor ${index} is missing or malformed`)
    }
    if (accessor.sparse !== undefined) throw new SbmError('sparse accessors are not part of SBM')
    return accessor
  }

  /** Locates an accessor's elements, checking the last element ends inside its view. */
  private elements(
    accessorIndex: number,
    accessor: AccessorDefinition,
  ): { view: Uint8Array; elementStride: number; byteOffset: number } | null {
    if (accessor.bufferView === undefined) return null
    const { bytes, byteStride } = this.view(accessor.bufferView)
    const elementBytes =
      componentByteSizes[accessor.componentType]! * typeComponentCounts[accessor.type]!
    const elementStride = byteStride ?? elementBytes
    const byteOffset = accessor.byteOffset ?? 0
    if (!isNonNegativeInteger(byteOffset) || elementStride < elementBytes) {
      throw new SbmError(`accessor ${accessorIndex} has a bad offset or stride`)
    }
    const end =
      accessor.count === 0
        ? byteOffset
        : byteOffset + (accessor.count - 1) * elementStride + elementBytes
    if (end > bytes.byteLength) {
      throw new SbmError(
        `accessor ${accessorIndex} reads past the end of buffer view ${accessor.bufferView}`,
      )
    }
    return { view: bytes, elementStride, byteOffset }
  }

  private doneReading(accessor: AccessorDefinition): void {
    const viewIndex = accessor.bufferView
    if (viewIndex === undefined) return
    const pending = (this.pendingReads.get(viewIndex) ?? 0) - 1
    if (pending > 0) {
      this.pendingReads.set(viewIndex, pending)
    } else {
      this.pendingReads.delete(viewIndex)
      this.decodedViews.delete(viewIndex)
    }
  }

  private view(viewIndex: number): ViewData {
    const cached = this.decodedViews.get(viewIndex)
    if (cached) return cached
    const definition = this.bufferViews[viewIndex] as BufferViewDefinition | undefined
    if (
      !isNonNegativeInteger(viewIndex) ||
      typeof definition !== 'object' ||
      definition === null ||
      !isNonNegativeInteger(definition.byteLength)
    ) {
      throw new SbmError(`buffer view ${viewIndex} is missing or malformed`)
    }
    if (
      definition.byteStride !== undefined &&
      (!isNonNegativeInteger(definition.byteStride) ||
        definition.byteStride < 4 ||
        definition.byteStride > 252)
    ) {
      throw new SbmError(`buffer view ${viewIndex} has a bad stride`)
    }
    const meshopt = definition.extensions?.EXT_meshopt_compression
    let data: ViewData
    if (meshopt) {
      data = { bytes: this.decodeMeshopt(viewIndex, meshopt), byteStride: definition.byteStride }
    } else {
      data = {
        bytes: this.binRange(
          viewIndex,
          definition.buffer,
          definition.byteOffset ?? 0,
          definition.byteLength,
        ),
        byteStride: definition.byteStride,
      }
    }
    this.decodedViews.set(viewIndex, data)
    return data
  }

  private decodeMeshopt(
    viewIndex: number,
    meshopt: NonNullable<
      NonNullable<BufferViewDefinition['extensions']>['EXT_meshopt_compression']
    >,
  ): Uint8Array {
    const { count, byteStride, mode } = meshopt
    if (
      !isNonNegativeInteger(count) ||
      !isNonNegativeInteger(byteStride) ||
      !['ATTRIBUTES', 'TRIANGLES', 'INDICES'].includes(mode)
    ) {
      throw new SbmError(`buffer view ${viewIndex} has a malformed meshopt description`)
    }
    if (count * byteStride > MAX_DECODED_VIEW_BYTES) {
      throw new SbmError(`buffer view ${viewIndex} would decode to ${count * byteStride} bytes`)
    }
    const source = this.binRange(
      viewIndex,
      meshopt.buffer,
      meshopt.byteOffset ?? 0,
      meshopt.byteLength,
    )
    const target = new Uint8Array(count * byteStride)
    try {
      this.decoder.decodeGltfBuffer(target, count, byteStride, source, mode, meshopt.filter)
    } catch (error) {
      throw new SbmError(`buffer view ${viewIndex} does not decode: ${(error as Error).message}`)
    }
    return target
  }

  private binRange(viewIndex: number, buffer: number, byteOffset: number, byteLength: number) {
    if (buffer !== 0 || !this.bin)
      throw new SbmError(`buffer view ${viewIndex} is not in the BIN chunk`)
    if (
      !isNonNegativeInteger(byteOffset) ||
      !isNonNegativeInteger(byteLength) ||
      byteOffset + byteLength > this.bin.byteLength
    ) {
      throw new SbmError(`buffer view ${viewIndex} lies outside the BIN chunk`)
    }
    return this.bin.subarray(byteOffset, byteOffset + byteLength)
  }
}

type ComponentReader = (data: DataView, byteOffset: number) => number

function componentReader(componentType: number, normalized: boolean): ComponentReader {
  switch (componentType) {
    case 5126:
      return (data, at) => data.getFloat32(at, true)
    case 5120:
      return normalized
        ? (data, at) => Math.max(data.getInt8(at) / 127, -1)
        : (data, at) => data.getInt8(at)
    case 5121:
      return normalized ? (data, at) => data.getUint8(at) / 255 : (data, at) => data.getUint8(at)
    case 5122:
      return normalized
        ? (data, at) => Math.max(data.getInt16(at, true) / 32767, -1)
        : (data, at) => data.getInt16(at, true)
    case 5123:
      return normalized
        ? (data, at) => data.getUint16(at, true) / 65535
        : (data, at) => data.getUint16(at, true)
    default:
      return (data, at) => data.getUint32(at, true)
  }
}
