import type { DecodedSbm } from '../../../workers/sbm/decoded-sbm'

/**
 * A template's model as deck's `SimpleMeshLayer` draws it: one merged triangle list in metres,
 * x east, y north, z up, with the materials' base colours as vertex colours.
 */
export interface PoiMesh {
  attributes: {
    positions: { value: Float32Array; size: 3 }
    normals: { value: Float32Array; size: 3 }
    colors: { value: Float32Array; size: 3 }
  }
  indices: { value: Uint32Array; size: 1 }
  /** Height of the model's top above its origin, metres (for picking and framing). */
  topMeters: number
}

const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

/**
 * Flattens a decoded SBM (meshes placed by their nodes' world matrices) into one mesh. glTF is
 * y-up; the city's model frame is z-up, so (x, y, z) becomes (x, −z, y): the model's front
 * (+z in glTF) faces south before the POI's heading turns it.
 */
export function poiMeshOfSbm(model: DecodedSbm): PoiMesh {
  const placements =
    model.instances.length > 0
      ? model.instances.map((instance) => ({
          meshIndex: instance.meshIndex,
          matrix: instance.matrixWorld,
        }))
      : model.meshes.map((_, meshIndex) => ({ meshIndex, matrix: identity }))
  let vertexCount = 0
  let indexCount = 0
  for (const placement of placements) {
    for (const primitiveId of model.meshes[placement.meshIndex]?.primitiveIds ?? []) {
      const primitive = model.primitives[primitiveId]
      if (!primitive) continue
      vertexCount += primitive.vertexCount
      indexCount += primitive.indexCount
    }
  }
  const positions = new Float32Array(vertexCount * 3)
  const normals = new Float32Array(vertexCount * 3)
  const colors = new Float32Array(vertexCount * 3)
  const indices = new Uint32Array(indexCount)
  let vertexAt = 0
  let indexAt = 0
  let topMeters = 0
  for (const { meshIndex, matrix: m } of placements) {
    for (const primitiveId of model.meshes[meshIndex]?.primitiveIds ?? []) {
      const primitive = model.primitives[primitiveId]
      if (!primitive) continue
      const material =
        primitive.materialIndex === null ? undefined : model.materials[primitive.materialIndex]
      const [red = 0.8, green = 0.8, blue = 0.8] = material?.baseColorFactor ?? []
      for (let vertex = 0; vertex < primitive.vertexCount; vertex++) {
        const source = (primitive.vertexOffset + vertex) * 3
        const x = model.positions[source]!
        const y = model.positions[source + 1]!
        const z = model.positions[source + 2]!
        // Column-major world matrix.
        const worldX = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!
        const worldY = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!
        const worldZ = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!
        const target = (vertexAt + vertex) * 3
        positions[target] = worldX
        positions[target + 1] = -worldZ
        positions[target + 2] = worldY
        topMeters = Math.max(topMeters, worldY)
        if (model.normals) {
          const nx = model.normals[source]!
          const ny = model.normals[source + 1]!
          const nz = model.normals[source + 2]!
          const worldNx = m[0]! * nx + m[4]! * ny + m[8]! * nz
          const worldNy = m[1]! * nx + m[5]! * ny + m[9]! * nz
          const worldNz = m[2]! * nx + m[6]! * ny + m[10]! * nz
          const length = Math.hypot(worldNx, worldNy, worldNz) || 1
          normals[target] = worldNx / length
          normals[target + 1] = -worldNz / length
          normals[target + 2] = worldNy / length
        } else {
          normals[target + 2] = 1
        }
        colors[target] = red
        colors[target + 1] = green
        colors[target + 2] = blue
      }
      for (let index = 0; index < primitive.indexCount; index++) {
        indices[indexAt + index] = model.indices[primitive.indexOffset + index]! + vertexAt
      }
      vertexAt += primitive.vertexCount
      indexAt += primitive.indexCount
    }
  }
  return {
    attributes: {
      positions: { value: positions, size: 3 },
      normals: { value: normals, size: 3 },
      colors: { value: colors, size: 3 },
    },
    indices: { value: indices, size: 1 },
    topMeters,
  }
}
