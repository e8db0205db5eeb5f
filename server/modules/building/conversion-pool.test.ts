import { readFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { ConversionError } from '../convert/conversion-error'
import { createConversionPool } from './conversion-pool'

const data = new URL('../../../../shared/data/', import.meta.url)

describe('conversion pool (worker threads)', () => {
  const pool = createConversionPool({ size: 1, maxQueued: 1 })
  afterAll(() => pool.close())

  it('converts a GLB to a valid SBM in a worker thread', async () => {
    const bytes = new Uint8Array(await readFile(new URL('gltf/Duck/Duck.glb', data)))
    const { sbm, summary } = await pool.convert({
      entryPath: 'Duck.glb',
      files: [{ path: 'Duck.glb', bytes }],
      role: 'model',
      allowMissingTextures: false,
    })
    const info = describeSbm(sbm)
    expect(info.role).toBe('model')
    expect(info.triangleCount).toBe(summary.triangleCount)
    expect(summary.triangleCount).toBeGreaterThan(0)
  })

  it('passes the converter refusal through with its reason', async () => {
    const bytes = new Uint8Array(
      await readFile(new URL('gltf/edge-cases/glTF1.0-BoxTextured.glb', data)),
    )
    const error = await pool
      .convert({
        entryPath: 'old.glb',
        files: [{ path: 'old.glb', bytes }],
        role: 'model',
        allowMissingTextures: false,
      })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ConversionError)
    expect((error as ConversionError).reason).toBe('unsupportedGltfVersion')
  })

  it('refuses jobs beyond the queue limit as unavailable, then recovers', async () => {
    const bytes = new Uint8Array(await readFile(new URL('fbx/box.fbx', data)))
    const job = () => ({
      entryPath: 'box.fbx',
      files: [{ path: 'box.fbx', bytes: bytes.slice() }],
      role: 'model' as const,
      allowMissingTextures: false,
    })
    const running = pool.convert(job())
    const queued = pool.convert(job())
    const refused = await pool.convert(job()).catch((caught: unknown) => caught)
    expect(refused).toMatchObject({ kind: 'unavailable' })
    await expect(running).resolves.toMatchObject({ summary: { sourceFormat: 'fbx' } })
    await expect(queued).resolves.toMatchObject({ summary: { sourceFormat: 'fbx' } })
    expect(pool.load()).toEqual({ running: 0, queued: 0 })
  })

  it("converts one user's model right after the conversion in the slot, though another user queued ten", async () => {
    const fairPool = createConversionPool({ size: 1, maxQueued: 16, maxQueuedPerUser: 10 })
    try {
      const bytes = new Uint8Array(await readFile(new URL('fbx/box.fbx', data)))
      const job = () => ({
        entryPath: 'box.fbx',
        files: [{ path: 'box.fbx', bytes: bytes.slice() }],
        role: 'model' as const,
        allowMissingTextures: false,
      })
      const finished: string[] = []
      const track = (label: string, conversion: Promise<unknown>) =>
        conversion.then(() => finished.push(label))
      const all = Array.from({ length: 10 }, (_, index) =>
        track(`a${index + 1}`, fairPool.convertForUser('user-a', job())),
      )
      all.push(track('b1', fairPool.convertForUser('user-b', job())))
      await Promise.all(all)
      expect(finished.slice(0, 2)).toEqual(['a1', 'b1'])
      expect(finished).toHaveLength(11)
    } finally {
      await fairPool.close()
    }
  })

  it('stops a conversion that runs past its time limit and still takes the next job', async () => {
    const strictPool = createConversionPool({ size: 1, jobTimeoutMs: 1 })
    try {
      const bytes = new Uint8Array(await readFile(new URL('fbx/box.fbx', data)))
      const job = { entryPath: 'box.fbx', role: 'model' as const, allowMissingTextures: false }
      // starting a thread alone takes far longer than 1 ms, so the limit always strikes
      const stopped = await strictPool
        .convert({ ...job, files: [{ path: 'box.fbx', bytes: bytes.slice() }] })
        .catch((caught: unknown) => caught)
      expect(stopped).toMatchObject({ kind: 'unavailable' })
      expect(strictPool.load()).toEqual({ running: 0, queued: 0 })
      const again = await strictPool
        .convert({ ...job, files: [{ path: 'box.fbx', bytes: bytes.slice() }] })
        .catch((caught: unknown) => caught)
      expect(again).toMatchObject({ kind: 'unavailable' })
    } finally {
      await strictPool.close()
    }
  })
})
