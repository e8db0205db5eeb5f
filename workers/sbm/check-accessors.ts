import { componentByteSizes, MAX_DECODED_VIEW_BYTES, typeComponentCounts } from './gltf-buffers'
import { SbmError } from './sbm-error'

type Json = Record<string, unknown>

function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function listOf(json: Json, key: string): unknown[] {
  const value = json[key]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new SbmError(`glTF ${key} is not an array`)
  return value
}

/**
 * Checks every buffer view, accessor and image of an SBM's glTF JSON against the bytes the file
 * really has, by glTF 2.0's own rules (§3.6.2, §5.1, §5.11), before anything trusts a count:
 *
 * - a view lies inside its buffer (`byteOffset + byteLength ≤ buffer.byteLength`), its stride is
 *   4–252 and a multiple of 4; a view on meshopt's byte-less fallback buffer must carry an
 *   `EXT_meshopt_compression` description whose compressed bytes lie inside buffer 0 and whose
 *   decoded size (`count × byteStride`) is the view's `byteLength`, at most 1 GiB;
 * - an accessor has a known component type and type, an integer count, a view that exists, an
 *   offset aligned to its component size, and its last element ends inside the view:
 *   `byteOffset + stride × (count − 1) + elementSize ≤ view.byteLength`;
 * - an accessor without a view (all zeros by glTF's rule) and a sparse accessor are refused: the
 *   converter writes neither, and a view-less count is a size nothing in the file backs;
 * - an image is embedded through a view that exists (no `uri`).
 *
 * So a file cannot declare two billion elements in a 36-byte view and be described, stored or
 * served with an absurd triangle count. Throws {@link SbmError}. `buffers` were checked first
 * (readSbm's checkBuffers), so their `byteLength`s are known integers backed by the BIN chunk.
 */
export function checkAccessors(json: Json): void {
  const buffers = listOf(json, 'buffers') as Json[]
  const views = listOf(json, 'bufferViews')
  const shapes = views.map((view, index) => checkView(view, index, buffers))
  listOf(json, 'accessors').forEach((accessor, index) => {
    checkAccessor(accessor, index, shapes)
  })
  listOf(json, 'images').forEach((image, index) => {
    if (!isObject(image)) throw new SbmError(`image ${index} is not an object`)
    if (image.uri !== undefined) throw new SbmError(`image ${index} refers to outside data`)
    if (!isNonNegativeInteger(image.bufferView) || image.bufferView >= views.length) {
      throw new SbmError(`image ${index} has no buffer view in the file`)
    }
  })
}

function isFallbackBuffer(buffer: Json | undefined): boolean {
  const extensions = buffer?.extensions as Record<string, { fallback?: unknown }> | undefined
  return extensions?.EXT_meshopt_compression?.fallback === true
}

interface ViewShape {
  /** Bytes of the view (decoded bytes for a meshopt view). */
  byteLength: number
  byteStride: number | undefined
}

/** Checks one buffer view; returns its length and stride. */
function checkView(view: unknown, index: number, buffers: Json[]): ViewShape {
  if (!isObject(view)) throw new SbmError(`buffer view ${index} is not an object`)
  const { buffer, byteLength, byteStride } = view
  const byteOffset = view.byteOffset ?? 0
  if (
    !isNonNegativeInteger(buffer) ||
    buffer >= buffers.length ||
    !isNonNegativeInteger(byteOffset) ||
    !isNonNegativeInteger(byteLength)
  ) {
    throw new SbmError(`buffer view ${index} is missing or malformed`)
  }
  if (
    byteStride !== undefined &&
    (!isNonNegativeInteger(byteStride) || byteStride < 4 || byteStride > 252 || byteStride % 4)
  ) {
    throw new SbmError(`buffer view ${index} has a bad stride`)
  }
  const meshopt = (view.extensions as Json | undefined)?.EXT_meshopt_compression
  if (meshopt !== undefined) {
    checkMeshoptView(meshopt, index, byteLength, buffers)
  } else if (isFallbackBuffer(buffers[buffer])) {
    throw new SbmError(`buffer view ${index} lies in a buffer without bytes`)
  }
  if (!isFallbackBuffer(buffers[buffer])) {
    const bufferLength = buffers[buffer]!.byteLength as number
    if (byteOffset + byteLength > bufferLength) {
      throw new SbmError(`buffer view ${index} lies outside the BIN chunk`)
    }
  }
  return { byteLength, byteStride: byteStride as number | undefined }
}

function checkMeshoptView(
  meshopt: unknown,
  index: number,
  viewByteLength: number,
  buffers: Json[],
): void {
  if (!isObject(meshopt))
    throw new SbmError(`buffer view ${index} has a malformed meshopt description`)
  const { buffer, byteLength, byteStride, count, mode } = meshopt
  const byteOffset = meshopt.byteOffset ?? 0
  if (
    !isNonNegativeInteger(buffer) ||
    buffer >= buffers.length ||
    isFallbackBuffer(buffers[buffer]) ||
    !isNonNegativeInteger(byteOffset) ||
    !isNonNegativeInteger(byteLength) ||
    !isNonNegativeInteger(byteStride) ||
    !isNonNegativeInteger(count) ||
    typeof mode !== 'string' ||
    !['ATTRIBUTES', 'TRIANGLES', 'INDICES'].includes(mode)
  ) {
    throw new SbmError(`buffer view ${index} has a malformed meshopt description`)
  }
  if (byteOffset + byteLength > (buffers[buffer]!.byteLength as number)) {
    throw new SbmError(`buffer view ${index} lies outside the BIN chunk`)
  }
  if (count * byteStride > MAX_DECODED_VIEW_BYTES) {
    throw new SbmError(`buffer view ${index} would decode to ${count * byteStride} bytes`)
  }
  if (count * byteStride !== viewByteLength) {
    throw new SbmError(
      `buffer view ${index} declares ${viewByteLength} bytes but decodes to ${count * byteStride}`,
    )
  }
}

function checkAccessor(accessor: unknown, index: number, views: ViewShape[]): void {
  if (!isObject(accessor)) throw new SbmError(`accessor ${index} is not an object`)
  const componentSize = componentByteSizes[accessor.componentType as number]
  const components = typeComponentCounts[accessor.type as string]
  const { count, bufferView } = accessor
  const byteOffset = accessor.byteOffset ?? 0
  if (
    componentSize === undefined ||
    components === undefined ||
    !isNonNegativeInteger(count) ||
    !isNonNegativeInteger(byteOffset)
  ) {
    throw new SbmError(`accessor ${index} is missing or malformed`)
  }
  if (accessor.sparse !== undefined) throw new SbmError('sparse accessors are not part of SBM')
  if (bufferView === undefined) {
    throw new SbmError(`accessor ${index} has no buffer view`)
  }
  if (!isNonNegativeInteger(bufferView) || bufferView >= views.length) {
    throw new SbmError(`accessor ${index} refers to a missing buffer view`)
  }
  if (byteOffset % componentSize !== 0) {
    throw new SbmError(`accessor ${index} is not aligned to its component size`)
  }
  if (count === 0) return
  const view = views[bufferView]!
  const elementSize = componentSize * components
  const stride = view.byteStride ?? elementSize
  if (stride < elementSize) {
    throw new SbmError(`accessor ${index} has elements larger than its view's stride`)
  }
  const end = byteOffset + stride * (count - 1) + elementSize
  const viewLength = view.byteLength
  if (end > viewLength) {
    throw new SbmError(
      `accessor ${index} declares ${count} elements, which end at byte ${end} of buffer view ${bufferView} (${viewLength} bytes)`,
    )
  }
}
