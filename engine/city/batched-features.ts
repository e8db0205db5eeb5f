import { Tile3DBatchTable } from '@loaders.gl/3d-tiles'
import { forEachTrianglePrimitive, type TileGltf } from './tile-meshes'

/**
 * Batched features of b3dm tiles. deck.gl picks a whole tile's scenegraph, not the feature
 * under the cursor, so the feature is found here on the CPU: the picked surface point is
 * brought into the tile's glTF scene space and the closest vertex's `_BATCHID` names it. The
 * same vertex data gives the triangles drawn as the selection highlight.
 */

/** The parts of a post-processed glTF this module reads. */
export type BatchedGltf = TileGltf

/** One triangle primitive whose vertices carry batch ids, its positions already in scene space. */
export interface BatchedPrimitive {
  /** xyz per vertex, node transforms applied. */
  positions: Float64Array
  batchIds: ArrayLike<number>
  /** Three vertex indices per triangle. */
  triangleIndices: ArrayLike<number>
}

/** Triangle primitives with a `_BATCHID` attribute, in the scene space of the tile's glTF. */
export function collectBatchedPrimitives(gltf: BatchedGltf): BatchedPrimitive[] {
  const primitives: BatchedPrimitive[] = []
  forEachTrianglePrimitive(gltf, (primitive, sceneMatrix) => {
    const positionValues = primitive.attributes.POSITION?.value
    const batchIds = primitive.attributes._BATCHID?.value
    if (!positionValues || !batchIds) return
    const vertexCount = positionValues.length / 3
    const positions = new Float64Array(positionValues.length)
    const point = [0, 0, 0]
    for (let vertex = 0; vertex < vertexCount; vertex++) {
      point[0] = positionValues[vertex * 3]!
      point[1] = positionValues[vertex * 3 + 1]!
      point[2] = positionValues[vertex * 3 + 2]!
      const transformed = sceneMatrix.transformAsPoint(point)
      positions[vertex * 3] = transformed[0]!
      positions[vertex * 3 + 1] = transformed[1]!
      positions[vertex * 3 + 2] = transformed[2]!
    }
    const triangleIndices =
      primitive.indices?.value ?? Uint32Array.from({ length: vertexCount }, (_, index) => index)
    primitives.push({ positions, batchIds, triangleIndices })
  })
  return primitives
}

/** The batch id of the vertex closest to `point` (scene space), and how far it is. */
export function nearestBatchId(
  primitives: readonly BatchedPrimitive[],
  point: readonly [number, number, number],
): { batchId: number; distanceMeters: number } | null {
  let best: { batchId: number; distanceSquared: number } | null = null
  for (const { positions, batchIds } of primitives) {
    for (let vertex = 0; vertex < batchIds.length; vertex++) {
      const dx = positions[vertex * 3]! - point[0]
      const dy = positions[vertex * 3 + 1]! - point[1]
      const dz = positions[vertex * 3 + 2]! - point[2]
      const distanceSquared = dx * dx + dy * dy + dz * dz
      if (!best || distanceSquared < best.distanceSquared) {
        best = { batchId: batchIds[vertex]!, distanceSquared }
      }
    }
  }
  return best && { batchId: best.batchId, distanceMeters: Math.sqrt(best.distanceSquared) }
}

/** The triangles of one feature as a flat, non-indexed xyz list (scene space). */
export function featureTrianglePositions(
  primitives: readonly BatchedPrimitive[],
  batchId: number,
): Float32Array {
  const output: number[] = []
  for (const { positions, batchIds, triangleIndices } of primitives) {
    for (let corner = 0; corner + 2 < triangleIndices.length; corner += 3) {
      const a = triangleIndices[corner]!
      const b = triangleIndices[corner + 1]!
      const c = triangleIndices[corner + 2]!
      // A triangle belongs to the feature its first vertex names: b3dm never mixes ids in one.
      if (batchIds[a] !== batchId) continue
      for (const vertex of [a, b, c]) {
        output.push(positions[vertex * 3]!, positions[vertex * 3 + 1]!, positions[vertex * 3 + 2]!)
      }
    }
  }
  return Float32Array.from(output)
}

/** How many features a batch table describes (b3dm BATCH_LENGTH, i3dm INSTANCES_LENGTH). */
export function batchLength(content: TileContentTables): number {
  const featureTable = content.featureTableJson ?? {}
  const length = featureTable.BATCH_LENGTH ?? featureTable.INSTANCES_LENGTH
  return typeof length === 'number' ? length : 0
}

/** The feature and batch tables of a loaded b3dm / i3dm tile content. */
export interface TileContentTables {
  featureTableJson?: { BATCH_LENGTH?: unknown; INSTANCES_LENGTH?: unknown }
  batchTableJson?: Record<string, unknown>
  batchTableBinary?: Uint8Array
}

/** Makes batch-table values JSON-safe: typed arrays and vectors become plain arrays. */
function toPlainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>)
  if (Array.isArray(value)) return value.map(toPlainValue)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, entry]) => [
        key,
        toPlainValue(entry),
      ]),
    )
  }
  return value
}

/**
 * The batch-table properties of one feature, JSON arrays and binary properties alike (the
 * hierarchy extension included, through loaders.gl's batch table), as plain JSON values.
 */
export function featureProperties(
  content: TileContentTables,
  featureId: number,
): Record<string, unknown> {
  const count = batchLength(content)
  if (!content.batchTableJson || featureId < 0 || featureId >= count) return {}
  const table = new Tile3DBatchTable(content.batchTableJson, content.batchTableBinary, count)
  const names: string[] = table.getPropertyNames(featureId, [])
  const properties: Record<string, unknown> = {}
  for (const name of names) properties[name] = toPlainValue(table.getProperty(featureId, name))
  return properties
}
