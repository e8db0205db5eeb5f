import { COORDINATE_SYSTEM, type Layer, type PickingInfo } from '@deck.gl/core'
import type { MapLibreOverlay } from '@deck.gl/maplibre'
import { SimpleMeshLayer } from '@deck.gl/mesh-layers'
import { Matrix4 } from '@math.gl/core'
import { Ellipsoid } from '@math.gl/geospatial'
import type { CityFeaturePick } from '../api/city-snapshot'
import { EngineError } from '../api/errors'
import {
  type BatchedGltf,
  type BatchedPrimitive,
  batchLength,
  collectBatchedPrimitives,
  featureProperties,
  featureTrianglePositions,
  nearestBatchId,
  type TileContentTables,
} from './batched-features'
import type { CitySceneContext } from './city-scene-parts'
import { pickedTile } from './library-internals'
import type { TilesetStreams } from './tileset-streams'

/** The highlight drawn over a selected feature. */
const highlightColor: [number, number, number, number] = [255, 196, 0, 190]
/** How far (metres) the closest vertex may be from a picked point and still name its feature. */
const featurePickToleranceMeters = 50

/** The loaded tile content fields this part reads (loaders.gl types them loosely). */
interface TileContent extends TileContentTables {
  type?: string
  gltf?: BatchedGltf
  instances?: unknown[]
  cartographicOrigin?: number[]
  modelMatrix?: number[]
}

/** A selected feature with the geometry its highlight draws. */
interface Selection {
  tilesetId: string
  tileId: string
  featureId: number
  properties: Record<string, unknown>
  highlight: { positions: Float32Array; origin: number[]; modelMatrix: number[] } | null
}

/**
 * The feature-selection part of a city scene: what is drawn at a screen point (tileset, tile,
 * batched feature and its batch-table properties), the one selected feature with its
 * highlight, and the selection in the snapshot.
 */
export class FeatureSelection {
  private selection: Selection | null = null
  private readonly primitivesByTile = new WeakMap<object, BatchedPrimitive[]>()
  /** Where the last feature was picked, so `flyTo {featureId}` has a destination. */
  private lastPickPosition: { lng: number; lat: number } | null = null

  constructor(
    private readonly context: CitySceneContext,
    private readonly overlay: MapLibreOverlay,
    private readonly streams: TilesetStreams,
  ) {}

  /** The tileset, tile and batched feature drawn at a container point, or null. */
  pick(x: number, y: number): CityFeaturePick | null {
    const info = this.overlay.pickObject({ x, y, radius: 2, unproject3D: true }) as PickingInfo
    if (!info?.picked || !info.layer) return null
    const tilesetId = this.streams.tilesetOfLayer(info.layer.id)
    const tile = pickedTile(info)
    if (!tilesetId || !tile) return null
    const content = tile.content as TileContent | undefined
    const coordinate = info.coordinate
    const position =
      coordinate && coordinate.length >= 2
        ? { lng: coordinate[0]!, lat: coordinate[1]!, heightMeters: coordinate[2] ?? 0 }
        : null
    let featureId: number | null = null
    if (content?.instances) {
      // i3dm: deck's instance index is the batch id of the instance.
      featureId = info.index >= 0 ? info.index : null
    } else if (content?.gltf && position) {
      featureId = this.featureAtPosition(content, position)
    }
    if (position && featureId !== null) this.lastPickPosition = position
    return {
      tilesetId,
      tileId: tile.id,
      featureId,
      properties: content && featureId !== null ? featureProperties(content, featureId) : {},
      position,
    }
  }

  /**
   * Picks at a container point and selects the feature found there; a point without a
   * feature clears the selection. Answers the pick.
   */
  pickAndSelect(x: number, y: number): CityFeaturePick | null {
    const pick = this.pick(x, y)
    if (pick && pick.featureId !== null) this.select(pick.tilesetId, pick.tileId, pick.featureId)
    else this.clear()
    return pick
  }

  /** Selects (and highlights) one feature of a loaded tile, or clears with `featureId: null`. */
  select(tilesetId: string, tileId: string | undefined, featureId: number | null): void {
    const entry = this.streams.entry(tilesetId)
    if (featureId === null) {
      this.clear()
      return
    }
    const tile = this.streams.loadedTiles(entry).find((candidate) => {
      if (tileId !== undefined) return candidate.id === tileId
      const content = candidate.content as TileContent | undefined
      return content ? featureId < batchLength(content) : false
    })
    if (!tile?.content) {
      throw new EngineError(
        'engine.invalidArgument',
        `No loaded tile of ${tilesetId} holds feature ${featureId}.`,
        `${tilesetId}/${tileId ?? ''}/${featureId}`,
      )
    }
    const content = tile.content as TileContent
    if (featureId < 0 || featureId >= batchLength(content)) {
      throw new EngineError(
        'engine.invalidArgument',
        `Tile ${tile.id} has no feature ${featureId}.`,
        `${tilesetId}/${tile.id}/${featureId}`,
      )
    }
    const primitives = content.gltf ? this.primitivesOf(content) : []
    const positions = featureTrianglePositions(primitives, featureId)
    this.selection = {
      tilesetId,
      tileId: tile.id,
      featureId,
      properties: featureProperties(content, featureId),
      highlight:
        positions.length > 0 && content.cartographicOrigin && content.modelMatrix
          ? { positions, origin: content.cartographicOrigin, modelMatrix: content.modelMatrix }
          : null,
    }
    this.publish()
    this.context.updateLayers()
  }

