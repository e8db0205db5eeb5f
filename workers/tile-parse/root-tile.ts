/**
 * A tileset's root tile read straight from its tileset.json, so the tile parse worker can fetch
 * and parse its content while the main thread is still starting the map and building loaders.gl's
 * tile tree; the city scene draws it meanwhile (engine/city/root-preview.ts).
 */

/** The root of a tileset.json, as far as a preview needs it. */
export interface RootTile {
  /** The content URL as loaders.gl will request it. */
  contentUrl: string
  gltfUpAxis: string
  /** Column-major; identity when the root has none. */
  transform: number[]
  boundingVolume: Record<string, unknown>
}

const identityMatrix = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
const urlSchemePattern = /^[a-z][0-9a-z+.-]*:/i

/**
 * The root of a tileset when a preview of it can be drawn, else undefined: no content, a nested
 * tileset (JSON), implicit tiling (a URI template), a viewer request volume (the root may not be
 * for this camera), or a tileset URL with a query (loaders.gl appends it to every tile URL).
 */
export function rootTileOf(tilesetUrl: string, tilesetJson: unknown): RootTile | undefined {
  if (tilesetUrl.includes('?') || !urlSchemePattern.test(tilesetUrl)) return undefined
  const json = tilesetJson as {
    asset?: { gltfUpAxis?: unknown }
    root?: {
      content?: { uri?: unknown; url?: unknown }
      implicitTiling?: unknown
      viewerRequestVolume?: unknown
      transform?: unknown
      boundingVolume?: unknown
    }
  } | null
  const root = json?.root
  const uri = root?.content?.uri ?? root?.content?.url
  if (typeof uri !== 'string' || uri === '' || uri.startsWith('data:')) return undefined
  if (root?.implicitTiling !== undefined || root?.viewerRequestVolume !== undefined)
    return undefined
  if ((uri.split('?')[0] ?? '').toLowerCase().endsWith('.json')) return undefined
  const { transform, boundingVolume } = root ?? {}
  const isTransform =
    Array.isArray(transform) && transform.length === 16 && transform.every(Number.isFinite)
  if (transform !== undefined && !isTransform) return undefined
  if (typeof boundingVolume !== 'object' || boundingVolume === null) return undefined
  // As loaders.gl resolves a content URI against the tileset's folder (parse-3d-tile-header).
  const folder = tilesetUrl.slice(0, tilesetUrl.lastIndexOf('/'))
  const upAxis = json?.asset?.gltfUpAxis
  return {
    contentUrl: decodeURI(new URL(uri, `${folder}/`).toString()),
    gltfUpAxis: typeof upAxis === 'string' ? upAxis : 'Y',
    transform: isTransform ? (transform as number[]) : [...identityMatrix],
    boundingVolume: boundingVolume as Record<string, unknown>,
  }
}
