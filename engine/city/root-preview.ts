import { Matrix4 } from '@math.gl/core'
import type { RootTile } from '../../workers/tile-parse/root-tile'
import { placeTileContent, regionMovingMatrix, relocatedBoundingVolume } from './library-internals'
import { collectTileMeshes, type TileGltf, type TileMesh } from './tile-meshes'

/**
 * A tileset's root tile read straight from its tileset.json, so its content can be fetched,
 * parsed and drawn while loaders.gl is still building the tile tree (≈ 0.3 s of main thread for
 * a tileset of 1,365 tiles). The root is what a viewer draws first anyway: a REPLACE parent stays
 * on screen until all its children have loaded. The preview gives way as soon as loaders.gl has
 * drawn a tile of its own, or has settled without drawing any (the tileset is out of view).
 */

/** A stand-in for loaders.gl's root `Tile3D`, drawn by `TilesetMeshLayer`. */
export interface RootPreviewTile {
  id: string
  viewportIds: string[]
  contentAvailable: true
  content: { meshes: TileMesh[]; cartographicOrigin: number[]; modelMatrix: number[] }
  /** Set by the layer once drawn. */
  tileDrawn?: boolean
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
  const boundingVolume = relocatedBoundingVolume(
    root.boundingVolume,
    computedTransform,
    regionMovingMatrix(tilesetModelMatrix),
  )
  // loaders.gl's own placement math, on a copy without the glTF (so nothing is rewritten).
  const placed: Record<string, unknown> = {
    rtcCenter: parsed.rtcCenter,
    gltfUpAxis: parsed.gltfUpAxis,
    isQuantized: parsed.isQuantized,
    quantizedVolumeOffset: parsed.quantizedVolumeOffset,
    quantizedVolumeScale: parsed.quantizedVolumeScale,
  }
  placeTileContent(computedTransform, boundingVolume, placed)
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