  /** Clears the selection (and its highlight) when there is one. */
  clear(): void {
    if (!this.selection) return
    this.selection = null
    this.publish()
    this.context.updateLayers()
  }

  /** Clears the selection when it is a feature of that tileset (its tiles went away). */
  clearIfOf(tilesetId: string): void {
    if (this.selection?.tilesetId === tilesetId) this.clear()
  }

  /** Where a selected feature is, if it is the selected one: for `flyTo {featureId}`. */
  featurePosition(tilesetId: string, featureId: number): { lng: number; lat: number } | null {
    const selection = this.selection
    if (selection?.tilesetId !== tilesetId || selection.featureId !== featureId) return null
    return this.selectionCenter() ?? this.lastPickPosition
  }

  /** The highlight layer of the selection, or null. */
  layer(): Layer | null {
    const selection = this.selection
    if (!selection?.highlight) return null
    const { positions, origin, modelMatrix } = selection.highlight
    return new SimpleMeshLayer({
      id: `selection-${selection.tilesetId}-${selection.tileId}-${selection.featureId}`,
      data: [0],
      mesh: { positions: { value: positions, size: 3 } } as never,
      getPosition: () => [0, 0, 0],
      getColor: highlightColor,
      coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
      coordinateOrigin: origin as [number, number, number],
      modelMatrix: new Matrix4(modelMatrix),
      flatShading: true,
      pickable: false,
      // Drawn over everything: a selected building stays visible behind its neighbours.
      parameters: { depthCompare: 'always' },
    })
  }

  /** Publishes the selection (null, or the feature without its geometry). */
  publish(): void {
    const selection = this.selection
    this.context.publish({
      selectedFeature: selection
        ? {
            tilesetId: selection.tilesetId,
            tileId: selection.tileId,
            featureId: selection.featureId,
            properties: selection.properties,
          }
        : null,
    })
  }

  /** Forgets the selection without publishing (the scene is going away). */
  dispose(): void {
    this.selection = null
  }

  private primitivesOf(content: TileContent): BatchedPrimitive[] {
    let primitives = this.primitivesByTile.get(content)
    if (!primitives) {
      primitives = content.gltf ? collectBatchedPrimitives(content.gltf) : []
      this.primitivesByTile.set(content, primitives)
    }
    return primitives
  }

  /** The batch id at a picked surface point, from the closest vertex of the tile's glTF. */
  private featureAtPosition(
    content: TileContent,
    position: { lng: number; lat: number; heightMeters: number },
  ): number | null {
    if (!content.cartographicOrigin || !content.modelMatrix) return null
    const primitives = this.primitivesOf(content)
    if (primitives.length === 0) return null
    // Picked point → east-north-up metres at the tile's origin → the glTF's scene space.
    const fixedFrame = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
      Ellipsoid.WGS84.cartographicToCartesian(content.cartographicOrigin),
    )
    const pointFixed = Ellipsoid.WGS84.cartographicToCartesian([
      position.lng,
      position.lat,
      position.heightMeters,
    ])
    const pointEastNorthUp = new Matrix4(fixedFrame).invert().transformAsPoint(pointFixed)
    const pointScene = new Matrix4(content.modelMatrix).invert().transformAsPoint(pointEastNorthUp)
    const nearest = nearestBatchId(primitives, [pointScene[0]!, pointScene[1]!, pointScene[2]!])
    return nearest && nearest.distanceMeters <= featurePickToleranceMeters ? nearest.batchId : null
  }

  /** Where the selected feature is: the centre of its triangles' bounds, on the globe. */
  private selectionCenter(): { lng: number; lat: number } | null {
    const highlight = this.selection?.highlight
    if (!highlight || highlight.positions.length < 3) return null
    const { positions, origin, modelMatrix } = highlight
    const low = [Infinity, Infinity, Infinity]
    const high = [-Infinity, -Infinity, -Infinity]
    for (let index = 0; index < positions.length; index++) {
      const axis = index % 3
      low[axis] = Math.min(low[axis]!, positions[index]!)
      high[axis] = Math.max(high[axis]!, positions[index]!)
    }
    const centerScene = low.map((value, axis) => (value + high[axis]!) / 2)
    // Scene space → east-north-up metres at the tile's origin → the globe.
    const centerMeters = new Matrix4(modelMatrix).transformAsPoint(centerScene)
    const fixedFrame = Ellipsoid.WGS84.eastNorthUpToFixedFrame(
      Ellipsoid.WGS84.cartographicToCartesian(origin),
    )
    const [lng, lat] = Ellipsoid.WGS84.cartesianToCartographic(
      new Matrix4(fixedFrame).transformAsPoint(centerMeters),
    )
    return Number.isFinite(lng) && Number.isFinite(lat) ? { lng: lng!, lat: lat! } : null
  }
}
