import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { load, parse as parseWithLoadersGl } from '@loaders.gl/core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { tileParseApi } from '../../workers/tile-parse/tile-parse-api'
import { createInProcessWorker, type InProcessWorker } from '../testing/in-process-worker'
import { createWorkerTilesLoader, type WorkerTilesLoader } from './tile-parse-client'

const fixtures = new URL('../city/fixtures/batched/', import.meta.url)

function readFixture(name: string): ArrayBuffer {
  const bytes = readFileSync(new URL(name, fixtures))
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

/** The loader's own parse, called directly (for tileset.json, which needs only the URL). */
type ParseCall = (data: ArrayBuffer, options: object, context: { url: string }) => Promise<unknown>

const workers: InProcessWorker[] = []
const loaders: WorkerTilesLoader[] = []
function startLoader(): {
  tiles: WorkerTilesLoader
  parse: ParseCall
  parseContent(data: ArrayBuffer): Promise<unknown>
} {
  const tiles = createWorkerTilesLoader({
    maxWorkers: 1,
    createWorker: () => {
      const worker = createInProcessWorker(tileParseApi)
      workers.push(worker)
      return worker
    },
  })
  loaders.push(tiles)
  return {
    tiles,
    parse: tiles.loader.parse as unknown as ParseCall,
    // Contents go through loaders.gl's parse, as `Tile3D.loadContent` does: normalized options
    // (with their functions and log) and a full loader context.
    parseContent: (data: ArrayBuffer) =>
      parseWithLoadersGl(data, tiles.loader, contentOptions as never) as Promise<unknown>,
  }
}
afterEach(() => {
  for (const tiles of loaders.splice(0)) tiles.dispose()
  workers.length = 0
})

const contentOptions = {
  '3d-tiles': { loadGLTF: true, isTileset: false, assetGltfUpAxis: 'Y' },
  core: { worker: false },
}

describe('createWorkerTilesLoader', () => {
  it('parses tileset.json here and names itself the loader of its tiles', async () => {
    const { tiles, parse } = startLoader()
    const tileset = (await parse(
      readFixture('tileset.json'),
      { '3d-tiles': { isTileset: 'auto' } },
      { url: 'http://tiles/batched/tileset.json' },
    )) as { loader: unknown; root: { children: unknown[] }; type: string }
    // Tileset3D loads every content with `tileset.loader`: it must be this one, not the stock.
    expect(tileset.loader).toBe(tiles.loader)
    expect(tileset.root.children).toHaveLength(2)
    expect(tiles.counts()).toEqual({
      contentsParsedInWorkers: 0,
      contentsParsedOnMainThread: 0,
      tilesetsParsedOnMainThread: 1,
    })
    expect(workers).toHaveLength(0)
  })

  it('parses tile contents in a worker, moving the bytes, and returns what deck reads', async () => {
    const { tiles, parseContent } = startLoader()
    const data = readFixture('batchedWithBatchTable.b3dm')
    const content = (await parseContent(data)) as {
      type: string
      batchTableJson: { info: { name: string }[] }
      gltf: { scenes: unknown[]; meshes: unknown[] }
      gpuMemoryUsageInBytes: number
    }
    expect(data.byteLength).toBe(0)
    expect(workers).toHaveLength(1)
    expect(content.type).toBe('b3dm')
    expect(content.batchTableJson.info[3]?.name).toBe('building3')
    expect(content.gltf.scenes.length).toBeGreaterThan(0)
    expect(content.gltf.meshes.length).toBeGreaterThan(0)
    expect(content.gpuMemoryUsageInBytes).toBeGreaterThan(0)
    expect(tiles.counts()).toMatchObject({
      contentsParsedInWorkers: 1,
      contentsParsedOnMainThread: 0,
    })
  })

  it("rejects a broken tile with the parser's error, and keeps parsing the next ones", async () => {
    const { tiles, parseContent } = startLoader()
    await expect(parseContent(readFixture('corrupt.b3dm'))).rejects.toThrow()
    await parseContent(readFixture('batchedWithBatchTable.b3dm'))
    expect(tiles.counts().contentsParsedInWorkers).toBe(1)
    expect(workers).toHaveLength(1)
  })

  it('parses on the main thread a tile naming WebP images, which a worker cannot probe', async () => {
    const { tiles, parseContent } = startLoader()
    const bytes = new Uint8Array(readFixture('batchedWithBatchTable.b3dm'))
    const text = new TextDecoder('latin1').decode(bytes)
    // A same-length JSON edit of the batch table: one longitude becomes the extension's name.
    const longitude = '-1.3196832683949145'
    const at = text.indexOf(longitude)
    expect(at).toBeGreaterThan(0)
    bytes.set(new TextEncoder().encode('"EXT_texture_webp" '), at)

    const content = (await parseContent(bytes.buffer)) as {
      batchTableJson: { Longitude: unknown[] }
    }
    expect(content.batchTableJson.Longitude[1]).toBe('EXT_texture_webp')
    expect(tiles.counts()).toMatchObject({
      contentsParsedInWorkers: 0,
      contentsParsedOnMainThread: 1,
    })
  })

  it('fails contents still parsing once disposed', async () => {
    const { tiles, parseContent } = startLoader()
    tiles.dispose()
    await expect(parseContent(readFixture('batchedWithBatchTable.b3dm'))).rejects.toMatchObject({
      code: 'engine.disposed',
    })
  })
})

describe("prefetching a tileset's root ahead of loaders.gl", () => {
  let server: Server
  let origin = ''
  const requests: string[] = []

  beforeAll(async () => {
    const tile = Buffer.from(readFixture('batchedWithBatchTable.b3dm'))
    const tileset = JSON.parse(Buffer.from(readFixture('tileset.json')).toString('utf8'))
    const goneTileset = { ...tileset, root: { ...tileset.root, content: { uri: 'missing.b3dm' } } }
    const files: Record<string, Buffer> = {
      '/batched/tileset.json': Buffer.from(JSON.stringify(tileset)),
      '/batched/batchedWithBatchTable.b3dm': tile,
      '/gone/tileset.json': Buffer.from(JSON.stringify(goneTileset)),
    }
    server = createServer((request, response) => {
      requests.push(request.url ?? '')
      const file = files[request.url ?? '']
      if (file) response.writeHead(200).end(file)
      else response.writeHead(404).end('missing')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })
  afterEach(() => {
    requests.length = 0
  })

  /** As `Tile3D.loadContent` loads: by URL, with the tileset's load options and this fetch. */
  const loadAsTile = (tiles: WorkerTilesLoader, url: string) =>
    load(url, tiles.loader, { ...contentOptions, core: { worker: false, fetch: tiles.fetch } })

  it('hands loaders.gl the root content a worker fetched and parsed, once', async () => {
    const { tiles } = startLoader()
    const seen: { url: string; content: unknown }[] = []
    await tiles.prefetchRoot(`${origin}/batched/tileset.json`, contentOptions, (root, content) =>
      seen.push({ url: root.contentUrl, content }),
    )
    const rootUrl = `${origin}/batched/batchedWithBatchTable.b3dm`
    expect(seen.map(({ url }) => url)).toEqual([rootUrl])
    expect(seen[0]?.content).toMatchObject({ type: 'b3dm' })
    expect(requests).toEqual(['/batched/tileset.json', '/batched/batchedWithBatchTable.b3dm'])

    const loaded = await loadAsTile(tiles, rootUrl)
    expect(loaded).toBe(seen[0]?.content)
    expect(requests).toHaveLength(2)
    expect(tiles.counts().contentsParsedInWorkers).toBe(1)

    // Claimed once: loading it again (after an unload) fetches and parses anew.
    const reloaded = await loadAsTile(tiles, rootUrl)
    expect(reloaded).not.toBe(loaded)
    expect(requests).toHaveLength(3)
    expect(tiles.counts().contentsParsedInWorkers).toBe(2)
  })

  it('shows nothing when the root cannot be fetched, and loaders.gl reports it as usual', async () => {
    const { tiles } = startLoader()
    const seen: unknown[] = []
    await tiles.prefetchRoot(`${origin}/gone/tileset.json`, contentOptions, (root) =>
      seen.push(root),
    )
    await tiles.prefetchRoot(`${origin}/nowhere/tileset.json`, contentOptions, (root) =>
      seen.push(root),
    )
    expect(seen).toEqual([])
    await expect(loadAsTile(tiles, `${origin}/gone/missing.b3dm`)).rejects.toThrow(/404/)
  })

  it('keeps nothing back when loaders.gl fetched the root itself before the worker answered', async () => {
    const { tiles } = startLoader()
    const rootUrl = `${origin}/batched/batchedWithBatchTable.b3dm`
    const seen: unknown[] = []
    const prefetching = tiles.prefetchRoot(`${origin}/batched/tileset.json`, contentOptions, () =>
      seen.push('root'),
    )
    const loaded = await loadAsTile(tiles, rootUrl)
    await prefetching
    expect((loaded as { type: string }).type).toBe('b3dm')
    expect(seen).toEqual([])
    // Nothing stale waits to be claimed: the next load is a fresh one.
    const before = requests.length
    await loadAsTile(tiles, rootUrl)
    expect(requests.length).toBe(before + 1)
  })

  it('forgets unclaimed roots when their scene closes, and counts each scene anew', async () => {
    const { tiles } = startLoader()
    await tiles.prefetchRoot(`${origin}/batched/tileset.json`, contentOptions)
    tiles.forgetPrefetches()
    tiles.resetCounts()
    await loadAsTile(tiles, `${origin}/batched/batchedWithBatchTable.b3dm`)
    expect(requests).toHaveLength(3)
    expect(tiles.counts().contentsParsedInWorkers).toBe(1)
  })

  it('warms every worker up once, without counting its tiny tile as a content', async () => {
    const { tiles } = startLoader()
    const warm = tiles.warmUp(contentOptions)
    expect(tiles.warmUp(contentOptions)).toBe(warm)
    await warm
    expect(workers).toHaveLength(1)
    expect(tiles.counts().contentsParsedInWorkers).toBe(0)
  })
})
