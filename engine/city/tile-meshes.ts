import { Matrix4 } from '@math.gl/core'

/**
 * The triangle meshes of a loaded 3D Tiles content (b3dm, glb, cmpt parts), read from
 * loaders.gl's post-processed glTF into plain arrays the tileset mesh layer uploads as they
 * are: node transforms kept as one matrix per mesh, every vertex attribute as a tight
 * Float32Array, the material reduced to what a city renderer draws (base colour, base colour
 * texture, unlit, alpha cutoff).
 */

/** The parts of a loaders.gl post-processed glTF accessor this module reads. */
interface GltfAccessor {
  value?: ArrayLike<number> & { constructor: unknown }
  normalized?: boolean
  /** Components per element; loaders.gl names it `components`, deck sometimes `size`. */
  components?: number
  size?: number
}

interface GltfTextureInfo {
  texCoord?: number
  texture?: { source?: { image?: unknown }; sampler?: Partial<TileTextureSampler> }
}

interface GltfMaterial {
  pbrMetallicRoughness?: {
    baseColorFactor?: readonly number[]
    baseColorTexture?: GltfTextureInfo
  }
  alphaMode?: string
  alphaCutoff?: number
  extensions?: Record<string, unknown>
}

/** The parts of a post-processed glTF primitive this module reads. */
export interface GltfPrimitive {
  mode?: number
  attributes: Record<string, GltfAccessor | undefined>
  indices?: GltfAccessor
  material?: GltfMaterial
}

/** The parts of a post-processed glTF node this module reads. */
export interface GltfNode {
  matrix?: readonly number[]
  translation?: readonly number[]
  rotation?: readonly number[]
  scale?: readonly number[]
  mesh?: { primitives?: readonly GltfPrimitive[] }
  children?: readonly GltfNode[]
}

/** The parts of a post-processed glTF (a tile's `content.gltf`) this module reads. */
export interface TileGltf {
  scene?: { nodes?: readonly GltfNode[] }
  scenes?: readonly { nodes?: readonly GltfNode[] }[]
}

/** An image the GPU can take as it is. */
export type TileImage = ImageBitmap | HTMLImageElement | HTMLCanvasElement | ImageData

/** A glTF sampler: WebGL filter and wrap enums. */
export interface TileTextureSampler {
  magFilter: number
  minFilter: number
  wrapS: number
  wrapT: number
}

const linear = 9729
const linearMipmapLinear = 9987
const repeat = 10497

/**
 * The sampler a texture is drawn with. A glTF without one gets repeat wrapping and "auto"
 * filtering (glTF 2.0 §3.8.4), which here means trilinear.
 */
function samplerOf(sampler: Partial<TileTextureSampler> | undefined): TileTextureSampler {
  return {
    magFilter: sampler?.magFilter ?? linear,
    minFilter: sampler?.minFilter ?? linearMipmapLinear,
    wrapS: sampler?.wrapS ?? repeat,
    wrapT: sampler?.wrapT ?? repeat,
  }
}

/** Whether a minification filter reads mip levels (which must then be generated). */
export function usesMipmaps(minFilter: number): boolean {
  return minFilter >= 9984 && minFilter <= 9987
}

/** One drawable triangle mesh of a tile. */
export interface TileMesh {
  /** Scene space of the tile's glTF (node transforms applied), column-major. */
  matrix: number[]
  positions: Float32Array
  normals: Float32Array | null
  texCoords: Float32Array | null
  /** RGBA per vertex, 0–1. */
  colors: Float32Array | null
  indices: Uint16Array | Uint32Array | null
  vertexCount: number
  /** RGBA, 0–1. */
  baseColor: [number, number, number, number]
  texture: TileImage | null
  textureSampler: TileTextureSampler
  /** KHR_materials_unlit, or photogrammetry (textured, no normals): the texture is the light. */
  isUnlit: boolean
  /** Fragments below this alpha are dropped (alphaMode MASK); 0 draws everything. */
  alphaCutoff: number
}

const trianglesMode = 4

/** The local transform of a glTF node (matrix, else translation · rotation · scale). */
export function nodeMatrix(node: GltfNode): Matrix4 {
  if (node.matrix) return new Matrix4(node.matrix as number[])
  const matrix = new Matrix4()
  if (node.translation) matrix.translate(node.translation as number[])
  if (node.rotation) matrix.multiplyRight(new Matrix4().fromQuaternion(node.rotation as number[]))
  if (node.scale) matrix.scale(node.scale as number[])
  return matrix
}

/** Calls `visit` for each triangle-list primitive of the glTF's scene with its node's transform. */
export function forEachTrianglePrimitive(
  gltf: TileGltf,
  visit: (primitive: GltfPrimitive, sceneMatrix: Matrix4) => void,
): void {
  const rootNodes = gltf.scene?.nodes ?? gltf.scenes?.[0]?.nodes ?? []
  const walk = (node: GltfNode, parentMatrix: Matrix4) => {
    const sceneMatrix = new Matrix4(parentMatrix).multiplyRight(nodeMatrix(node))
    for (const primitive of node.mesh?.primitives ?? []) {
      if ((primitive.mode ?? trianglesMode) === trianglesMode) visit(primitive, sceneMatrix)
    }
    for (const child of node.children ?? []) walk(child, sceneMatrix)
  }
  for (const node of rootNodes) walk(node, new Matrix4())
}

