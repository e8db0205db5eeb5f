import * as Comlink from 'comlink'
import {
  type CloneableLoadOptions,
  isPlainObject,
  needsMainThreadParse,
  parseTileContent,
  tileContentTransferables,
} from './tile-content'
import { type RootTile, rootTileOf } from './root-tile'
import { warmUpTile } from './warm-up-tile'

/** A tileset's root content parsed ahead of loaders.gl, or none to show. */
export type RootPrefetchOutcome =
  | { kind: 'parsed'; root: RootTile; content: Record<string, unknown> }
  | { kind: 'none' }

const noRootPreview: RootPrefetchOutcome = { kind: 'none' }

/** A parsed content, or the bytes handed back because only the main thread can parse them. */
export type TileParseOutcome =
  | { kind: 'parsed'; content: Record<string, unknown> }
  | { kind: 'mainThreadOnly'; ownedData: ArrayBuffer }

/**
 * What the tile parse worker exposes; stateless, one call per tile content. Also usable
 * in-process (tests), which is why it lives apart from the worker entry.
 */
export const tileParseApi = {
  /**
   * Fetches a tileset.json and its root content and parses that, all here, so none of it waits
   * for the main thread while the map starts. `none` when the root has nothing to preview (no
   * content, a nested tileset, …), cannot be fetched, or needs the main thread to parse:
   * loaders.gl then loads (and reports) the root as usual.
   */
  async prefetchRoot(
    tilesetUrl: string,
    options: CloneableLoadOptions,
  ): Promise<RootPrefetchOutcome> {
    try {
      const tilesetResponse = await fetch(tilesetUrl)
      if (!tilesetResponse.ok) return noRootPreview
      const root = rootTileOf(tilesetUrl, await tilesetResponse.json())
      if (!root) return noRootPreview
      const contentResponse = await fetch(root.contentUrl)
      if (!contentResponse.ok) return noRootPreview
      const data = await contentResponse.arrayBuffer()
      if (needsMainThreadParse(data)) return noRootPreview
      const tilesOptions = isPlainObject(options['3d-tiles']) ? options['3d-tiles'] : {}
      const content = await parseTileContent(data, root.contentUrl, {
        ...options,
        '3d-tiles': { ...tilesOptions, assetGltfUpAxis: root.gltfUpAxis },
      })
      const parsed: RootPrefetchOutcome = { kind: 'parsed', root, content }
      return Comlink.transfer(parsed, tileContentTransferables(content))
    } catch {
      return noRootPreview
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
