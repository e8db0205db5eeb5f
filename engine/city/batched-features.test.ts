import { readFileSync } from 'node:fs'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { parse } from '@loaders.gl/core'
import { describe, expect, it } from 'vitest'
import {
  type BatchedGltf,
  batchLength,
  collectBatchedPrimitives,
  featureProperties,
  featureTrianglePositions,
  nearestBatchId,
  type TileContentTables,
} from './batched-features'

/** The fixture b3dm (10 buildings) parsed by loaders.gl as the Tile3DLayer parses it. */
async function loadFixtureContent(): Promise<TileContentTables & { gltf: BatchedGltf }> {
  const bytes = readFileSync(
    new URL('./fixtures/batched/batchedWithBatchTable.b3dm', import.meta.url),
  )
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
  return (await parse(buffer, Tiles3DLoader, { '3d-tiles': { isTileset: false } })) as never
}

describe('batched features of a b3dm', () => {
  it('reads every property of a feature from the batch table, JSON-safe', async () => {
    const content = await loadFixtureContent()
    expect(batchLength(content)).toBe(10)
    const properties = featureProperties(content, 3)
    expect(properties.id).toBe(3)
    expect(properties.info).toEqual({ name: 'building3', year: 3 })
    expect(properties.rooms).toEqual(['room3_a', 'room3_b', 'room3_c'])
    expect(properties.Longitude).toBeCloseTo(-1.3196656317210846, 12)
    expect(JSON.parse(JSON.stringify(properties))).toEqual(properties)
    expect(featureProperties(content, 10)).toEqual({})
    expect(featureProperties(content, -1)).toEqual({})
  })

  it('names the feature whose vertices are closest to a point', async () => {
    const content = await loadFixtureContent()
    const primitives = collectBatchedPrimitives(content.gltf)
    expect(primitives).toHaveLength(1)
    for (const featureId of [0, 4, 9]) {
      // The centroid of the feature's own triangles lies on or in that building.
      const triangles = featureTrianglePositions(primitives, featureId)
      expect(triangles.length).toBeGreaterThan(0)
      expect(triangles.length % 9).toBe(0)
      const centroid = [0, 0, 0] as [number, number, number]
      for (let index = 0; index < triangles.length; index += 3) {
        centroid[0] += triangles[index]! / (triangles.length / 3)
        centroid[1] += triangles[index + 1]! / (triangles.length / 3)
        centroid[2] += triangles[index + 2]! / (triangles.length / 3)
      }
      expect(nearestBatchId(primitives, centroid)?.batchId).toBe(featureId)
    }
    expect(nearestBatchId([], [0, 0, 0])).toBeNull()
  })

  it('splits the mesh into features: every triangle belongs to exactly one', async () => {
    const content = await loadFixtureContent()
    const primitives = collectBatchedPrimitives(content.gltf)
    const totalTriangles = primitives[0]!.triangleIndices.length / 3
    let sum = 0
    for (let featureId = 0; featureId < 10; featureId++) {
      sum += featureTrianglePositions(primitives, featureId).length / 9
    }
    expect(sum).toBe(totalTriangles)
  })

  it('applies node transforms: a translated node moves its vertices', () => {
    const gltf: BatchedGltf = {
      scene: {
        nodes: [
          {
            translation: [10, 0, 0],
            children: [
              {
                scale: [2, 2, 2],
                mesh: {
                  primitives: [
                    {
                      attributes: {
                        POSITION: { value: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]) },
                        _BATCHID: { value: new Float32Array([7, 7, 7]) },
                      },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    }
    const [primitive] = collectBatchedPrimitives(gltf)
    expect(Array.from(primitive!.positions)).toEqual([10, 0, 0, 12, 0, 0, 10, 2, 0])
    expect(nearestBatchId([primitive!], [12, 0.1, 0])).toEqual({
      batchId: 7,
      distanceMeters: expect.closeTo(0.1, 6),
    })
  })
})
