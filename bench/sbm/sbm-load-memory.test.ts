import { readFile } from 'node:fs/promises'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NodeIO } from '@gltf-transform/core'
import {
  BufferAttribute,
  BufferGeometry,
  InterleavedBuffer,
  InterleavedBufferAttribute,
} from 'three'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeSbm } from '../../workers/sbm/decode-sbm'
import { generateBuilding } from './generate-building'
import { measureLoadMemory } from './sbm-load-memory'
import { arrayBufferOf, geometryBytesOf, loadAnchor } from './sbm-node-loads'

describe('geometryBytesOf', () => {
  it('counts position, normal, uv and index data once per distinct geometry', () => {
    // 4 vertices interleaved as position(3) + normal(3) + color(4): the colour must not count.
    const interleaved = new InterleavedBuffer(new Float32Array(4 * 10), 10)
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new InterleavedBufferAttribute(interleaved, 3, 0))
    geometry.setAttribute('normal', new InterleavedBufferAttribute(interleaved, 3, 3))
    geometry.setAttribute('color', new InterleavedBufferAttribute(interleaved, 4, 6))
    geometry.setAttribute('uv', new BufferAttribute(new Float32Array(8), 2))
    geometry.setIndex(new BufferAttribute(new Uint16Array(6), 1))
    const expected = 4 * 3 * 4 + 4 * 3 * 4 + 4 * 2 * 4 + 6 * 2
    expect(geometryBytesOf([geometry])).toBe(expected)
    expect(geometryBytesOf([geometry, geometry])).toBe(expected)
  })
})

describe('measureLoadMemory (fresh child process per load)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sbm-load-memory-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('measures the anchor load: the whole geometry is resident at its peak and kept after it', async () => {
    const glb = await new NodeIO().writeBinary(
      generateBuilding({ seed: 7, floorCount: 2, targetTriangleCount: 300_000 }),
    )
    const glbPath = join(folder, 'building.glb')
    writeFileSync(glbPath, glb)
    const inProcess = await loadAnchor(arrayBufferOf(glb))

    const sample = await measureLoadMemory('anchor', glbPath)

    expect(sample.geometryBytes).toBe(geometryBytesOf(inProcess.geometries))
    expect(sample.geometryCount).toBe(inProcess.geometries.length)
    expect(sample.geometryBytes).toBeGreaterThan(8_000_000)
    expect(sample.peakRssBytes).toBeGreaterThanOrEqual(sample.geometryBytes)
    expect(sample.jsRetainedBytes).toBeGreaterThanOrEqual(sample.geometryBytes)
    expect(sample.jsAtEndBytes).toBeGreaterThanOrEqual(sample.jsRetainedBytes)
  }, 120_000)

  it('measures our load of an SBM file with the geometry decodeSbm produces', async () => {
    const sbmPath = fileURLToPath(
      new URL('../../workers/sbm/fixtures/two-storeys.sbm', import.meta.url),
    )
    const decoded = await decodeSbm(new Uint8Array(await readFile(sbmPath)))
    const decodedBytes = [decoded.positions, decoded.normals, decoded.uvs, decoded.indices].reduce(
      (sum, array) => sum + (array?.byteLength ?? 0),
      0,
    )

    const sample = await measureLoadMemory('ours', sbmPath)

    expect(sample.geometryBytes).toBe(decodedBytes)
    expect(sample.geometryCount).toBe(decoded.primitives.length)
    expect(sample.durationMs).toBeGreaterThanOrEqual(0)
  }, 120_000)
})