/** The largest value of a normalized integer component type, to bring it to 0–1 (or −1–1). */
function normalizedScale(values: ArrayLike<number>): number {
  if (values instanceof Uint8Array || values instanceof Uint8ClampedArray) return 255
  if (values instanceof Int8Array) return 127
  if (values instanceof Uint16Array) return 65535
  if (values instanceof Int16Array) return 32767
  return 1
}

/**
 * The accessor as a tight Float32Array of `components` per vertex (quantized and normalized
 * attributes are converted; a Float32Array of the right shape is used as it is).
 */
function floatAttribute(
  accessor: GltfAccessor | undefined,
  components: number,
  vertexCount: number,
): Float32Array | null {
  const values = accessor?.value
  if (!values) return null
  const sourceComponents = accessor.components ?? accessor.size ?? values.length / vertexCount
  if (values instanceof Float32Array && sourceComponents === components) return values
  const isNormalized = accessor.normalized === true
  const scale = isNormalized ? normalizedScale(values) : 1
  const output = new Float32Array(vertexCount * components)
  for (let vertex = 0; vertex < vertexCount; vertex++) {
    for (let component = 0; component < components; component++) {
      // A missing fourth colour component (RGB vertex colours) is opaque.
      if (component >= sourceComponents) {
        output[vertex * components + component] = 1
        continue
      }
      const value = values[vertex * sourceComponents + component]! / scale
      // Signed normalized integers reach −1 at both their two lowest values (glTF 3.11).
      output[vertex * components + component] = isNormalized ? Math.max(-1, value) : value
    }
  }
  return output
}

function indexArray(
  accessor: GltfAccessor | undefined,
  vertexCount: number,
): Uint16Array | Uint32Array | null {
  const values = accessor?.value
  if (!values) return null
  if (values instanceof Uint32Array) return values
  if (values instanceof Uint16Array) return values
  return vertexCount <= 65536 ? Uint16Array.from(values) : Uint32Array.from(values)
}

function isDrawableImage(image: unknown): image is TileImage {
  return (
    (typeof ImageBitmap !== 'undefined' && image instanceof ImageBitmap) ||
    (typeof HTMLImageElement !== 'undefined' && image instanceof HTMLImageElement) ||
    (typeof HTMLCanvasElement !== 'undefined' && image instanceof HTMLCanvasElement) ||
    (typeof ImageData !== 'undefined' && image instanceof ImageData)
  )
}

/** The drawable meshes of a tile's glTF; primitives without positions are skipped. */
export function collectTileMeshes(gltf: TileGltf): TileMesh[] {
  const meshes: TileMesh[] = []
  forEachTrianglePrimitive(gltf, (primitive, sceneMatrix) => {
    const positionAccessor = primitive.attributes.POSITION
    const positionValues = positionAccessor?.value
    if (!positionValues) return
    const vertexCount = Math.floor(
      positionValues.length / (positionAccessor.components ?? positionAccessor.size ?? 3),
    )
    if (vertexCount === 0) return
    const material = primitive.material
    const pbr = material?.pbrMetallicRoughness
    const textureInfo = pbr?.baseColorTexture
    const image = textureInfo?.texture?.source?.image
    const texture = isDrawableImage(image) ? image : null
    const texCoords = texture
      ? floatAttribute(
          primitive.attributes[`TEXCOORD_${textureInfo?.texCoord ?? 0}`],
          2,
          vertexCount,
        )
      : null
    const normals = floatAttribute(primitive.attributes.NORMAL, 3, vertexCount)
    const factor = pbr?.baseColorFactor
    meshes.push({
      matrix: [...sceneMatrix],
      positions: floatAttribute(positionAccessor, 3, vertexCount)!,
      normals,
      texCoords: texture && texCoords ? texCoords : null,
      colors: floatAttribute(primitive.attributes.COLOR_0, 4, vertexCount),
      indices: indexArray(primitive.indices, vertexCount),
      vertexCount,
      baseColor: [factor?.[0] ?? 1, factor?.[1] ?? 1, factor?.[2] ?? 1, factor?.[3] ?? 1],
      texture: texture && texCoords ? texture : null,
      textureSampler: samplerOf(textureInfo?.texture?.sampler),
      isUnlit:
        Boolean(material?.extensions?.KHR_materials_unlit) ||
        (Boolean(texture && texCoords) && !normals),
      alphaCutoff: material?.alphaMode === 'MASK' ? (material.alphaCutoff ?? 0.5) : 0,
    })
  })
  return meshes
}
