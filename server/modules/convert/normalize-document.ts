import { type Document, type mat4, type Node, Primitive } from '@gltf-transform/core'
import {
  convertPrimitiveToTriangles,
  dedup,
  dequantize,
  listNodeScenes,
  prune,
  reorder,
  uninstance,
  weld,
} from '@gltf-transform/functions'
import { Matrix4 } from 'three'
import { ConversionError } from './conversion-error'
import { type ServerMessage, serverMessage } from '../../../contract/messages'

/** The meshoptimizer encoder glTF-Transform's `reorder` needs. */
interface ReorderEncoder {
  ready: Promise<void>
}

/**
 * Turns any glTF into the static, Y-up, metre-scaled triangle scene SBM stores:
 * - applies `rootMatrix` (FBX units and axes) as one parent node of each scene's roots;
 * - drops animations, morph targets and skins, placing each skinned mesh at its bind pose;
 * - expands GPU instancing into nodes, strips and fans into triangle lists, quantized attributes
 *   into floats, and gives every triangle primitive an index (the BVH orders triangles through it);
 * - merges identical vertices, removes unused and duplicate data, and reorders vertices for
 *   meshopt compression.
 * Refuses a model with no triangles. Returns notes for the conversion summary.
 */
export async function normalizeDocument(
  document: Document,
  rootMatrix: number[] | null,
  encoder: ReorderEncoder,
): Promise<ServerMessage[]> {
  const warnings: ServerMessage[] = []
  const root = document.getRoot()
  ensureDefaultScene(document)

  const animationCount = root.listAnimations().length
  for (const animation of root.listAnimations()) animation.dispose()
  if (animationCount > 0) {
    warnings.push(serverMessage('convert.animationsDropped', { count: animationCount }))
  }

  placeSkinnedMeshesAtBindPose(document, warnings)
  dropMorphTargets(document, warnings)
  // Draco data is decoded on read; keeping the extension would make the writer re-encode it.
  for (const extension of root.listExtensionsUsed()) {
    if (extension.extensionName === 'KHR_draco_mesh_compression') extension.dispose()
  }
  await document.transform(uninstance())

  if (rootMatrix && !new Matrix4().fromArray(rootMatrix).equals(new Matrix4())) {
    for (const scene of root.listScenes()) {
      const normalizer = document.createNode('sbm-units-and-axes').setMatrix(rootMatrix as mat4)
      for (const child of scene.listChildren()) {
        scene.removeChild(child)
        normalizer.addChild(child)
      }
      scene.addChild(normalizer)
    }
  }

  for (const mesh of root.listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      const mode = primitive.getMode()
      if (mode === Primitive.Mode.TRIANGLE_STRIP || mode === Primitive.Mode.TRIANGLE_FAN) {
        convertPrimitiveToTriangles(primitive)
      }
    }
  }
  await document.transform(dequantize())
  addMissingIndices(document)

  // weld merges bit-identical vertices: DAE/FBX importers emit three per triangle.
  await document.transform(weld(), prune(), dedup())
  if (countSceneTriangles(document) === 0) {
    throw new ConversionError(
      'noMeshes',
      'the model has no triangle meshes, so there is nothing to show',
    )
  }
  await encoder.ready
  await document.transform(reorder({ encoder, target: 'size' }))
  return warnings
}

/**
 * Without its skeleton a skinned mesh would render in mesh space. Its bind pose in world space is
 * jointWorld × inverseBindMatrix of any joint (the same for all at rest), so the node is moved to
 * its scenes' root with that matrix and the skinning attributes are removed.
 */
function placeSkinnedMeshesAtBindPose(document: Document, warnings: ServerMessage[]): void {
  const root = document.getRoot()
  const skinnedNodes = root.listNodes().filter((node) => node.getSkin() !== null)
  for (const node of skinnedNodes) {
    const skin = node.getSkin()!
    const joint = skin.listJoints()[0]
    const inverseBind = skin.getInverseBindMatrices()
    const bind = new Matrix4()
    if (joint) {
      bind.fromArray(joint.getWorldMatrix())
      if (inverseBind && inverseBind.getCount() > 0) {
        bind.multiply(new Matrix4().fromArray(inverseBind.getElement(0, [])))
      }
    }
    const scenes = listNodeScenes(node)
    node.getParentNode()?.removeChild(node)
    for (const scene of scenes) {
      scene.removeChild(node)
      scene.addChild(node)
    }
    node.setMatrix(bind.elements as unknown as mat4).setSkin(null)
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      for (const semantic of primitive.listSemantics()) {
        if (/^(JOINTS|WEIGHTS)_\d+$/.test(semantic)) primitive.setAttribute(semantic, null)
      }
    }
  }
  for (const skin of root.listSkins()) skin.dispose()
  if (skinnedNodes.length > 0) {
    warnings.push(serverMessage('convert.skinnedMeshesAtBindPose', { count: skinnedNodes.length }))
  }
}

function dropMorphTargets(document: Document, warnings: ServerMessage[]): void {
  let count = 0
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      for (const target of primitive.listTargets()) {
        target.dispose()
        count++
      }
    }
    mesh.setWeights([])
  }
  for (const node of document.getRoot().listNodes()) node.setWeights([])
  if (count > 0) warnings.push(serverMessage('convert.morphTargetsDropped', { count }))
}

/**
 * glTF lets a file leave out scenes (or even nodes). Viewers then show nothing, but a converter
 * should not throw away the geometry: such files get one scene holding every root node, or a
 * node per mesh when there are no nodes at all.
 */
function ensureDefaultScene(document: Document): void {
  const root = document.getRoot()
  if (root.getDefaultScene()) return
  const [firstScene] = root.listScenes()
  if (firstScene) {
    root.setDefaultScene(firstScene)
    return
  }
  const scene = document.createScene('scene')
  const nodes = root.listNodes()
  if (nodes.length === 0) {
    for (const mesh of root.listMeshes())
      scene.addChild(document.createNode(mesh.getName()).setMesh(mesh))
  } else {
    for (const node of nodes) if (!node.getParentNode()) scene.addChild(node)
  }
  root.setDefaultScene(scene)
}

function addMissingIndices(document: Document): void {
  const buffer = document.getRoot().listBuffers()[0] ?? document.createBuffer()
  for (const mesh of document.getRoot().listMeshes()) {
    for (const primitive of mesh.listPrimitives()) {
      if (primitive.getMode() !== Primitive.Mode.TRIANGLES || primitive.getIndices()) continue
      const vertexCount = primitive.getAttribute('POSITION')?.getCount() ?? 0
      const indices =
        vertexCount > 65535 ? new Uint32Array(vertexCount) : new Uint16Array(vertexCount)
      for (let index = 0; index < vertexCount; index++) indices[index] = index
      primitive.setIndices(
        document.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer),
      )
    }
  }
}

/** Triangles drawn by the default scene (or any scene, for files without a default). */
export function countSceneTriangles(document: Document): number {
  const root = document.getRoot()
  const scenes = root.getDefaultScene() ? [root.getDefaultScene()!] : root.listScenes()
  let triangles = 0
  const visit = (node: Node) => {
    for (const primitive of node.getMesh()?.listPrimitives() ?? []) {
      if (primitive.getMode() !== Primitive.Mode.TRIANGLES) continue
      const count =
        primitive.getIndices()?.getCount() ?? primitive.getAttribute('POSITION')?.getCount()
      triangles += Math.floor((count ?? 0) / 3)
    }
    for (const child of node.listChildren()) visit(child)
  }
  for (const scene of scenes) for (const node of scene.listChildren()) visit(node)
  return triangles
}
