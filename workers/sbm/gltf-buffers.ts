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

/** glTF component types → bytes per component (glTF 2.0 §3.6.2.2). */
export const componentByteSizes: Record<number, number> = {
  5120: 1,
  5121: 1,
  5122: 2,
  5123: 2,
  5125: 4,
  5126: 4,
}
/** glTF accessor types → components per element. */
export const typeComponentCounts: Record<string, number> = {
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

/**
 * Where the caller will copy one accessor: `elementCount` elements (vertices or indices) starting
 * at element `elementOffset` of `target`. Declaring it lets the reader decode a compressed view
 * straight into `target` instead of into a temporary buffer that is then copied.
 */
export interface AccessorDestination {
  target: Float32Array | Uint32Array
  elementOffset: number
  elementCount: number
}

type MeshoptDefinition = NonNullable<
  NonNullable<BufferViewDefinition['extensions']>['EXT_meshopt_compression']
>

/** How the reader obtained the bytes of each compressed view, for tests and benchmarks. */
export interface MeshoptDecodeCounts {
  /** Views decoded straight into their accessors' destinations. */
  inPlace: number
  /** Views decoded into a temporary buffer that the reads then copied from. */
  copied: number
}

/** Index codecs whose output width is free: the same stream decodes to 16- or 32-bit alike. */
const fullWidthIndexModes = new Set(['TRIANGLES', 'INDICES'])

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
 *
 * When every read of a compressed view was declared with a destination and the view's tightly
 * packed accessors land back to back in one output array (what our converter writes, once the
 * caller lays out its outputs in {@link viewPlacement} order), the view is decoded straight into
 * that array: no temporary buffer, no copy. 16-bit indices bound for a Uint32Array are decoded
 * into the end of their range and widened in place; an accessor read twice is copied from its
 * first destination. Anything else (strided or interleaved views, outputs not back to back,
 * other component types, undeclared reads) takes the general path: decode into a temporary
 * buffer, then copy.
 */
export class GltfBufferReader {
  private readonly accessors: unknown[]
  private readonly bufferViews: unknown[]
  private readonly decodedViews = new Map<number, ViewData>()
  private readonly pendingReads = new Map<number, number>()
  /** Declared destinations of each accessor, one per declared read. */
  private readonly destinations = new Map<number, (AccessorDestination | null)[]>()
  /** Accessors with a declared read, by buffer view. */
  private readonly accessorsByView = new Map<number, Set<number>>()
  /** Views already considered for decoding in place (decoded or refused), so it happens once. */
  private readonly consideredViews = new Set<number>()
  /** Accessors whose elements already sit in their destination, decoded in place. */
  private readonly placedAccessors = new Map<number, AccessorDestination[]>()
  private readonly counts: MeshoptDecodeCounts = { inPlace: 0, copied: 0 }

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

  /**
   * Declares that `accessorIndex` will be read once more, so its decoded view is kept until then.
   * With a `destination` (where that read will copy the elements to), a compressed view whose
   * every read is declared this way may be decoded straight into the destinations.
   */
  expectReads(accessorIndex: number, destination?: AccessorDestination): void {
    const viewIndex = this.accessor(accessorIndex).bufferView
    if (viewIndex === undefined) return
    this.pendingReads.set(viewIndex, (this.pendingReads.get(viewIndex) ?? 0) + 1)
    const declared = this.destinations.get(accessorIndex) ?? []
    declared.push(destination ?? null)
    this.destinations.set(accessorIndex, declared)
    const accessors = this.accessorsByView.get(viewIndex) ?? new Set<number>()
    accessors.add(accessorIndex)
    this.accessorsByView.set(viewIndex, accessors)
  }

  /**
   * Which buffer view an accessor reads and from which byte, or null without a view. Laying out
   * outputs in this order lets accessors that share a compressed view land back to back, which
   * decoding in place needs.
   */
  viewPlacement(accessorIndex: number): { viewIndex: number; byteOffset: number } | null {
    const { bufferView, byteOffset } = this.accessor(accessorIndex)
    if (bufferView === undefined) return null
    return { viewIndex: bufferView, byteOffset: isNonNegativeInteger(byteOffset) ? byteOffset : 0 }
  }

  /**
   * The shape of a compressed index view that can be decoded at full width (meshopt's index
   * codecs, TRIANGLES or INDICES, 2 or 4 bytes per index, no filter): its element size and
   * count; null for any other view, or a malformed one (its reads refuse it). A caller that lays
   * out the view's accessors where they sit in the view, room for unread elements included,
   * gets the whole view decoded at 4 bytes per index straight into its Uint32Array: those
   * codecs give the same values whatever width they write, so 16-bit indices need no widening.
   */
  indexViewShape(viewIndex: number): { elementBytes: 2 | 4; count: number } | null {
    const definition = this.bufferViews[viewIndex] as BufferViewDefinition | undefined
    const meshopt = definition?.extensions?.EXT_meshopt_compression
    if (!meshopt || !fullWidthIndexModes.has(meshopt.mode)) return null
    if ((meshopt.filter ?? 'NONE') !== 'NONE') return null
    const { byteStride, count } = meshopt
    if ((byteStride !== 2 && byteStride !== 4) || !isNonNegativeInteger(count)) return null
    if (count * byteStride > MAX_DECODED_VIEW_BYTES) return null
    return { elementBytes: byteStride, count }
  }

  /**
   * The compressed views with declared reads, each with the BIN chunk byte its compressed bytes
   * end at, in that order: a caller whose file is still arriving can {@link prepareView} each
   * one as soon as its bytes are in.
   */
  compressedViewsByEnd(): { viewIndex: number; binEndByte: number }[] {
    const views: { viewIndex: number; binEndByte: number }[] = []
    for (const viewIndex of this.accessorsByView.keys()) {
      const meshopt = this.viewDefinition(viewIndex).extensions?.EXT_meshopt_compression
      if (!meshopt) continue
      const end = (meshopt.byteOffset ?? 0) + meshopt.byteLength
      // A malformed range is left to the read, which refuses it with the usual error.
      if (isNonNegativeInteger(end)) views.push({ viewIndex, binEndByte: end })
    }
    return views.sort((a, b) => a.binEndByte - b.binEndByte)
  }

  /**
   * Decodes a compressed view now, straight into its declared destinations, as its first read
   * would; the reads then find it done. A view that cannot be decoded in place is left to its
   * first read (decode into a temporary buffer, then copy), so calling this never changes what
   * the reads return. Call it only once the view's compressed bytes are in the BIN chunk.
   * Returns the destinations now holding their final elements (none when left to the reads).
   */
  prepareView(viewIndex: number): AccessorDestination[] {
    if (this.consideredViews.has(viewIndex) || this.decodedViews.has(viewIndex)) return []
    this.consideredViews.add(viewIndex)
    this.tryDecodeInPlace(viewIndex)
    return [...(this.accessorsByView.get(viewIndex) ?? [])].flatMap(
      (accessorIndex) => this.placedAccessors.get(accessorIndex) ?? [],
    )
  }

  /** How many compressed views were decoded in place and how many through a temporary copy. */
  meshoptDecodeCounts(): MeshoptDecodeCounts {
    return { ...this.counts }
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
    if (this.isPlaced(accessorIndex, accessor, target, targetElementOffset)) {
      this.doneReading(accessor)
      return accessor.count
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
    const out = target.subarray(targetOffset, targetOffset + accessor.count)
    if (this.isPlaced(accessorIndex, accessor, target, targetOffset)) {
      this.doneReading(accessor)
      checkIndexRange(accessorIndex, out, vertexCount)
      return accessor.count
    }
    const source = this.elements(accessorIndex, accessor)
    if (!source) return accessor.count
    const { view, elementStride, byteOffset } = source
    const absolute = view.byteOffset + byteOffset
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
    checkIndexRange(accessorIndex, out, vertexCount)
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
    const definition = this.viewDefinition(viewIndex)
    const meshopt = definition.extensions?.EXT_meshopt_compression
    let data: ViewData
    if (meshopt) {
      const target = new Uint8Array(checkedDecodedByteLength(viewIndex, meshopt))
      this.decodeMeshopt(viewIndex, meshopt, target)
      this.counts.copied++
      data = { bytes: target, byteStride: definition.byteStride }
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

  private viewDefinition(viewIndex: number): BufferViewDefinition {
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
    return definition
  }

  /** Decodes `meshopt` into `target`, which the caller sized from {@link checkedDecodedByteLength}. */
  private decodeMeshopt(viewIndex: number, meshopt: MeshoptDefinition, target: Uint8Array): void {
    const source = this.binRange(
      viewIndex,
      meshopt.buffer,
      meshopt.byteOffset ?? 0,
      meshopt.byteLength,
    )
    try {
      this.decoder.decodeGltfBuffer(
        target,
        meshopt.count,
        meshopt.byteStride,
        source,
        meshopt.mode,
        meshopt.filter,
      )
    } catch (error) {
      throw new SbmError(`buffer view ${viewIndex} does not decode: ${(error as Error).message}`)
    }
  }

  /**
   * True when this accessor's elements are already in `target` at `elementOffset`, because its
   * view was decoded in place (trying that now, on the view's first read).
   */
  private isPlaced(
    accessorIndex: number,
    accessor: AccessorDefinition,
    target: Float32Array | Uint32Array,
    elementOffset: number,
  ): boolean {
    const viewIndex = accessor.bufferView
    if (viewIndex === undefined) return false
    if (!this.consideredViews.has(viewIndex) && !this.decodedViews.has(viewIndex)) {
      this.consideredViews.add(viewIndex)
      this.tryDecodeInPlace(viewIndex)
    }
    const placed = this.placedAccessors.get(accessorIndex)
    if (!placed) return false
    if (!placed.some((at) => at.target === target && at.elementOffset === elementOffset)) {
      // Its bytes exist only at the declared destinations; a read elsewhere is a caller bug.
      throw new Error(`accessor ${accessorIndex} is read somewhere other than it was declared`)
    }
    return true
  }

  /**
   * Decodes a compressed view straight into its accessors' declared destinations when the layout
   * allows, else leaves it to the copying path. Required: every read of the view declared with a
   * destination in one output array; tightly packed float32 attributes or unsigned indices, in
   * ascending, non-overlapping byte ranges; the first destination of each accessor following the
   * previous one's back to back, so the decoded view maps onto one range of the output. Indices
   * narrower than the output are decoded into the end of that range and widened front to back,
   * which also lets them skip bytes no declared read covers. An accessor read several times is
   * copied to its other destinations right away, before any of them can be written otherwise.
   */
  private tryDecodeInPlace(viewIndex: number): void {
    const definition = this.viewDefinition(viewIndex)
    const meshopt = definition.extensions?.EXT_meshopt_compression
    if (!meshopt) return
    const decodedByteLength = checkedDecodedByteLength(viewIndex, meshopt)
    const tiles: {
      accessorIndex: number
      accessor: AccessorDefinition
      destinations: AccessorDestination[]
    }[] = []
    let declaredReads = 0
    for (const accessorIndex of this.accessorsByView.get(viewIndex) ?? []) {
      const declared = this.destinations.get(accessorIndex) ?? []
      const destinations = declared.filter((at): at is AccessorDestination => at !== null)
      if (destinations.length === 0 || destinations.length !== declared.length) return
      declaredReads += declared.length
      tiles.push({ accessorIndex, accessor: this.accessor(accessorIndex), destinations })
    }
    if (tiles.length === 0 || declaredReads !== this.pendingReads.get(viewIndex)) return
    tiles.sort((a, b) => (a.accessor.byteOffset ?? 0) - (b.accessor.byteOffset ?? 0))
    if (this.tryDecodeIndicesAtFullWidth(viewIndex, meshopt, tiles)) return

    const first = tiles[0]!
    const target = first.destinations[0]!.target
    const { componentType, type } = first.accessor
    const components = typeComponentCounts[type]!
    const componentSize = componentByteSizes[componentType]!
    const sourceElementBytes = componentSize * components
    const isSupported =
      target instanceof Float32Array
        ? componentType === 5126
        : components === 1 && (componentType === 5123 || componentType === 5125)
    if (
      !isSupported ||
      sourceElementBytes !== meshopt.byteStride ||
      (definition.byteStride !== undefined && definition.byteStride !== sourceElementBytes)
    ) {
      return
    }

    // Where each tile's elements come from (element index in the view) and go to (element index
    // in the output range), plus every destination range, to refuse overlaps.
    const rangeStartElement = first.destinations[0]!.elementOffset
    const placements: { sourceElement: number; outputElement: number; count: number }[] = []
    const ranges: { start: number; end: number }[] = []
    let sourceEndByte = 0
    let outputElement = 0
    for (const { accessor, destinations } of tiles) {
      const byteOffset = accessor.byteOffset ?? 0
      const [primary] = destinations
      if (
        accessor.componentType !== componentType ||
        accessor.type !== type ||
        accessor.normalized === true ||
        !isNonNegativeInteger(byteOffset) ||
        byteOffset < sourceEndByte ||
        byteOffset % sourceElementBytes !== 0 ||
        primary!.elementOffset !== rangeStartElement + outputElement
      ) {
        return
      }
      for (const destination of destinations) {
        const start = destination.elementOffset * components
        const end = start + accessor.count * components
        if (
          destination.target !== target ||
          destination.elementCount !== accessor.count ||
          !isNonNegativeInteger(start) ||
          end > target.length
        ) {
          return
        }
        ranges.push({ start, end })
      }
      placements.push({
        sourceElement: byteOffset / sourceElementBytes,
        outputElement,
        count: accessor.count,
      })
      sourceEndByte = byteOffset + accessor.count * sourceElementBytes
      outputElement += accessor.count
    }
    ranges.sort((a, b) => a.start - b.start)
    if (ranges.some((range, index) => index > 0 && range.start < ranges[index - 1]!.end)) return

    const outputElementBytes = components * 4
    const rangeByteLength = outputElement * outputElementBytes
    if (sourceEndByte > decodedByteLength || decodedByteLength > rangeByteLength) return
    // The decoded view sits at the end of the output range. Widening element k writes up to
    // byte (k + 1) × outputElementBytes of the range; the next element still to be read starts
    // at decodeOffset + its source byte. Within a tile the margin between the two only shrinks,
    // so checking each tile's last element proves no unread byte is overwritten.
    const decodeOffsetBytes = rangeByteLength - decodedByteLength
    for (const { sourceElement, outputElement: tileOutput, count } of placements) {
      if (count === 0) continue
      const lastOutput = tileOutput + count - 1
      const lastSource = sourceElement + count - 1
      if (lastOutput * outputElementBytes > decodeOffsetBytes + lastSource * sourceElementBytes) {
        return
      }
    }

    const rangeByteStart = target.byteOffset + rangeStartElement * outputElementBytes
    const decodeByteStart = rangeByteStart + decodeOffsetBytes
    this.decodeMeshopt(
      viewIndex,
      meshopt,
      new Uint8Array(target.buffer, decodeByteStart, decodedByteLength),
    )
    if (componentSize === 2) {
      const narrow = new Uint16Array(target.buffer, decodeByteStart, decodedByteLength / 2)
      const wide = target.subarray(rangeStartElement, rangeStartElement + outputElement)
      for (const { sourceElement, outputElement: tileOutput, count } of placements) {
        for (let element = 0; element < count; element++) {
          wide[tileOutput + element] = narrow[sourceElement + element]!
        }
      }
    }
    for (const { accessor, destinations } of tiles) {
      const [primary, ...others] = destinations
      const primaryStart = primary!.elementOffset * components
      for (const other of others) {
        target.copyWithin(
          other.elementOffset * components,
          primaryStart,
          primaryStart + accessor.count * components,
        )
      }
    }
    this.counts.inPlace++
    for (const { accessorIndex, destinations } of tiles) {
      this.placedAccessors.set(accessorIndex, destinations)
    }
  }

  /**
   * Decodes an index view (see {@link indexViewShape}) at 4 bytes per index straight into a
   * Uint32Array whose accessors were laid out where they sit in the view: element k of the view
   * lands at `viewBase + k`. Required: every tile an unsigned index accessor of the view's width,
   * in ascending, non-overlapping element ranges, each first destination at its place in the
   * view; and no other declared destination within the view's output range, which the unread
   * elements of the view fill. True when it decoded (the tiles are then placed).
   */
  private tryDecodeIndicesAtFullWidth(
    viewIndex: number,
    meshopt: MeshoptDefinition,
    tiles: {
      accessorIndex: number
      accessor: AccessorDefinition
      destinations: AccessorDestination[]
    }[],
  ): boolean {
    const shape = this.indexViewShape(viewIndex)
    const first = tiles[0]!
    const target = first.destinations[0]!.target
    if (shape === null || !(target instanceof Uint32Array)) return false
    const componentType = shape.elementBytes === 2 ? 5123 : 5125
    const viewBase =
      first.destinations[0]!.elementOffset - (first.accessor.byteOffset ?? 0) / shape.elementBytes
    if (!isNonNegativeInteger(viewBase) || viewBase + shape.count > target.length) return false
    const viewEnd = viewBase + shape.count
    let sourceEnd = 0
    const tileAccessors = new Set<number>()
    for (const { accessorIndex, accessor, destinations } of tiles) {
      const sourceElement = (accessor.byteOffset ?? 0) / shape.elementBytes
      if (
        accessor.type !== 'SCALAR' ||
        accessor.componentType !== componentType ||
        accessor.normalized === true ||
        !isNonNegativeInteger(sourceElement) ||
        sourceElement < sourceEnd ||
        sourceElement + accessor.count > shape.count ||
        destinations[0]!.elementOffset !== viewBase + sourceElement
      ) {
        return false
      }
      for (const [index, destination] of destinations.entries()) {
        if (destination.target !== target || destination.elementCount !== accessor.count) {
          return false
        }
        // Other destinations are copied from the first after the decode: outside the range.
        const start = destination.elementOffset
        const isOutside = start + accessor.count <= viewBase || start >= viewEnd
        if (index > 0 && (!isNonNegativeInteger(start) || !isOutside)) return false
      }
      sourceEnd = sourceElement + accessor.count
      tileAccessors.add(accessorIndex)
    }
    for (const [accessorIndex, declared] of this.destinations) {
      if (tileAccessors.has(accessorIndex)) continue
      for (const destination of declared) {
        if (destination?.target !== target) continue
        const start = destination.elementOffset
        if (start < viewEnd && start + destination.elementCount > viewBase) return false
      }
    }
    this.decodeMeshopt(
      viewIndex,
      { ...meshopt, byteStride: 4 },
      new Uint8Array(target.buffer, target.byteOffset + viewBase * 4, shape.count * 4),
    )
    for (const { accessor, destinations } of tiles) {
      const [primary, ...others] = destinations
      for (const other of others) {
        target.copyWithin(
          other.elementOffset,
          primary!.elementOffset,
          primary!.elementOffset + accessor.count,
        )
      }
    }
    this.counts.inPlace++
    for (const { accessorIndex, destinations } of tiles) {
      this.placedAccessors.set(accessorIndex, destinations)
    }
    return true
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

/**
 * Validates a meshopt description and returns its decoded size, refusing sizes above
 * {@link MAX_DECODED_VIEW_BYTES} before anything is allocated or written.
 */
function checkedDecodedByteLength(viewIndex: number, meshopt: MeshoptDefinition): number {
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
  return count * byteStride
}

/** Refuses indices at or above `vertexCount`: they would read outside the primitive's vertices. */
function checkIndexRange(accessorIndex: number, indices: Uint32Array, vertexCount: number): void {
  let largest = 0
  for (let element = 0; element < indices.length; element++) {
    if (indices[element]! > largest) largest = indices[element]!
  }
  if (indices.length > 0 && largest >= vertexCount) {
    throw new SbmError(`accessor ${accessorIndex} indexes vertex ${largest} of ${vertexCount}`)
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
