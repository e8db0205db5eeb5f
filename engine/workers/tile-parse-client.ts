import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import * as Comlink from 'comlink'
import { cloneableLoadOptions, restoreTileContent } from '../../workers/tile-parse/tile-content'
import type {
  TileParseOutcome,
  TileParseWorkerApi,
} from '../../workers/tile-parse/tile-parse.worker'
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
  /** Starts the parse workers now (a tileset is about to stream). */
  warmUp(): void
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
  const pool: WorkerPool<TileParseWorkerApi> = createWorkerPool<TileParseWorkerApi>(
    options.createWorker ?? createTileParseWorker,
    { maxWorkers: options.maxWorkers ?? defaultWorkerCount() },
  )
  const counts: TileParseCounts = {
    contentsParsedInWorkers: 0,
    contentsParsedOnMainThread: 0,
    tilesetsParsedOnMainThread: 0,
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
    const workerOptions = cloneableLoadOptions(parseOptions)
    // The fetched bytes are ours alone (loaders.gl does not keep them): moved, not copied.
    // Comlink's Remote type does not keep the union's discriminant; the worker's type does.
    const outcome = await pool.run<TileParseOutcome>(
      (api) =>
        api.parse(Comlink.transfer(data, [data]), url, workerOptions) as Promise<TileParseOutcome>,
    )
    if (outcome.kind === 'mainThreadOnly') {
      counts.contentsParsedOnMainThread++
      return Tiles3DLoader.parse(outcome.ownedData, parseOptions as never, context as never)
    }
    counts.contentsParsedInWorkers++
    return restoreTileContent(outcome.content)
  }

  const loader = { ...Tiles3DLoader, parse } as unknown as TilesLoader
  return {
    loader,
    counts: () => ({ ...counts }),
    warmUp: () => pool.warmUp(),
    dispose: () => pool.dispose(),
  }
}
