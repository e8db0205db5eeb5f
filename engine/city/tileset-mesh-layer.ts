import {
  type DefaultProps,
  Layer,
  type LayerContext,
  type LayerProps,
  type UpdateParameters,
} from '@deck.gl/core'
import type { Tile3D } from '@loaders.gl/tiles'
import { withDeviceParameters } from '@luma.gl/webgl'
import { Matrix4 } from '@math.gl/core'
import {
  createTileMeshGpu,
  deleteTileMeshGpu,
  drawTileMeshes,
  prepareTileMeshProgram,
  type TileDrawMode,
  type TileMeshDraw,
  type TileMeshGpu,
} from './tile-mesh-renderer'
import { markCityStep } from './first-render-marks'
import { setTileDrawn, webglOf } from './library-internals'
import { collectTileMeshes, type TileGltf, type TileMesh } from './tile-meshes'

/**
 * Draws every selected triangle tile of a tileset (b3dm, glb, cmpt) in one deck.gl layer with
 * one small program (tile-mesh-renderer.ts). deck's stock Tile3DLayer makes a ScenegraphLayer
 * per tile — a layer's lifecycle, project uniforms and a PBR program per tile — which the
 * city-tiles bench showed costing most of each frame and most of the time to first render on
 * a software GPU. Here a tile costs its buffers, a texture and a few uniforms per draw.
 *
 * Positions reach clip space through one matrix per mesh composed on the CPU in double
 * precision (tile frame → east-north-up metres → deck's common space → clip), linearised at the
 * tile's origin as deck's own METER_OFFSETS are. Picking takes part in deck's passes: the
 * picking colour of a draw is its tile's index in `tiles`, and the depth pass (`unproject3D`)
 * reads the program's clip depth.
 */

/** Props of {@link TilesetMeshLayer}. */
export interface TilesetMeshLayerProps extends LayerProps {
  /** The tiles to draw this frame (selected, with glTF content, not instanced). */
  tiles: readonly Tile3D[]
}

/** The loaded content fields this layer reads. */
interface MeshTileContent {
  gltf?: TileGltf
  /** Meshes already read from the glTF (a root preview, root-preview.ts). */
  meshes?: TileMesh[]
  cartographicOrigin?: number[]
  modelMatrix?: number[]
}

/** GPU copies of one tile, tied to the content object they were made from. */
interface TileGpu {
  content: object
  meshes: TileMeshGpu[]
}

interface TilesetMeshLayerState {
  [key: string]: unknown
  gpuByTile: Map<Tile3D, TileGpu>
  /** Whether this layer drew a tile yet (its first draw is marked, first-render-marks.ts). */
  isDrawnOnce?: boolean
}

/** deck's picking module props, as the layer passes hand them to `draw`. */
interface PickingProps {
  isActive?: boolean | number
  isAttribute?: boolean | number
}

const defaultProps: DefaultProps<TilesetMeshLayerProps> = {
  tiles: { type: 'array', value: [], compare: false },
}

/** A deck.gl layer drawing a tileset's triangle tiles; see the module comment. */
export class TilesetMeshLayer extends Layer<TilesetMeshLayerProps> {
  static override layerName = 'TilesetMeshLayer'
  static override defaultProps = defaultProps

  declare state: TilesetMeshLayerState

  override initializeState(): void {
    this.state = { gpuByTile: new Map() }
    // Made now, not in the first draw (the scene normally made it when the map started).
    prepareTileMeshProgram(this.gl())
  }

  override shouldUpdateState({ changeFlags }: UpdateParameters<this>): boolean {
    return Boolean(changeFlags.propsOrDataChanged)
  }

  override updateState(): void {
    this.releaseUnloadedTiles()
  }

  override finalizeState(context: LayerContext): void {
    for (const tileGpu of this.state.gpuByTile.values()) this.deleteTileGpu(tileGpu)
    this.state.gpuByTile.clear()
    super.finalizeState(context)
  }

