import { calculateTransformProps, createBoundingVolume, type Tile3D } from '@loaders.gl/tiles'
import { Matrix4 } from '@math.gl/core'
import { collectTileMeshes, type TileGltf, type TileMesh } from './tile-meshes'

/**
 * A tileset's root tile read straight from its tileset.json, so its content can be fetched,
 * parsed and drawn while loaders.gl is still building the tile tree (≈ 0.3 s of main thread for
 * a tileset of 1,365 tiles). The root is what a viewer draws first anyway: a REPLACE parent stays
 * on screen until all its children have loaded. The preview gives way as soon as loaders.gl has
 * drawn a tile of its own, or has settled without drawing any (the tileset is out of view).
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

/** A stand-in for loaders.gl's root `Tile3D`, drawn by `TilesetMeshLayer`. */
export interface RootPreviewTile {
  id: string
  viewportIds: string[]
  contentAvailable: true
  content: { meshes: TileMesh[]; cartographicOrigin: number[]; modelMatrix: number[] }
  /** Set by the layer once drawn. */
  tileDrawn?: boolean
}

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
    transform: isTransform ? (transform as number[]) : [...Matrix4.IDENTITY],
    boundingVolume: boundingVolume as Record<string, unknown>,
  }
}

/** The parsed content fields a preview reads (as loaders.gl's Tiles3DLoader returns them). */
interface RootContent {
  type?: string
  gltf?: TileGltf
  instances?: unknown
  rtcCenter?: number[]
  gltfUpAxis?: string
  isQuantized?: boolean
  quantizedVolumeOffset?: number[]
  quantizedVolumeScale?: number[]
}

/**
 * The preview tile of a parsed root content, placed as loaders.gl will place the root (tileset
 * placement × root transform, RTC centre, up axis, quantization), or null for contents the mesh
 * layer does not draw (instanced, points, composite). Reads the content without changing it: the
 * same object is handed to loaders.gl afterwards, which rewrites its root node's matrix.
 */
export function rootPreviewTile(
  root: RootTile,
  tilesetModelMatrix: Matrix4 | undefined,
  content: unknown,
  viewportId: string,
): RootPreviewTile | null {
  const parsed = content as RootContent | undefined
  if (!parsed?.gltf || parsed.instances !== undefined) return null
  const computedTransform = new Matrix4(tilesetModelMatrix ?? Matrix4.IDENTITY).multiplyRight(
    root.transform,
  )
  const boundingVolume = createBoundingVolume(root.boundingVolume as never, computedTransform)
  // loaders.gl's own placement math, on a copy without the glTF (so nothing is rewritten).
  const placed: Record<string, unknown> = {
    rtcCenter: parsed.rtcCenter,
    gltfUpAxis: parsed.gltfUpAxis,
    isQuantized: parsed.isQuantized,
    quantizedVolumeOffset: parsed.quantizedVolumeOffset,
    quantizedVolumeScale: parsed.quantizedVolumeScale,
  }
  calculateTransformProps({ computedTransform, boundingVolume } as unknown as Tile3D, placed)
  const meshes = collectTileMeshes(parsed.gltf)
  if (meshes.length === 0) return null
  return {
    id: `${root.contentUrl}#preview`,
    viewportIds: [viewportId],
    contentAvailable: true,
    content: {
      meshes,
      cartographicOrigin: [...(placed.cartographicOrigin as number[])],
      modelMatrix: [...(placed.cartographicModelMatrix as number[])],
    },
  }
}
