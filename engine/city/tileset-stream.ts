import type { Viewport } from '@deck.gl/core'
import dracoWorkerUrl from '@loaders.gl/draco/draco-worker.js?url'
import { parse } from '@loaders.gl/core'
import { type Tile3D, Tileset3D } from '@loaders.gl/tiles'
import type { RootTile } from '../../workers/tile-parse/root-tile'
import { EngineError } from '../api/errors'
import { fileAddresses } from '../core/file-addresses'
import { markCityStep } from './first-render-marks'
import { createWorkerTilesLoader, type WorkerTilesLoader } from '../workers/tile-parse-client'
import {
  type AdoptableStream,
  drawingLayerOf,
  setTileDrawn,
  traverseTilesetNow,
} from './library-internals'

/**
 * A tileset's stream. The scene starts it when the tileset is added — tileset.json fetched and
 * parsed, `Tileset3D` made, the first traversals run with the map's camera — so tiles load while
 * MapLibre and deck.gl are still starting; the layer that draws it adopts it once deck runs.
 */
export type TilesetStream = AdoptableStream

/** How tile contents (and tileset.json files) load; the streaming options come per layer. */
export const contentLoadOptions = {
  // Decoders come from our own origin: no CDN request may leave the machine. Draco runs in
  // loaders.gl's worker (started from our parse worker); its wasm is looked up locally and a
  // tile that needs a decoder we do not ship fails alone, reported in its errors.
  core: { worker: true, useLocalLibraries: true },
  draco: { workerUrl: dracoWorkerUrl },
  '3d-tiles': { loadGLTF: true },
  // Without a format, loaders.gl probes for compressed-texture support per image by creating a
  // throwaway WebGL context: seconds on a software GPU, and one of the browser's 16 contexts.
  // We ship no Basis transcoder, so plain RGBA is the honest answer.
  basis: { format: 'rgba32' },
}

/**
 * The tile parse workers for the scenes of one map container, started and warmed up at once
 * (`ready`): a container means a city is about to open, and its first tile should not wait for
 * the workers' start.
 */
export function createCityTilesLoader(): { tilesLoader: WorkerTilesLoader; ready: Promise<void> } {
  const tilesLoader = createWorkerTilesLoader()
  return { tilesLoader, ready: tilesLoader.warmUp(contentLoadOptions) }
}

