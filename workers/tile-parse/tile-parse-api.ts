import * as Comlink from 'comlink'
import {
  type CloneableLoadOptions,
  needsMainThreadParse,
  parseTileContent,
  tileContentTransferables,
} from './tile-content'
import { warmUpTile } from './warm-up-tile'

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
