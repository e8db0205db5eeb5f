import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import * as Comlink from 'comlink'
import { cloneableLoadOptions, restoreTileContent } from '../../workers/tile-parse/tile-content'
import type { RootTile } from '../../workers/tile-parse/root-tile'
import type { RootPrefetchOutcome } from '../../workers/tile-parse/tile-parse-api'
import type {
  TileParseOutcome,
  TileParseWorkerApi,
} from '../../workers/tile-parse/tile-parse.worker'
import { fileAddresses } from '../core/file-addresses'
import { createWorkerPool, type WorkerEndpoint, type WorkerPool } from './create-worker-client'

export type { TileParseWorkerApi }

/**
 * Starts a 3D Tiles content parse worker. The `new URL(…)` stays here, where the bundler sees it
 * and emits the worker chunk.
 */
export function createTileParseWorker(): WorkerEndpoint {
  return new Worker(new URL('../../workers/tile-parse/tile-parse.worker.ts', import.meta.url), {
    type: 'module',
    name: 'tile-parse',
  })
}

/** Where the tile files of one scene were parsed (counts since the scene opened). */
export interface TileParseCounts {
  /** Tile contents (b3dm, i3dm, pnts, cmpt, glb) parsed by the worker pool. */
  contentsParsedInWorkers: number
  /** Contents handed back to the main thread: their glTF uses WebP/AVIF images (see worker). */
  contentsParsedOnMainThread: number
  /** tileset.json files (root and nested) parsed on the main thread, where they stay: small. */
  tilesetsParsedOnMainThread: number
}

/** A loaders.gl loader object, as `Tile3DLayer`'s `loaders` prop takes it. */
export type TilesLoader = typeof Tiles3DLoader

/** A `Tiles3DLoader` whose content parsing runs in workers, with the pool it owns. */
export interface WorkerTilesLoader {
  loader: TilesLoader
  counts(): TileParseCounts
  /**
   * Starts the parse workers now (a tileset is about to stream), each parsing a tiny tile with
   * these options so the first real tile does not pay for the cold start. Once per loader;
   * resolves when every worker is ready (never rejects: a broken worker fails real tiles).
   */
  warmUp(options: Record<string, unknown>): Promise<void>
  /**
   * Has a worker fetch a tileset.json and its root content and parse that, ahead of loaders.gl
   * and without the main thread (busy starting the map). `onParsed` sees the root and its
   * content first; then, when `Tile3D` loads that URL through this loader and {@link fetch}, it
   * gets that same content instead of fetching and parsing it again. Resolves once that is over
   * (after `onParsed`, or when there is nothing to show; never rejects).
   */
  prefetchRoot(
    tilesetUrl: string,
    options: Record<string, unknown>,
    onParsed?: (root: RootTile, content: unknown) => void,
  ): Promise<void>
  /** For loaders.gl's `fetch` load option: a prefetched URL's response, else the network's. */
  fetch(url: string, init?: RequestInit): Promise<Response>
  /** Starts the counts again from zero (a new scene opens on the same workers). */
  resetCounts(): void
  /** Drops prefetches nobody claimed (their scene closed). */
  forgetPrefetches(): void
  /** Terminates the workers; contents still parsing fail (their tiles report the error). */
  dispose(): void
}

/** Options of {@link createWorkerTilesLoader}. */
export interface WorkerTilesLoaderOptions {
  /** Defaults to one worker per spare core (at least one, at most three). */
  maxWorkers?: number
  /** Defaults to real module workers; tests of the pool logic may pass an in-process endpoint. */
  createWorker?: () => WorkerEndpoint
}

/** A content parsed by a worker, or its bytes handed back for the main thread to parse. */
type WorkerParseResult = { content: unknown } | { ownedData: ArrayBuffer }

/** loaders.gl hands parse the normalized options and a context naming the URL. */
interface ParseContext {
  url?: string
}

function defaultWorkerCount(): number {
  const cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2
  // The main thread draws the map and deck meanwhile; it keeps a core to itself.
  return Math.max(1, Math.min(3, cores - 1))
}

/**
 * Creates a loader for `Tile3DLayer` that behaves as loaders.gl's `Tiles3DLoader` but parses
 * every tile content file in a pool of workers running that same loader. The tileset.json is
 * parsed here (it is small, and `Tileset3D` needs it at once); the parsed tileset names this
 * loader as its `loader`, which is how `Tile3D.loadContent` comes to call it for each tile.
 */