/** How long building loaders.gl's tile tree waits for the root preview to be drawn. */
const previewWaitMs = 300

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Resolves in a task after the next animation frame: a frame drawn in this one is shown (and
 * seen by the page's own frame callbacks) before a long task that starts then.
 */
function afterNextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

/** The per-tile callbacks of one stream generation. */
export interface TileHandlers {
  onTileLoad(): void
  onTileUnload(): void
  onTileError(tile: Tile3D, message: string, url: string): void
}

/** What a stream needs from the tileset it streams and the scene it streams into. */
export interface TilesetStreamHost {
  url: string
  tilesLoader: WorkerTilesLoader
  /** False once the tileset was removed or restreamed: callbacks of this stream do nothing. */
  isCurrent(): boolean
  handlers: TileHandlers
  /**
   * loaders.gl's options for the tileset, given its root tile as read from tileset.json (the
   * placement's model matrix depends on where the root is).
   */
  tilesetOptions(root: { boundingVolume: unknown; transform?: unknown }): Record<string, unknown>
  /** Made once the Tileset3D exists, before its first traversal. */
  onCreated(tileset3d: Tileset3D): void
  /** Draws the prefetched root content; answers whether it is drawn. */
  showRootPreview(root: RootTile, content: unknown): boolean
  viewport(): Viewport
  /**
   * Resolves once the preview shown is on screen (or gone): the map's next frame may not draw it
   * yet (deck still starting), and building the tile tree would then hold it back.
   */
  previewDrawn(): Promise<void>
}

/**
 * Starts a stream: the parse workers, the tileset.json, the Tileset3D, and traversals with the
 * map's camera until a deck layer adopts the stream.
 */
export function startTilesetStream(host: TilesetStreamHost): TilesetStream {
  const { url, tilesLoader, handlers } = host
  // `ready` is set just below; its callbacks need `stream` itself.
  const stream: TilesetStream = { ready: new Promise<never>(() => {}), layer: null, isEnded: false }
  // fetch() sends the request now, ahead of the map's synchronous start-up that follows in
  // the constructor; loaders.gl's load() would only send it after a few awaits.
  // The root content is what gets drawn first: a worker fetches and parses it now, while the
  // map starts here, and it is drawn as soon as it arrives (root-preview.ts). The worker reads
  // the tileset.json too; tile files are served immutable, so one of the two reads is cached.
  let isPreviewShown = false
  const rootPrefetched = tilesLoader.prefetchRoot(url, contentLoadOptions, (root, content) => {
    markCityStep('root-prefetched')
    if (host.isCurrent() && !stream.isEnded) isPreviewShown = host.showRootPreview(root, content)
    if (isPreviewShown) markCityStep('root-preview-shown')
  })
  stream.ready = fileAddresses
    .fetch(url)
    .then(async (response) => {
      markCityStep('tileset-json-response')
      if (!response.ok) {
        throw new Error(`The tileset ${url} could not be loaded (HTTP ${response.status}).`)
      }
      // loaders.gl's tile tree (every tile header parsed, then a Tile3D each) holds the main
      // thread for a while, and the worker's answer would wait behind it: the preview goes
      // first — parsed, drawn and shown — unless that takes long.
      const previewShown = async () => {
        await rootPrefetched
        if (!isPreviewShown) return
        await host.previewDrawn()
        await afterNextFrame()
      }
      await Promise.race([previewShown(), delay(previewWaitMs)])
      markCityStep('tileset-json-parse')
      return parse(response, tilesLoader.loader, contentLoadOptions)
    })
    .then((tilesetJson) => {
      if (stream.isEnded) throw new EngineError('engine.disposed', 'The tileset was closed.')
      const traverseNow = () => {
        if (stream.isEnded || drawingLayerOf(stream)) return
        traverseTilesetNow(tileset3d, host.viewport())
      }
      const root = (tilesetJson as { root: { boundingVolume: unknown; transform?: unknown } }).root
      const tileset3d: Tileset3D = new Tileset3D(tilesetJson as never, {
        loadOptions: {
          ...contentLoadOptions,
          core: { ...contentLoadOptions.core, fetch: tilesLoader.fetch },
        },
        ...host.tilesetOptions(root),
        onTileLoad: (tile: Tile3D) => {
          const layer = drawingLayerOf(stream)
          if (layer) return layer._onTileLoad(tile)
          setTileDrawn(tile, false)
          handlers.onTileLoad()
          traverseNow()
        },
        onTileUnload: (tile: Tile3D) => {
          const layer = drawingLayerOf(stream)
          if (layer) layer._onTileUnload(tile)
          else handlers.onTileUnload()
        },
        onTileError: handlers.onTileError as never,
        onUpdate: () => drawingLayerOf(stream)?.setNeedsUpdate(),
      })
      markCityStep('tileset-made')
      if (host.isCurrent()) host.onCreated(tileset3d)
      void tileset3d.tilesetInitializationPromise.then(traverseNow)
      return tileset3d
    })
  return stream
}

/** Lets go of a stream; one no layer adopted is destroyed here (an adopted one by deck). */
export function endTilesetStream(stream: TilesetStream): void {
  stream.isEnded = true
  stream.ready.then(
    (tileset3d) => {
      if (stream.layer) return
      // Destroyed mid-initialization, loaders.gl would read the headers `destroy()` cleared.
      const destroy = () => tileset3d.destroy()
      tileset3d.tilesetInitializationPromise.then(destroy, destroy)
    },
    () => {},
  )
}
