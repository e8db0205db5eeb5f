import { readFileSync } from 'node:fs'
import { Matrix4 } from '@math.gl/core'
import { describe, expect, it } from 'vitest'
import {
  cloneableLoadOptions,
  needsMainThreadParse,
  parseTileContent,
  restoreTileContent,
  tileContentTransferables,
} from './tile-content'

/** CesiumGS 3d-tiles-tools spec data (see ../shared/data README). */
const toolsData = new URL('../../../shared/data/3dtiles/tools/', import.meta.url)

function readTile(relativePath: string): ArrayBuffer {
  const bytes = readFileSync(new URL(relativePath, toolsData))
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/** What a parsed content looks like after the trip to the main thread. */
function sendToMainThread(content: Record<string, unknown>): Record<string, unknown> {
  const transfer = tileContentTransferables(content)
  return restoreTileContent(structuredClone(content, { transfer }))
}

const parseOptions = { '3d-tiles': { loadGLTF: true }, core: { worker: false } }

describe('cloneableLoadOptions', () => {
  it('keeps the plain option values and drops what cannot cross to a worker', () => {
    class Log {
      warn() {}
    }
    const options = {
      '3d-tiles': { loadGLTF: true, assetGltfUpAxis: 'Y', isTileset: false },
      core: { worker: true, fetch: () => undefined, log: { console }, baseUrl: 'http://x/a' },
      draco: { workerUrl: '/assets/draco-worker.js', libraryPath: null },
      basis: { format: 'rgba32' },
      gltf: { excludeExtensions: { KHR_draco_mesh_compression: true } },
      tileset: new Log(),
      onProgress: () => undefined,
      transforms: [1, 'two'],
    }
    const copy = cloneableLoadOptions(options)
    expect(copy).toEqual({
      '3d-tiles': { loadGLTF: true, assetGltfUpAxis: 'Y', isTileset: false },
      core: { worker: true, baseUrl: 'http://x/a' },
      draco: { workerUrl: '/assets/draco-worker.js', libraryPath: null },
      basis: { format: 'rgba32' },
      gltf: { excludeExtensions: { KHR_draco_mesh_compression: true } },
      transforms: [1, 'two'],
    })
    expect(() => structuredClone(copy)).not.toThrow()
  })
})

describe('needsMainThreadParse', () => {
  it('sends tiles whose glTF names WebP or AVIF images to the main thread', () => {
    const encoder = new TextEncoder()
    const withName = (text: string) => encoder.encode(text).buffer as ArrayBuffer
    expect(needsMainThreadParse(withName('{"extensionsUsed":["EXT_texture_webp"]}'))).toBe(true)
    expect(needsMainThreadParse(withName('xxEXT_texture_avif'))).toBe(true)
    expect(needsMainThreadParse(withName('EXT_texture_avi'))).toBe(false)
    expect(needsMainThreadParse(withName('EXT_texture_ktx2 EXT_meshopt_compression'))).toBe(false)
    expect(needsMainThreadParse(readTile('BatchedTextured/batchedTextured.b3dm'))).toBe(false)
  })
})

describe('parseTileContent', () => {
  it('parses a b3dm whose batch table and glTF survive the transfer to the main thread', async () => {
    const data = readTile('BatchedWithBatchTable/batchedWithBatchTable.b3dm')
    const content = await parseTileContent(data, 'http://tiles/b.b3dm', parseOptions)
    const transfer = tileContentTransferables(content)
    // Every buffer once: a second listing of the same buffer would make the transfer throw.
    expect(new Set(transfer).size).toBe(transfer.length)
    expect(transfer.length).toBeLessThan(10)

    const received = sendToMainThread(content) as {
      type: string
      batchTableJson: { id: number[]; info: { name: string }[] }
      featureTableJson: { BATCH_LENGTH: number }
      gltf: { meshes: { primitives: { attributes: { POSITION: { value: Float32Array } } }[] }[] }
    }
    expect(received.type).toBe('b3dm')
    expect(received.featureTableJson.BATCH_LENGTH).toBe(10)
    expect(received.batchTableJson.id).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(received.batchTableJson.info[3]?.name).toBe('building3')
    const positions = received.gltf.meshes[0]?.primitives[0]?.attributes.POSITION.value
    expect(positions).toBeInstanceOf(Float32Array)
    expect(positions!.length).toBeGreaterThan(0)
    expect(positions!.length % 3).toBe(0)
  })

  it('gives i3dm instances their matrices back as math.gl Matrix4', async () => {
    const data = readTile('InstancedWithBatchTable/instancedWithBatchTable.i3dm')
    const content = await parseTileContent(data, 'http://tiles/i.i3dm', parseOptions)
    const received = sendToMainThread(content) as {
      instances: { modelMatrix: Matrix4; batchId: number }[]
    }
    expect(received.instances.length).toBeGreaterThan(1)
    const [first] = received.instances
    expect(first?.modelMatrix).toBeInstanceOf(Matrix4)
    // The same transform the parser computed (matrices are plain arrays: the source is intact).
    const original = (content as { instances: { modelMatrix: number[] }[] }).instances[0]
    expect([...first!.modelMatrix]).toEqual([...original!.modelMatrix])
    expect(first!.modelMatrix.transformAsPoint([0, 0, 0])[0]).not.toBe(0)
  })

  it('parses point cloud and composite tiles', async () => {
    const points = sendToMainThread(
      await parseTileContent(readTile('PointCloudRGB/pointCloudRGB.pnts'), 'p.pnts', parseOptions),
    ) as { type: string; pointCount: number; attributes: { positions: Float32Array } }
    expect(points.type).toBe('pnts')
    expect(points.attributes.positions.length).toBe(points.pointCount * 3)

    const composite = sendToMainThread(
      await parseTileContent(readTile('Composite/composite.cmpt'), 'c.cmpt', parseOptions),
    ) as { type: string; tiles: { type: string }[] }
    expect(composite.type).toBe('cmpt')
    expect(composite.tiles.map((tile) => tile.type).sort()).toEqual(['b3dm', 'i3dm'])
  })

  it('rejects a truncated tile with loaders.gl’s message', async () => {
    const data = readTile('BatchedWithBatchTable/batchedWithBatchTable.b3dm').slice(0, 60)
    await expect(parseTileContent(data, 'x.b3dm', parseOptions)).rejects.toThrow()
  })
})