export function createWorkerTilesLoader(options: WorkerTilesLoaderOptions = {}): WorkerTilesLoader {
  const maxWorkers = options.maxWorkers ?? defaultWorkerCount()
  const pool: WorkerPool<TileParseWorkerApi> = createWorkerPool<TileParseWorkerApi>(
    options.createWorker ?? createTileParseWorker,
    { maxWorkers },
  )
  let warm: Promise<void> | null = null
  const counts: TileParseCounts = {
    contentsParsedInWorkers: 0,
    contentsParsedOnMainThread: 0,
    tilesetsParsedOnMainThread: 0,
  }

  /** Parses a content in a worker; a content only the main thread can parse comes back as bytes. */
  const parseInWorker = async (
    data: ArrayBuffer,
    url: string,
    workerOptions: ReturnType<typeof cloneableLoadOptions>,
  ): Promise<WorkerParseResult> => {
    // The fetched bytes are ours alone (loaders.gl does not keep them): moved, not copied.
    // Comlink's Remote type does not keep the union's discriminant; the worker's type does.
    const outcome = await pool.run<TileParseOutcome>(
      (api) =>
        api.parse(Comlink.transfer(data, [data]), url, workerOptions) as Promise<TileParseOutcome>,
    )
    if (outcome.kind === 'mainThreadOnly') return { ownedData: outcome.ownedData }
    counts.contentsParsedInWorkers++
    return { content: restoreTileContent(outcome.content) }
  }

  /** Root contents a worker parsed ahead of loaders.gl, by content URL, until claimed. */
  const prefetched = new Map<string, unknown>()
  /** Root prefetches still running, and what loaders.gl fetched itself meanwhile. */
  let runningRootPrefetches = 0
  const fetchedMeanwhile = new Set<string>()

  let isDisposed = false
  const prefetchRoot = async (
    tilesetUrl: string,
    options: Record<string, unknown>,
    onParsed?: (root: RootTile, content: unknown) => void,
  ): Promise<void> => {
    runningRootPrefetches++
    try {
      const outcome = await pool.run(
        (api) =>
          api.prefetchRoot(
            tilesetUrl,
            cloneableLoadOptions(options),
          ) as Promise<RootPrefetchOutcome>,
      )
      if (outcome.kind !== 'parsed' || isDisposed) return
      const { contentUrl } = outcome.root
      // loaders.gl got there first (it fetched and parses the root itself): nothing to hand over.
      if (fetchedMeanwhile.has(contentUrl)) return
      const content = restoreTileContent(outcome.content)
      counts.contentsParsedInWorkers++
      prefetched.set(contentUrl, content)
      onParsed?.(outcome.root, content)
    } catch {
      // A worker that failed here fails real tiles too, where it is reported.
    } finally {
      if (--runningRootPrefetches === 0) fetchedMeanwhile.clear()
    }
  }

  const fetchUnlessPrefetched = async (url: string, init?: RequestInit): Promise<Response> => {
    if (!prefetched.has(url)) {
      if (runningRootPrefetches > 0) fetchedMeanwhile.add(url)
      // tiles resolve below the tileset's first address: its grant is renewed here when stale
      return fileAddresses.fetch(url, init)
    }
    // The bytes stayed in the worker; `parse` below hands over the content by this URL.
    const response = new Response(new ArrayBuffer(0), { status: 200 })
    Object.defineProperty(response, 'url', { value: url })
    return response
  }

  const parse = async (
    data: ArrayBuffer,
    parseOptions: Record<string, unknown> = {},
    context?: ParseContext,
  ): Promise<unknown> => {
    const tilesOptions = (parseOptions['3d-tiles'] ?? {}) as { isTileset?: boolean | 'auto' }
    const url = context?.url ?? ''
    const isTileset =
      tilesOptions.isTileset === 'auto' || tilesOptions.isTileset === undefined
        ? url.includes('.json')
        : tilesOptions.isTileset
    if (isTileset) {
      const tileset = (await Tiles3DLoader.parse(
        data,
        parseOptions as never,
        context as never,
      )) as {
        loader?: unknown
      }
      counts.tilesetsParsedOnMainThread++
      return { ...tileset, loader }
    }
    if (prefetched.has(url)) {
      const content = prefetched.get(url)
      prefetched.delete(url)
      return content
    }
    const result = await parseInWorker(data, url, cloneableLoadOptions(parseOptions))
    if ('content' in result) return result.content
    counts.contentsParsedOnMainThread++
    return Tiles3DLoader.parse(result.ownedData, parseOptions as never, context as never)
  }

  const loader = { ...Tiles3DLoader, parse } as unknown as TilesLoader
  return {
    loader,
    counts: () => ({ ...counts }),
    warmUp: (warmUpOptions) => {
      if (warm) return warm
      pool.warmUp()
      const workerOptions = cloneableLoadOptions(warmUpOptions)
      // All workers are idle now, so each of these jobs lands on a different one.
      const jobs = Array.from({ length: maxWorkers }, () =>
        pool.run((api) => api.warmUp(workerOptions)).catch(() => {}),
      )
      warm = Promise.all(jobs).then(() => {})
      return warm
    },
    prefetchRoot,
    fetch: fetchUnlessPrefetched,
    resetCounts: () => {
      counts.contentsParsedInWorkers = 0
      counts.contentsParsedOnMainThread = 0
      counts.tilesetsParsedOnMainThread = 0
    },
    forgetPrefetches: () => prefetched.clear(),
    dispose: () => {
      isDisposed = true
      prefetched.clear()
      pool.dispose()
    },
  }
}
