import type { FilterContext, GetPickingInfoParams, Layer, PickingInfo } from '@deck.gl/core'
import { Tile3DLayer } from '@deck.gl/geo-layers'
import type { Tile3D, Tileset3D } from '@loaders.gl/tiles'
import { installTile3DLayerPatches, setPickedTile } from './library-internals'
import { TilesetMeshLayer } from './tileset-mesh-layer'

/** A tile whose content is one glTF scene (b3dm, glb, a cmpt of those), not instances. */
export function isMeshTile(tile: Tile3D): boolean {
  const content = tile.content as { gltf?: unknown; instances?: unknown } | undefined
  return Boolean(content?.gltf) && !content?.instances
}

/**
 * A Tile3DLayer that draws a scene-owned tileset stream (prop `tilesetStream`) instead of
 * loading the tileset.json itself, that draws all triangle tiles in one TilesetMeshLayer, and
 * that picks every drawn tile: the stock layer skips tiles whose centre is a quarter screen away
 * from the cursor, which misses the outer buildings of a big b3dm tile.
 */
export class GuardedTile3DLayer extends Tile3DLayer {
  static override layerName = 'GuardedTile3DLayer'

  override filterSubLayer(context: FilterContext): boolean {
    // The mesh layer draws only selected tiles already; the stock check reads a `tile` prop.
    if (context.layer instanceof TilesetMeshLayer) return true
    return super.filterSubLayer({ ...context, isPicking: false })
  }

  /**
   * Triangle tiles are drawn together by one TilesetMeshLayer; point clouds and instanced
   * models (i3dm) keep the stock per-tile layers.
   */
  override renderLayers() {
    const tileset3d = this.state.tileset3d as Tileset3D | null
    if (!tileset3d) return null
    const meshTiles = (tileset3d.tiles as Tile3D[]).filter(
      (tile) => tile.selected && isMeshTile(tile),
    )
    const meshLayer = new TilesetMeshLayer(this.getSubLayerProps({ id: 'meshes' }), {
      tiles: meshTiles,
      // Opaque surfaces: the overlay's default blending would cost a read per pixel for nothing.
      parameters: {
        blend: false,
        depthWriteEnabled: true,
        depthCompare: 'less-equal',
        cullMode: 'none',
      },
    })
    return [meshLayer, ...((super.renderLayers() as Layer[] | null) ?? [])]
  }

  override getPickingInfo(params: GetPickingInfoParams): PickingInfo {
    const { info, sourceLayer } = params
    if (!(sourceLayer instanceof TilesetMeshLayer)) return super.getPickingInfo(params)
    const tile = info.index >= 0 ? sourceLayer.props.tiles[info.index] : undefined
    if (info.picked) info.object = tile
    setPickedTile(info, tile)
    return info
  }
}
installTile3DLayerPatches(GuardedTile3DLayer.prototype, isMeshTile)
