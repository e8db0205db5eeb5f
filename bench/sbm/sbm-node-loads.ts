/**
 * The two loads the sbm-node benchmark compares, shared by its timed rounds and by the
 * peak-memory child processes (`sbm-load-memory.ts`), so both measure exactly the same code.
 */
import type { BufferGeometry, Mesh, Object3D } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { MeshBVH } from 'three-mesh-bvh'
import { decodeSbm } from '../../workers/sbm/decode-sbm'
import { createSbmObject } from '../../workers/sbm/sbm-three'

/** A copy of the bytes as their own ArrayBuffer: what GLTFLoader.parse takes. */
export function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/**
 * The anchor, the common three.js path: parse the plain GLB, then build a BVH for every mesh,
 * all on one thread. Takes an ArrayBuffer so the caller can make it before timing or measuring.
 */
export async function loadAnchor(glb: ArrayBuffer) {
  const gltf = await new GLTFLoader().parseAsync(glb, '')
  const meshes: Mesh[] = []
  gltf.scene.traverse((object: Object3D) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    mesh.geometry.boundsTree = new MeshBVH(mesh.geometry)
    meshes.push(mesh)
  })
  gltf.scene.updateMatrixWorld(true)
  const geometries = [...new Set<BufferGeometry>(meshes.map((mesh) => mesh.geometry))]
  return { scene: gltf.scene, meshes, geometries }
}

/** Ours: validate, decode (meshopt), deserialize the stored BVHs, make three.js objects. */
export async function loadOurs(sbm: Uint8Array) {
  const decoded = await decodeSbm(sbm)
  const wrapStartMs = performance.now()
  const model = createSbmObject(decoded)
  const timings = { ...decoded.timings, createSbmObject: performance.now() - wrapStartMs }
  return { decoded, model, geometries: model.geometries, timings }
}

/**
 * The geometry's bytes: position, normal and uv attributes plus the index, over distinct
 * geometries. Counted from element counts rather than `array.byteLength`, so an interleaved
 * buffer or a view into a larger buffer counts only these attributes' own data.
 */
export function geometryBytesOf(geometries: readonly BufferGeometry[]): number {
  let total = 0
  for (const geometry of new Set(geometries)) {
    for (const name of ['position', 'normal', 'uv']) {
      const attribute = geometry.getAttribute(name)
      if (attribute) {
        total += attribute.count * attribute.itemSize * attribute.array.BYTES_PER_ELEMENT
      }
    }
    const index = geometry.getIndex()
    if (index) total += index.count * index.array.BYTES_PER_ELEMENT
  }
  return total
}
