import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  ClampToEdgeWrapping,
  Color,
  DoubleSide,
  FrontSide,
  Group,
  LinearFilter,
  LinearMipmapLinearFilter,
  LinearMipmapNearestFilter,
  LinearSRGBColorSpace,
  type MagnificationTextureFilter,
  type Material,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  MirroredRepeatWrapping,
  type MinificationTextureFilter,
  NearestFilter,
  NearestMipmapLinearFilter,
  NearestMipmapNearestFilter,
  RepeatWrapping,
  Sphere,
  SRGBColorSpace,
  Texture,
  Vector3,
  type Wrapping,
} from 'three'
import type { MeshBVH } from 'three-mesh-bvh'
import type { DecodedSbm, DecodedTexture, DecodedTextureReference } from './decoded-sbm'
import { deserializeStoredBvh } from './deserialize-bvh'

/** What {@link createSbmObject} builds; `dispose` frees every GPU-side resource it made. */
export interface SbmThreeModel {
  /** Add this to the scene. Each child is a Mesh placed by its glTF node's world matrix. */
  root: Group
  geometries: BufferGeometry[]
  /**
   * One BVH per geometry, in the same order, already set as `geometry.boundsTree`; none when the
   * decode gave its BVHs to the picking worker (`forPicking`).
   */
  bvhs: MeshBVH[]
  materials: Material[]
  textures: Texture[]
  /** Resolves when every texture image is decoded and attached (at once if none). */
  texturesReady: Promise<void>
  dispose(): void
}

/** Options: images the decode worker already turned into ImageBitmaps (same order as `images`). */
export interface CreateSbmObjectOptions {
  imageBitmaps?: (ImageBitmap | null)[]
}

const wrapModes: Record<number, Wrapping> = {
  33071: ClampToEdgeWrapping,
  33648: MirroredRepeatWrapping,
  10497: RepeatWrapping,
}
const magFilters: Record<number, MagnificationTextureFilter> = {
  9728: NearestFilter,
  9729: LinearFilter,
}
const minFilters: Record<number, MinificationTextureFilter> = {
  9728: NearestFilter,
  9729: LinearFilter,
  9984: NearestMipmapNearestFilter,
  9985: LinearMipmapNearestFilter,
  9986: NearestMipmapLinearFilter,
  9987: LinearMipmapLinearFilter,
}

/**
 * Turns a decoded SBM into three.js objects on the main thread without copying or rebuilding:
 * attributes are views into the decode's few large buffers, each BVH is `MeshBVH.deserialize`d
 * from its stored roots, and bounding volumes come precomputed, so three.js never walks the
 * vertices here. Textures attach when their images are decoded (off the main thread where the
 * browser can).
 */
