import {
  BufferAttribute,
  BufferGeometry,
  type Color,
  DynamicDrawUsage,
  type InterleavedBufferAttribute,
  InstancedMesh,
  type Material,
  Matrix3,
  type Matrix4,
  Mesh,
} from 'three'

/**
 * How the POIs of one part of a 3D template model are drawn: a slot per POI, each with its
 * transform and tint, and only the first `count` slots drawn.
 */
export interface PoiModelDraw {
  readonly mesh: Mesh
  /** Slots it holds; a bigger set needs a new draw. */
  readonly capacity: number
  setAt(slot: number, matrix: Matrix4, tint: Color): void
  /** Draws the first `count` slots from the next frame on. */
  finish(count: number): void
  dispose(): void
}

/**
 * Vertices one merged draw may hold (the part's copies together): about 20 MB of position,
 * normal and UV. Larger parts, or more of them, are drawn instanced instead.
 */
const MERGED_VERTICES_AT_MOST = 1 << 19

/**
 * The draw for `capacity` POIs of a model part: merged when the part is small enough for its
 * copies to fit {@link MERGED_VERTICES_AT_MOST}, instanced otherwise. Both draw the part's own
 * geometry with its own material, so a POI looks the same either way.
 */
export function createPoiModelDraw(source: Mesh, capacity: number): PoiModelDraw {
  const vertexCount = source.geometry.getAttribute('position').count
  return vertexCount * capacity <= MERGED_VERTICES_AT_MOST
    ? new PlacedCopiesDraw(source, capacity)
    : new InstancedModelDraw(source, capacity)
}

/** One `InstancedMesh` of the part: for parts too large to repeat in one buffer. */
class InstancedModelDraw implements PoiModelDraw {
  readonly mesh: InstancedMesh

  constructor(
    source: Mesh,
    readonly capacity: number,
  ) {
    this.mesh = new InstancedMesh(source.geometry, source.material, capacity)
    // Instances spread over the building; the model's own bounds would cull them wrongly.
    this.mesh.frustumCulled = false
    this.mesh.count = 0
  }

  setAt(slot: number, matrix: Matrix4, tint: Color): void {
    this.mesh.setMatrixAt(slot, matrix)
    this.mesh.setColorAt(slot, tint)
  }

  finish(count: number): void {
    this.mesh.count = count
    this.mesh.visible = count > 0
    this.mesh.instanceMatrix.needsUpdate = true
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true
  }

  dispose(): void {
    this.mesh.removeFromParent()
    this.mesh.dispose()
  }
}

/**
 * The part repeated `capacity` times in one buffer, each copy placed on the CPU where its POI is
 * (positions and normals turned and moved) and tinted through a vertex colour: one plain draw
 * of the part's own material for every POI of the part. Placing happens when the set of POIs
 * drawn as models changes, and only for the slots whose POI or look changed.
 *
 * Why not instancing: SwiftShader, the software GPU of CI and of machines without a GPU, runs an
 * instanced draw as one draw per instance, each with its own set-up, so 3,000 instanced cameras
 * cost about what 3,000 draw calls cost (issue 16, P9). Why not the transforms in a texture read
 * by the vertex shader: SwiftShader pays its four texel fetches for every vertex of every copy
 * in every frame; in a same-run A/B (noisy) the placed copies cost less CPU. A real GPU draws
 * the placed copies as fast as instances.
 */
class PlacedCopiesDraw implements PoiModelDraw {
  readonly mesh: Mesh<BufferGeometry, Material>
  private readonly indicesPerCopy: number
  private readonly vertexCount: number
  private readonly sourcePositions: Float32Array
  private readonly sourceNormals: Float32Array | null
  private readonly positions: BufferAttribute
  private readonly normals: BufferAttribute | null
  private readonly colours: BufferAttribute
  private readonly normalMatrix = new Matrix3()
  /** What each slot holds now (its matrix and tint), so an unchanged slot is not placed again. */
  private readonly held: Float32Array
  private lowestChanged = Number.POSITIVE_INFINITY
  private highestChanged = -1

  constructor(
    source: Mesh,
    readonly capacity: number,
  ) {
    const { geometry, indicesPerCopy } = repeatedGeometry(source.geometry, capacity)
    this.indicesPerCopy = indicesPerCopy
    this.vertexCount = source.geometry.getAttribute('position').count
    this.sourcePositions = plainArray(source.geometry.getAttribute('position'), this.vertexCount)
    const normal = source.geometry.getAttribute('normal')
    this.sourceNormals = normal ? plainArray(normal, this.vertexCount) : null
    // placed on the CPU: plain 32-bit floats, whatever the part's own attributes hold
    const placedAttribute = () =>
      new BufferAttribute(new Float32Array(this.vertexCount * capacity * 3), 3)
    this.positions = placedAttribute()
    geometry.setAttribute('position', this.positions)
    this.normals = this.sourceNormals ? placedAttribute() : null
    if (this.normals) geometry.setAttribute('normal', this.normals)
    this.colours = placedAttribute()
    geometry.setAttribute('color', this.colours)
    for (const attribute of [this.positions, this.normals, this.colours])
      attribute?.setUsage(DynamicDrawUsage)
    geometry.setDrawRange(0, 0)
    this.held = new Float32Array(capacity * 19).fill(Number.NaN)
    const material = (
      Array.isArray(source.material) ? source.material[0]! : source.material
    ).clone()
    ;(material as Material & { vertexColors: boolean }).vertexColors = true
    this.mesh = new Mesh(geometry, material)
    // The copies spread over the building; the part's own bounds would cull them wrongly.
    this.mesh.frustumCulled = false
    this.mesh.visible = false
  }