  override draw({
    shaderModuleProps,
    parameters,
  }: {
    shaderModuleProps?: { picking?: PickingProps }
    parameters?: Parameters<typeof withDeviceParameters>[1]
  }): void {
    const picking = shaderModuleProps?.picking
    const mode: TileDrawMode = !picking?.isActive
      ? 'color'
      : picking.isAttribute
        ? 'pickingDepth'
        : 'pickingColor'
    const viewport = this.context.viewport
    const viewProjection = new Matrix4(viewport.viewProjectionMatrix)
    const { tiles } = this.props
    const draws: { gpu: TileMeshGpu; draw: TileMeshDraw }[] = []
    const drawnTiles: Tile3D[] = []
    for (let index = 0; index < tiles.length; index++) {
      const tile = tiles[index]!
      // loaders.gl selects per viewport; a tile chosen for another view is not drawn in this.
      if (!tile.viewportIds?.includes(viewport.id)) continue
      const content = tile.content as MeshTileContent | undefined
      const tileGpu = this.tileGpu(tile)
      if (!content?.cartographicOrigin || !tileGpu) continue
      const origin = content.cartographicOrigin
      const tileToMeters = new Matrix4(content.modelMatrix ?? Matrix4.IDENTITY)
      const tileToClip = new Matrix4(viewProjection)
        .translate(viewport.projectPosition(origin))
        .scale(viewport.getDistanceScales(origin).unitsPerMeter)
        .multiplyRight(tileToMeters)
      const [red, green, blue] = this.encodePickingColor(index)
      const pickingColor = [red / 255, green / 255, blue / 255] as const
      for (const gpu of tileGpu.meshes) {
        draws.push({
          gpu,
          draw: {
            modelViewProjection: new Float32Array(
              new Matrix4(tileToClip).multiplyRight(gpu.mesh.matrix),
            ),
            modelMatrix: new Float32Array(new Matrix4(tileToMeters).multiplyRight(gpu.mesh.matrix)),
            pickingColor,
          },
        })
      }
      drawnTiles.push(tile)
    }
    // deck states depth, culling and the picking pass's blending in luma's device terms, which
    // luma applies only around its own pipelines' draws; these draws apply them themselves.
    withDeviceParameters(this.context.device, parameters ?? {}, () =>
      drawTileMeshes(this.gl(), mode, draws),
    )
    // loaders.gl keeps a tile's ancestors on screen until the tile says it was drawn.
    if (mode === 'color') {
      if (drawnTiles.length > 0 && !this.state.isDrawnOnce) {
        this.state.isDrawnOnce = true
        markCityStep('tiles-drawn-first')
      }
      for (const tile of drawnTiles) setTileDrawn(tile, true)
    }
  }

  private gl(): WebGL2RenderingContext {
    return webglOf(this.context.device)
  }

  /** The tile's GPU copies, made on first use and remade when its content was reloaded. */
  private tileGpu(tile: Tile3D): TileGpu | null {
    const content = tile.content as MeshTileContent | undefined
    if (!content?.gltf && !content?.meshes) return null
    const existing = this.state.gpuByTile.get(tile)
    if (existing?.content === content) return existing
    if (existing) this.deleteTileGpu(existing)
    const gl = this.gl()
    const meshes = content.meshes ?? collectTileMeshes(content.gltf as TileGltf)
    const tileGpu: TileGpu = {
      content,
      meshes: meshes.map((mesh) => createTileMeshGpu(gl, mesh)),
    }
    this.state.gpuByTile.set(tile, tileGpu)
    return tileGpu
  }

  /** Frees the GPU copies of tiles loaders.gl unloaded (memory budget) or replaced. */
  private releaseUnloadedTiles(): void {
    for (const [tile, tileGpu] of this.state.gpuByTile) {
      if (tile.content === tileGpu.content && tile.contentAvailable) continue
      this.deleteTileGpu(tileGpu)
      this.state.gpuByTile.delete(tile)
    }
  }

  private deleteTileGpu(tileGpu: TileGpu): void {
    const gl = this.gl()
    for (const mesh of tileGpu.meshes) deleteTileMeshGpu(gl, mesh)
  }
}