export function createSbmObject(
  decoded: DecodedSbm,
  options: CreateSbmObjectOptions = {},
): SbmThreeModel {
  const geometries: BufferGeometry[] = []
  const bvhs: MeshBVH[] = []
  for (const primitive of decoded.primitives) {
    const geometry = new BufferGeometry()
    const vertexStart = primitive.vertexOffset
    const vertexEnd = vertexStart + primitive.vertexCount
    geometry.setAttribute(
      'position',
      new BufferAttribute(decoded.positions.subarray(vertexStart * 3, vertexEnd * 3), 3),
    )
    if (decoded.normals) {
      geometry.setAttribute(
        'normal',
        new BufferAttribute(decoded.normals.subarray(vertexStart * 3, vertexEnd * 3), 3),
      )
    }
    if (decoded.uvs && primitive.hasUvs) {
      geometry.setAttribute(
        'uv',
        new BufferAttribute(decoded.uvs.subarray(vertexStart * 2, vertexEnd * 2), 2),
      )
    }
    const index = decoded.indices.subarray(
      primitive.indexOffset,
      primitive.indexOffset + primitive.indexCount,
    )
    geometry.setIndex(new BufferAttribute(index, 1))
    const [minX, minY, minZ, maxX, maxY, maxZ] = primitive.boundingBox
    geometry.boundingBox = new Box3(new Vector3(minX, minY, minZ), new Vector3(maxX, maxY, maxZ))
    const [centerX, centerY, centerZ, radius] = primitive.boundingSphere
    geometry.boundingSphere = new Sphere(new Vector3(centerX, centerY, centerZ), radius)
    // A decode made for the picking worker too has handed its BVHs over (takeForPicking).
    if (primitive.bvhRootIndices.length > 0 && decoded.bvhRoots.length > 0) {
      const bvh = deserializeStoredBvh(
        primitive.bvhRootIndices.map((rootIndex) => decoded.bvhRoots[rootIndex]!),
        index,
        geometry,
      )
      geometry.boundsTree = bvh
      bvhs.push(bvh)
    }
    geometries.push(geometry)
  }

  const textureSlots = decoded.textures.map(() => [] as Texture[])
  const textures: Texture[] = []
  const textureFor = (
    reference: DecodedTextureReference | null,
    isColor: boolean,
  ): Texture | null => {
    if (!reference) return null
    const definition = decoded.textures[reference.textureIndex]
    if (!definition || definition.imageIndex === null) return null
    const texture = createTexture(definition, isColor)
    if (reference.transform) {
      texture.offset.fromArray(reference.transform.offset)
      texture.repeat.fromArray(reference.transform.scale)
      texture.rotation = reference.transform.rotation
    }
    textureSlots[reference.textureIndex]!.push(texture)
    textures.push(texture)
    return texture
  }

  const materials: Material[] = decoded.materials.map((definition) => {
    const [red, green, blue, alpha] = definition.baseColorFactor
    const common = {
      name: definition.name,
      color: new Color().setRGB(red, green, blue, LinearSRGBColorSpace),
      opacity: alpha,
      transparent: definition.alphaMode === 'BLEND',
      depthWrite: definition.alphaMode !== 'BLEND',
      alphaTest: definition.alphaMode === 'MASK' ? definition.alphaCutoff : 0,
      side: definition.isDoubleSided ? DoubleSide : FrontSide,
      map: textureFor(definition.baseColorTexture, true),
    }
    if (definition.isUnlit) return new MeshBasicMaterial(common)
    const [emissiveRed, emissiveGreen, emissiveBlue] = definition.emissiveFactor
    const metalRoughness = textureFor(definition.metallicRoughnessTexture, false)
    const normalMap = textureFor(definition.normalTexture, false)
    const material = new MeshStandardMaterial({
      ...common,
      metalness: definition.metallicFactor,
      roughness: definition.roughnessFactor,
      metalnessMap: metalRoughness,
      roughnessMap: metalRoughness,
      normalMap,
      aoMap: textureFor(definition.occlusionTexture, false),
      emissive: new Color().setRGB(emissiveRed, emissiveGreen, emissiveBlue, LinearSRGBColorSpace),
      emissiveMap: textureFor(definition.emissiveTexture, true),
    })
    // glTF normal maps use +Y up in tangent space while three.js flips Y for its own convention.
    if (normalMap) material.normalScale.set(definition.normalScale, -definition.normalScale)
    return material
  })
  const defaultMaterial = new MeshStandardMaterial({ color: 0xffffff, metalness: 0, roughness: 1 })
  materials.push(defaultMaterial)

  const root = new Group()
  root.name = decoded.header.source?.name ?? 'sbm'
  decoded.instances.forEach((instance, instanceIndex) => {
    for (const primitiveId of decoded.meshes[instance.meshIndex]!.primitiveIds) {
      const primitive = decoded.primitives[primitiveId]!
      const material =
        primitive.materialIndex === null
          ? defaultMaterial
          : (materials[primitive.materialIndex] ?? defaultMaterial)
      const mesh = new Mesh(geometries[primitiveId]!, material)
      mesh.name = instance.name
      mesh.matrix.fromArray(instance.matrixWorld)
      mesh.matrixAutoUpdate = false
      mesh.userData = {
        nodeIndex: instance.nodeIndex,
        meshIndex: instance.meshIndex,
        primitiveIndex: primitive.primitiveIndex,
        instanceIndex,
      }
      root.add(mesh)
    }
  })
  root.updateMatrixWorld(true)

  const texturesReady = attachImages(decoded, textureSlots, options.imageBitmaps ?? [])
  return {
    root,
    geometries,
    bvhs,
    materials,
    textures,
    texturesReady,
    dispose() {
      root.removeFromParent()
      for (const geometry of geometries) {
        geometry.boundsTree = undefined
        geometry.dispose()
      }
      for (const material of materials) material.dispose()
      for (const texture of textures) {
        const image = texture.image as ImageBitmap | null
        texture.dispose()
        if (image && typeof image.close === 'function') image.close()
      }
    },
  }
}

function createTexture(definition: DecodedTexture, isColor: boolean): Texture {
  const texture = new Texture()
  // glTF images are top-down with UV (0,0) at the top-left, so no flip.
  texture.flipY = false
  texture.colorSpace = isColor ? SRGBColorSpace : LinearSRGBColorSpace
  texture.wrapS = wrapModes[definition.wrapS] ?? RepeatWrapping
  texture.wrapT = wrapModes[definition.wrapT] ?? RepeatWrapping
  texture.magFilter = magFilters[definition.magFilter ?? -1] ?? LinearFilter
  texture.minFilter = minFilters[definition.minFilter ?? -1] ?? LinearMipmapLinearFilter
  return texture
}

async function attachImages(
  decoded: DecodedSbm,
  textureSlots: Texture[][],
  bitmaps: (ImageBitmap | null)[],
): Promise<void> {
  const canDecode = typeof createImageBitmap === 'function'
  const images = await Promise.all(
    decoded.images.map(async (image, imageIndex) => {
      const ready = bitmaps[imageIndex]
      if (ready) return ready
      if (!canDecode || !decoded.imageBytes || image.byteLength === 0) return null
      try {
        const bytes = decoded.imageBytes.subarray(
          image.byteOffset,
          image.byteOffset + image.byteLength,
        )
        return await createImageBitmap(new Blob([bytes], { type: image.mimeType }), {
          imageOrientation: 'none',
          premultiplyAlpha: 'none',
          colorSpaceConversion: 'none',
        })
      } catch {
        return null
      }
    }),
  )
  decoded.textures.forEach((definition, textureIndex) => {
    const image = definition.imageIndex === null ? null : images[definition.imageIndex]
    if (!image) return
    for (const texture of textureSlots[textureIndex]!) {
      texture.image = image
      texture.needsUpdate = true
    }
  })
}