  setAt(slot: number, matrix: Matrix4, tint: Color): void {
    const e = matrix.elements
    const held = this.held
    const at = slot * 19
    let isSame = true
    // (held as 32-bit floats: compared as such)
    for (let index = 0; index < 16; index++)
      if (held[at + index] !== Math.fround(e[index]!)) isSame = false
    if (
      isSame &&
      held[at + 16] === Math.fround(tint.r) &&
      held[at + 17] === Math.fround(tint.g) &&
      held[at + 18] === Math.fround(tint.b)
    )
      return
    for (let index = 0; index < 16; index++) held[at + index] = e[index]!
    held[at + 16] = tint.r
    held[at + 17] = tint.g
    held[at + 18] = tint.b
    const count = this.vertexCount
    const first = slot * count
    const from = this.sourcePositions
    const to = this.positions.array as Float32Array
    for (let vertex = 0; vertex < count; vertex++) {
      const x = from[vertex * 3]!
      const y = from[vertex * 3 + 1]!
      const z = from[vertex * 3 + 2]!
      const out = (first + vertex) * 3
      to[out] = e[0]! * x + e[4]! * y + e[8]! * z + e[12]!
      to[out + 1] = e[1]! * x + e[5]! * y + e[9]! * z + e[13]!
      to[out + 2] = e[2]! * x + e[6]! * y + e[10]! * z + e[14]!
    }
    if (this.sourceNormals && this.normals) {
      const n = this.normalMatrix.getNormalMatrix(matrix).elements
      const fromNormals = this.sourceNormals
      const toNormals = this.normals.array as Float32Array
      for (let vertex = 0; vertex < count; vertex++) {
        const x = fromNormals[vertex * 3]!
        const y = fromNormals[vertex * 3 + 1]!
        const z = fromNormals[vertex * 3 + 2]!
        const nx = n[0]! * x + n[3]! * y + n[6]! * z
        const ny = n[1]! * x + n[4]! * y + n[7]! * z
        const nz = n[2]! * x + n[5]! * y + n[8]! * z
        const length = Math.hypot(nx, ny, nz) || 1
        const out = (first + vertex) * 3
        toNormals[out] = nx / length
        toNormals[out + 1] = ny / length
        toNormals[out + 2] = nz / length
      }
    }
    const colours = this.colours.array as Float32Array
    for (let vertex = 0; vertex < count; vertex++) {
      const out = (first + vertex) * 3
      colours[out] = tint.r
      colours[out + 1] = tint.g
      colours[out + 2] = tint.b
    }
    this.lowestChanged = Math.min(this.lowestChanged, slot)
    this.highestChanged = Math.max(this.highestChanged, slot)
  }

  finish(count: number): void {
    this.mesh.geometry.setDrawRange(0, count * this.indicesPerCopy)
    this.mesh.visible = count > 0
    if (this.highestChanged < 0) return
    const start = this.lowestChanged * this.vertexCount * 3
    const length = (this.highestChanged - this.lowestChanged + 1) * this.vertexCount * 3
    for (const attribute of [this.positions, this.normals, this.colours]) {
      if (!attribute) continue
      attribute.clearUpdateRanges()
      attribute.addUpdateRange(start, length)
      attribute.needsUpdate = true
    }
    this.lowestChanged = Number.POSITIVE_INFINITY
    this.highestChanged = -1
  }

  dispose(): void {
    this.mesh.removeFromParent()
    this.mesh.geometry.dispose()
    this.mesh.material.dispose()
  }
}

/** The first `count` items of an attribute as a plain array (interleaved ones are read out). */
function plainArray(
  attribute: BufferAttribute | InterleavedBufferAttribute,
  count: number,
): Float32Array {
  const out = new Float32Array(count * 3)
  for (let index = 0; index < count; index++) {
    out[index * 3] = attribute.getX(index)
    out[index * 3 + 1] = attribute.getY(index)
    out[index * 3 + 2] = attribute.getZ(index)
  }
  return out
}

/** `copies` copies of a geometry in one. */
function repeatedGeometry(
  source: BufferGeometry,
  copies: number,
): { geometry: BufferGeometry; indicesPerCopy: number } {
  const geometry = new BufferGeometry()
  const vertexCount = source.getAttribute('position').count
  for (const [name, attribute] of Object.entries(source.attributes)) {
    const plain = (attribute as InterleavedBufferAttribute).isInterleavedBufferAttribute
      ? (attribute as InterleavedBufferAttribute).clone()
      : (attribute as BufferAttribute)
    const one = plain.array.subarray(0, vertexCount * plain.itemSize) as Float32Array
    const many = new (one.constructor as Float32ArrayConstructor)(one.length * copies)
    for (let copy = 0; copy < copies; copy++) many.set(one, copy * one.length)
    geometry.setAttribute(name, new BufferAttribute(many, plain.itemSize, plain.normalized))
  }
  const sourceIndex = source.index
  const indicesPerCopy = sourceIndex ? sourceIndex.count : vertexCount
  const indices =
    vertexCount * copies > 65_535
      ? new Uint32Array(indicesPerCopy * copies)
      : new Uint16Array(indicesPerCopy * copies)
  for (let copy = 0; copy < copies; copy++) {
    const base = copy * vertexCount
    const at = copy * indicesPerCopy
    for (let index = 0; index < indicesPerCopy; index++)
      indices[at + index] = base + (sourceIndex ? sourceIndex.getX(index) : index)
  }
  geometry.setIndex(new BufferAttribute(indices, 1))
  return { geometry, indicesPerCopy }
}
