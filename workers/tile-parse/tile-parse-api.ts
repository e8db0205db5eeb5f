import * as Comlink from 'comlink'
import {
  type CloneableLoadOptions,
  needsMainThreadParse,
  parseTileContent,
  tileContentTransferables,
} from './tile-content'
import { type RootTile, rootTileOf } from './root-tile'
import { warmUpTile } from './warm-up-tile'

/** A tileset's root content parsed ahead of loaders.gl, or why there is none to show. */
export type RootPrefetchOutcome =
  | { kind: 'parsed'; root: RootTile; content: Record<string, unknown> }
  | { kind: 'none'; reason: string }

/** A parsed content, or the bytes handed back because only the main thread can parse them. */
export type TileParseOutcome =
  | { kind: 'parsed'; content: Record<string, unknown> }
  | { kind: 'mainThreadOnly'; ownedData: ArrayBuffer }

/**
 * What the tile parse worker exposes; stateless, one call per tile content. Also usable
 * in-process (tests), which is why it lives apart from the worker entry.
 */
function isOptionsObject(value: unknown): value is CloneableLoadOptions {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const tileParseApi = {
  /**
   * Fetches a tileset.json and its root content and parses that, all here, so none of it waits
   * for the main thread while the map starts. `none` when the root has nothing to preview or
   * anything fails: loaders.gl then loads (and reports) the root as usual.
   */
  async prefetchRoot(
    tilesetUrl: string,
    options: CloneableLoadOptions,
  ): Promise<RootPrefetchOutcome> {
    try {
      const tilesetResponse = await fetch(tilesetUrl)
      if (!tilesetResponse.ok)
        return { kind: 'none', reason: `tileset.json: HTTP ${tilesetResponse.status}` }
      const root = rootTileOf(tilesetUrl, await tilesetResponse.json())
      if (!root) return { kind: 'none', reason: 'the root has no content to preview' }
      const contentResponse = await fetch(root.contentUrl)
      if (!contentResponse.ok)
        return { kind: 'none', reason: `root content: HTTP ${contentResponse.status}` }
      const data = await contentResponse.arrayBuffer()
      if (needsMainThreadParse(data))
        return { kind: 'none', reason: 'the root needs the main thread' }
      const tilesOptions = isOptionsObject(options['3d-tiles']) ? options['3d-tiles'] : {}
      const content = await parseTileContent(data, root.contentUrl, {
        ...options,
        '3d-tiles': { ...tilesOptions, assetGltfUpAxis: root.gltfUpAxis },
      })
      const parsed: RootPrefetchOutcome = { kind: 'parsed', root, content }
      return Comlink.transfer(parsed, tileContentTransferables(content))
    } catch (error) {
      return { kind: 'none', reason: error instanceof Error ? error.message : String(error) }
    }
  },

  /**
   * Parses a tiny tile once (warm-up-tile.ts) so the first real tile does not pay for the
   * worker's cold start. Never fails: a worker that cannot parse it will say so on real tiles.
   */
  async warmUp(options: CloneableLoadOptions): Promise<void> {
    try {
      await parseTileContent(warmUpTile(), 'warm-up.b3dm', options)
    } catch {
      // Nothing to report: this tile is ours, not the user's.
    }
  },

  /**
   * Parses one content file; its buffer is owned (transferred in), the result transferred out.
   * A tile needing DOM image probes comes back unparsed, its buffer transferred back.
   */
  async parse(
    ownedData: ArrayBuffer,
    url: string,
    options: CloneableLoadOptions,
  ): Promise<TileParseOutcome> {
    if (needsMainThreadParse(ownedData)) {
      const handedBack: TileParseOutcome = { kind: 'mainThreadOnly', ownedData }
      return Comlink.transfer(handedBack, [ownedData])
    }
    const content = await parseTileContent(ownedData, url, options)
    const parsed: TileParseOutcome = { kind: 'parsed', content }
    return Comlink.transfer(parsed, tileContentTransferables(content))
  },
}
