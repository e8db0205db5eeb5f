import {
  BufferAttribute,
  BufferGeometry,
  type Color,
  DataTexture,
  FloatType,
  type InterleavedBufferAttribute,
  InstancedMesh,
  type Material,
  type Matrix4,
  Mesh,
  NearestFilter,
  RGBAFormat,
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
/** Texels per slot: the three rows of the affine transform, then the tint. */
const TEXELS_PER_SLOT = 4
const SLOTS_PER_TEXTURE_ROW = 256

/**
 * The draw for `capacity` POIs of a model part: merged when the part is small enough for its
 * copies to fit {@link MERGED_VERTICES_AT_MOST}, instanced otherwise. Both draw the part's own
 * geometry with its own material, so a POI looks the same either way.
 */
export function createPoiModelDraw(source: Mesh, capacity: number): PoiModelDraw {
  const vertexCount = source.geometry.getAttribute('position').count
  return vertexCount * capacity <= MERGED_VERTICES_AT_MOST
    ? new MergedModelDraw(source, capacity)
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
 * The part repeated `capacity` times in one buffer, each copy tagged with its slot; the vertex
 * shader moves each copy by its slot's transform, read from a float texture, and tints it. One
 * draw call for every POI of the part, and one small texture upload when the set changes.
 *
 * Why not instancing: SwiftShader, the software GPU of CI and of machines without a GPU, runs an
 * instanced draw as one draw per instance, each with its own set-up, so 3,000 instanced cameras
 * cost about what 3,000 draw calls cost (issue 16, P9: the 3D POIs were most of the layer's
 * frame time). A real GPU draws the merged copies as fast as instances.
 */
class MergedModelDraw implements PoiModelDraw {
  readonly mesh: Mesh<BufferGeometry, Material>
  private readonly slots: Float32Array
  private readonly texture: DataTexture
  private readonly indicesPerCopy: number

  constructor(
    source: Mesh,
    readonly capacity: number,
  ) {
    const width = TEXELS_PER_SLOT * Math.min(capacity, SLOTS_PER_TEXTURE_ROW)
    const height = Math.ceil(capacity / SLOTS_PER_TEXTURE_ROW)
    this.slots = new Float32Array(width * height * 4)
    this.texture = new DataTexture(this.slots, width, height, RGBAFormat, FloatType)
    this.texture.magFilter = NearestFilter
    this.texture.minFilter = NearestFilter
    this.texture.needsUpdate = true
    const { geometry, indicesPerCopy } = repeatedGeometry(source.geometry, capacity)
    this.indicesPerCopy = indicesPerCopy
    geometry.setDrawRange(0, 0)
    const material = Array.isArray(source.material) ? source.material[0]! : source.material
    this.mesh = new Mesh(geometry, slotMaterial(material, this.texture))
    // The copies spread over the building; the part's own bounds would cull them wrongly.
    this.mesh.frustumCulled = false
    this.mesh.visible = false
  }

  setAt(slot: number, matrix: Matrix4, tint: Color): void {
    // Row by row (three's elements are column by column), then the tint.
    const e = matrix.elements
    const slots = this.slots
    const at = slot * TEXELS_PER_SLOT * 4
    slots[at] = e[0]!
    slots[at + 1] = e[4]!
    slots[at + 2] = e[8]!
    slots[at + 3] = e[12]!
    slots[at + 4] = e[1]!
    slots[at + 5] = e[5]!
    slots[at + 6] = e[9]!
    slots[at + 7] = e[13]!
    slots[at + 8] = e[2]!
    slots[at + 9] = e[6]!
    slots[at + 10] = e[10]!
    slots[at + 11] = e[14]!
    slots[at + 12] = tint.r
    slots[at + 13] = tint.g
    slots[at + 14] = tint.b
    slots[at + 15] = 1
  }

  finish(count: number): void {
    this.mesh.geometry.setDrawRange(0, count * this.indicesPerCopy)
    this.mesh.visible = count > 0
    this.texture.needsUpdate = true
  }

  dispose(): void {
    this.mesh.removeFromParent()
    this.mesh.geometry.dispose()
    this.mesh.material.dispose()
    this.texture.dispose()
  }
}

/** `copies` copies of a geometry in one, each copy's vertices tagged with its slot (`poiSlot`). */
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
  const slots = new Float32Array(vertexCount * copies)
  for (let copy = 0; copy < copies; copy++)
    slots.fill(copy, copy * vertexCount, (copy + 1) * vertexCount)
  geometry.setAttribute('poiSlot', new BufferAttribute(slots, 1))
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

const slotVertexHeader = /* glsl */ `
attribute float poiSlot;
uniform sampler2D poiSlots;
varying vec3 vPoiTint;
vec4 poiRow0;
vec4 poiRow1;
vec4 poiRow2;
`

const readSlot = /* glsl */ `
  int poiTexel = int(poiSlot + 0.5) * ${TEXELS_PER_SLOT};
  int poiWidth = textureSize(poiSlots, 0).x;
  ivec2 poiAt = ivec2(poiTexel % poiWidth, poiTexel / poiWidth);
  poiRow0 = texelFetch(poiSlots, poiAt, 0);
  poiRow1 = texelFetch(poiSlots, poiAt + ivec2(1, 0), 0);
  poiRow2 = texelFetch(poiSlots, poiAt + ivec2(2, 0), 0);
  vPoiTint = texelFetch(poiSlots, poiAt + ivec2(3, 0), 0).rgb;
`

// Normals as three turns an instance's: by the 3 × 3 part, divided by its columns' squared
// lengths (right for rotations and scales alike).
const turnNormal = /* glsl */ `
  {
    mat3 poiTurn = transpose(mat3(poiRow0.xyz, poiRow1.xyz, poiRow2.xyz));
    objectNormal /= vec3(dot(poiTurn[0], poiTurn[0]), dot(poiTurn[1], poiTurn[1]), dot(poiTurn[2], poiTurn[2]));
    objectNormal = poiTurn * objectNormal;
    #ifdef USE_TANGENT
    objectTangent = poiTurn * objectTangent;
    #endif
  }
`

const placeVertex = /* glsl */ `
  transformed = vec3(
    dot(poiRow0, vec4(transformed, 1.0)),
    dot(poiRow1, vec4(transformed, 1.0)),
    dot(poiRow2, vec4(transformed, 1.0))
  );
`

/**
 * The part's own material (basic or standard, as the SBM made it), taught to place each copy by
 * its slot: three's shader chunks with the slot's transform after them, and its tint on the
 * base colour (as an instance colour would be).
 */
function slotMaterial(source: Material, slots: DataTexture): Material {
  const material = source.clone()
  const uniform = { value: slots }
  material.onBeforeCompile = (shader) => {
    shader.uniforms.poiSlots = uniform
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', `#include <common>\n${slotVertexHeader}`)
      .replace('void main() {', `void main() {\n${readSlot}`)
      .replace('#include <beginnormal_vertex>', `#include <beginnormal_vertex>\n${turnNormal}`)
      .replace('#include <begin_vertex>', `#include <begin_vertex>\n${placeVertex}`)
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying vec3 vPoiTint;')
      .replace(
        '#include <color_fragment>',
        '#include <color_fragment>\ndiffuseColor.rgb *= vPoiTint;',
      )
  }
  material.customProgramCacheKey = () => 'poi-model-slots'
  return material
}
