import type { Layer } from '@deck.gl/core'
import type { Map as MapLibreMap } from 'maplibre-gl'
import { SolidPolygonLayer } from '@deck.gl/layers'
import {
  TerraDraw,
  TerraDrawCircleMode,
  TerraDrawLineStringMode,
  TerraDrawPointMode,
  TerraDrawPolygonMode,
} from 'terra-draw'
import { geodesicDistanceMeters } from '../../../workers/geodesy/draw-geometry'
import {
  type GroundDrawings,
  type GroundPicture,
  type WorldBox,
  worldOf,
} from '../../../workers/ground-picture/ground-picture-paint'
import { STALE } from '../../../workers/protocol/latest-wins'
import type {
  DrawEditTool,
  DrawLayerState,
  DrawPending,
  DrawShape,
  DrawTypeNumber,
} from '../../api/draw-commands'
import type { CitySceneContext } from '../city-scene-parts'
import { createSelectMode, DrawEditSession, modeOfType } from './draw-edit'
import { pendingOf, pointsOfFeature, shapeBounds, shapeLayerData } from './draw-shapes'
import { GroundPicturePainter } from '../../workers/ground-picture-client'
import type { WorkerEndpoint } from '../../workers/create-worker-client'
import { type GroundView, servesView, splitDrawings } from './ground-picture'
import { GroundPictureLayer } from './ground-picture-layer'
import { PlainDotLayer, PlainLineLayer } from './plain-triangle-layers'
import { ShapeSnapping } from './shape-snapping'
import { SnappingMapLibreAdapter } from './snapping-adapter'

/**
 * Drawing in the city (issue 18): terra-draw (with its MapLibre adapter) takes the clicks of the
 * shape being drawn and shows it; when it is finished the scene measures it on WGS84 and
 * publishes it as `draw.pending`. Saved shapes are drawn by deck.gl, not by terra-draw, whose
 * store is only for the one shape in hand: painted into one picture of the ground around the
 * view (ground-picture.ts) by the ground-picture worker, and those out of its reach as plain
 * triangles. While a picture is painted, the page's thread shows the drawings as they were
 * (the picture before, when only the view changed) or as triangles (when they changed), so a
 * drawing is never missing and the page never waits for the painting.
 */
export class CityDraw {
  private draw: TerraDraw | null = null
  private activeType: DrawTypeNumber | null = null
  private pending: DrawPending | null = null
  private shapes: readonly DrawShape[] = []
  private cachedLayers: Layer[] = []
  /** The shown layers without the added drawings' triangles (see layersWhileChanged). */
  private baseLayers: Layer[] = []
  /** Drawings added since `baseLayers` were made, drawn over them as triangles. */
  private addedShapes: DrawShape[] = []
  /** Keys of the drawings the shown layers draw (see shapeKey); null before the first. */
  private shownKeys: ReadonlySet<string> | null = null
  private editSession: DrawEditSession | null = null
  /** The saved shapes' vertices and edges a point being drawn or dragged lands on when near. */
  private readonly snapping = new ShapeSnapping()
  /**
   * The finest scale on the screen the drawn circles have their corners for (metres a pixel,
   * a power of two at or below the true one), or undefined before the map has a size.
   */
  private circleScale: number | undefined
  /** Paints the ground pictures off the page's thread. */
  private readonly painter: GroundPicturePainter
  /** The number of the latest paint asked for: an older picture arriving late is dropped. */
  private paintNumber = 0
  /** True from asking for a picture until it is shown (or its paint failed). */
  private isPicturePainting = false
  private isDisposed = false
  /** The view, region and drawings' reach the ground picture was planned for. */
  private painted: {
    view: GroundView
    region: WorldBox | null
    drawingsBox: WorldBox | null
  } | null = null
  /**
   * After a zoom or tilt the circles get the corners the new scale needs (see draw-shapes.ts),
   * and the ground picture is painted again when it no longer serves the view.
   */
  private readonly onViewSettled = () => {
    if (this.shapes.length === 0) return
    const view = groundViewOf(this.context.map)
    const isServed = view && this.painted ? servesView(this.painted, view) : !view && !this.painted
    if (finestScaleOf(this.context.map) !== this.circleScale || !isServed)
      this.repaint({ drawingsChanged: false })
  }

  constructor(
    private readonly context: CitySceneContext,
    createPictureWorker?: () => WorkerEndpoint,
  ) {
    this.painter = new GroundPicturePainter(createPictureWorker)
    context.map.on('moveend', this.onViewSettled)
  }

  /** The draw state of the snapshot. */
  state(): DrawLayerState {
    return {
      activeType: this.activeType,
      pending: this.pending,
      shapeCount: this.shapes.length,
      visibleShapeCount: this.shapes.filter((shape) => shape.isVisible).length,
      isPicturePainting: this.isPicturePainting,
      editing: this.editSession?.state() ?? null,
    }
  }

  /** Starts the draw tool of `type` (see `draw.start`). */
  start(type: DrawTypeNumber): void {
    this.closeEdit()
    const draw = this.ensureDraw()
    draw.clear()
    this.pending = null
    this.activeType = type
    draw.setMode(modeOfType[type])
    // The tool snaps from its first pointer move: the index is built now, not on that move.
    this.snapping.prepare()
    this.publish()
  }

  /** Stops drawing and drops the shape in hand. */
  cancel(): void {
    if (this.editSession) {
      this.closeEdit()
      this.refreshSaved()
    }
    if (this.draw) {
      this.draw.clear()
      this.draw.setMode('static')
    }
    this.activeType = null
    this.pending = null
    this.publish()
  }

  /**
   * Opens the geometry control bar on saved shape `id` (see `draw.edit`); false when there is
   * no such shape.
   */
  edit(id: string): boolean {
    const shape = this.shapes.find((candidate) => candidate.id === id)
    if (!shape) return false
    this.closeEdit()
    this.activeType = null
    this.pending = null
    this.editSession = new DrawEditSession(this.ensureDraw(), shape)
    this.refreshSaved()
    return true
  }

  /** The bar's tool; false when nothing is being edited. */
  editTool(tool: DrawEditTool | null): boolean {
    if (!this.editSession) return false
    this.editSession.setTool(tool)
    // Dragging points snaps (see snapAt); the other tools never ask for the index.
    if (tool === 'edit') this.snapping.prepare()
    this.publish()
    return true
  }

  /** The rotate slider; false when nothing is being edited. */
  editRotate(degrees: number): boolean {
    if (!this.editSession) return false
    this.editSession.rotate(degrees)
    this.publish()
    return true
  }

  /** Undo in the bar. */
  editUndo(): boolean {
    const changed = this.editSession?.undo() ?? false
    this.publish()
    return changed
  }

  /** Redo in the bar: takes again the change undo took back. */
  editRedo(): boolean {
    const changed = this.editSession?.redo() ?? false
    this.publish()
    return changed
  }

  /** Closes the bar; the saved shape is drawn again as saved. */
  editStop(): void {
    this.closeEdit()
    this.refreshSaved()
  }

  private closeEdit(): void {
    if (!this.editSession) return
    this.editSession.close()
    this.editSession = null
  }

  /**
   * The saved shapes drawn again, and snapped to (but not the one in the bar): the snapping
   * index is only marked out of date here and built when a tool that snaps needs it.
   */
  private refreshSaved(): void {
    this.snapping.setShapes(this.shapes, this.editSession?.shape.id)
    this.repaint({ drawingsChanged: true })
  }

  /** The saved shapes drawn again for the view as it is. */
  private repaint({ drawingsChanged }: { drawingsChanged: boolean }): void {
    this.cachedLayers = this.buildLayers(drawingsChanged)
    this.context.updateLayers()
    this.publish()
  }

  /**
   * Where a pointer at container pixel (x, y) lands: on a saved vertex near it, else on a saved
   * edge near it, while a shape is drawn or its points are dragged (the edit tool); never while
   * moving or turning a whole shape, which would jump.
   */
  private snapAt(adapter: SnappingMapLibreAdapter, x: number, y: number) {
    const isDrawing = this.activeType !== null && this.pending === null
    if (!isDrawing && this.editSession?.tool !== 'edit') return undefined
    return this.snapping.nearest(x, y, adapter)
  }

  /** Replaces the saved shapes. */
  setShapes(shapes: readonly DrawShape[]): void {
    this.shapes = shapes
    // A shape edited and then deleted elsewhere leaves the bar.
    if (this.editSession && !shapes.some((shape) => shape.id === this.editSession!.shape.id))
      this.closeEdit()
    this.refreshSaved()
  }

  /** Fits the camera to a saved shape; false when there is no such shape. */
  async flyTo(id: string): Promise<boolean> {
    const shape = this.shapes.find((candidate) => candidate.id === id)
    if (!shape) return false
    const [west, south, east, north] = shapeBounds(shape)
    const map = this.context.map
    if (west === east && south === north) map.flyTo({ center: [west, south], zoom: 17 })
    else map.fitBounds([west, south, east, north], { padding: 60, maxZoom: 19 })
    await new Promise<void>((resolve) => map.once('moveend', () => resolve()))
    return true
  }

  /** deck.gl layers of the saved shapes. */
  layers(): Layer[] {
    return this.cachedLayers
  }

  dispose(): void {
    this.isDisposed = true
    this.painter.dispose()
    this.context.map.off('moveend', this.onViewSettled)
    try {
      this.draw?.stop()
    } catch {
      // the map may already be gone
    }
    this.draw = null
  }

  private publish(): void {
    this.context.publish({ draw: this.state() })
  }

  private ensureDraw(): TerraDraw {
    if (this.draw) return this.draw
    const adapter = new SnappingMapLibreAdapter({ map: this.context.map, prefixId: 'ts-draw' })
    adapter.snapAt = (x, y) => this.snapAt(adapter, x, y)
    const draw = new TerraDraw({
      adapter,
      modes: [
        new TerraDrawPointMode({ editable: false }),
        new TerraDrawLineStringMode(),
        new TerraDrawPolygonMode(),
        new TerraDrawCircleMode({ projection: 'globe' }),
        createSelectMode(),
      ],
    })
    draw.start()
    draw.on('finish', (id, context) => {
      if (this.editSession) {
        // A drag of the edited shape ended (select mode): its new points are the shape's.
        if (context.mode === 'select' && this.editSession.takeDrag()) this.publish()
        return
      }
      const type = this.activeType
      const feature = draw.getSnapshotFeature(id)
      if (type === null || !feature) return
      this.pending = pendingOf(type, pointsOfFeature(type, feature.geometry))
      // One shape at a time: the finished one stays shown until it is saved or dropped.
      draw.setMode('static')
      this.publish()
    })
    this.draw = draw
    return draw
  }

  /**
   * The layers of the saved shapes for the view as it is now, and a new ground picture asked
   * for; `drawingsChanged` false (only the view changed) keeps the layers shown until it comes.
   */
  private buildLayers(drawingsChanged: boolean): Layer[] {
    const editedId = this.editSession?.shape.id
    this.circleScale = finestScaleOf(this.context.map)
    // The shape in the bar is drawn by terra-draw, editable, not twice.
    const drawn = this.shapes.filter((shape) => shape.isVisible && shape.id !== editedId)
    const drawings = groundDrawingsOf(shapeLayerData(drawn, this.circleScale))
    const keys = new Set(drawn.map(shapeKey))
    const changedLayers = drawingsChanged ? this.layersWhileChanged(drawn, keys, drawings) : null
    this.shownKeys = keys
    // Whatever paint is under way is for drawings or a view that are no longer the ones shown.
    const paintNumber = ++this.paintNumber
    this.isPicturePainting = false
    const view = groundViewOf(this.context.map)
    if (!view) {
      this.painted = null
      return this.showTriangles(drawings)
    }
    const { texel, region, drawingsBox, inPicture, outside } = splitDrawings(drawings, view)
    this.painted = { view, region, drawingsBox }
    if (!region) return this.showTriangles(outside)
    this.isPicturePainting = true
    this.painter.paint(inPicture, region, { texel, pixel: view.pixel }).then(
      (picture) => {
        if (picture !== STALE) this.showPicture(paintNumber, picture, outside)
      },
      () => this.showPicture(paintNumber, null, drawings),
    )
    return changedLayers ?? this.cachedLayers
  }

  /**
   * What is shown while the picture of changed drawings is painted. When drawings were only
   * added (saved, or shown again), the layers shown stay and the new ones are drawn over them
   * as triangles: saving one drawing among 2,000 no longer builds 2,000 drawings' triangles on
   * the page's thread. When any drawing shown was deleted, hidden or changed, every drawing is
   * triangles, as before: what is shown never keeps a drawing that is gone.
   */
  private layersWhileChanged(
    drawn: readonly DrawShape[],
    keys: ReadonlySet<string>,
    drawings: GroundDrawings,
  ): Layer[] {
    const shown = this.shownKeys
    if (shown === null || ![...shown].every((key) => keys.has(key)))
      return this.showTriangles(drawings)
    this.addedShapes = [
      ...this.addedShapes,
      ...drawn.filter((shape) => !shown.has(shapeKey(shape))),
    ]
    const added = groundDrawingsOf(shapeLayerData(this.addedShapes, this.circleScale))
    return [...this.baseLayers, ...triangleLayers(added, 'draw-added')]
  }

  /** Every drawing of `drawings` as triangles, and nothing else, until a picture is shown. */
  private showTriangles(drawings: GroundDrawings): Layer[] {
    this.addedShapes = []
    this.baseLayers = triangleLayers(drawings)
    return this.baseLayers
  }

  /**
   * Shows a painted picture with the drawings out of its reach as triangles, unless a newer
   * paint was asked for meanwhile; a failed paint (null) shows every drawing as triangles.
   */
  private showPicture(
    paintNumber: number,
    picture: GroundPicture | null,
    triangles: GroundDrawings,
  ): void {
    if (this.isDisposed || paintNumber !== this.paintNumber) return
    this.isPicturePainting = false
    this.addedShapes = []
    this.baseLayers = [
      ...(picture
        ? [
            // See-through on the ground's plane, as the fills: it blends, and writes no depth.
            new GroundPictureLayer({
              id: 'draw-ground',
              picture,
              parameters: { depthWriteEnabled: false },
            }),
          ]
        : []),
      ...triangleLayers(triangles),
    ]
    this.cachedLayers = this.baseLayers
    this.context.updateLayers()
    this.publish()
  }
}

/** A drawing as drawn: the same key, the same look (any change of it is another key). */
function shapeKey(shape: DrawShape): string {
  return JSON.stringify(shape)
}

/** The saved shapes' layer data as the ground picture and the plain layers take it. */
function groundDrawingsOf(data: ReturnType<typeof shapeLayerData>): GroundDrawings {
  return {
    fills: data.areas.map((area) => ({ ring: area.ring, color: area.fill })),
    lines: [
      ...data.areas
        .filter((area) => area.width > 0)
        .map((area) => ({
          path: area.ring,
          color: area.outline,
          widthPixels: area.width,
          isClosed: true,
        })),
      ...data.lines.map((line) => ({
        path: line.path,
        color: line.color,
        widthPixels: Math.max(1, line.width),
      })),
    ],
    dots: data.nodes.map((node) => ({
      position: node.position,
      fillColor: node.color,
      lineColor: [255, 255, 255, 255],
      radiusPixels: 5,
      lineWidthPixels: 1.5,
    })),
  }
}

/**
 * Drawings as triangles: fills in deck's SolidPolygonLayer; outlines, paths and nodes in the
 * plain-triangle layers, which cost one draw each on a software GPU (plain-triangle-layers.ts).
 */
function triangleLayers(drawings: GroundDrawings, idPrefix = 'draw'): Layer[] {
  // Lines and nodes lie on the fills' plane: pulled a little towards the camera they are drawn
  // over the fills (no z-fighting), and a building in front still hides them.
  const overFills = { depthBias: -2, depthBiasSlopeScale: -400 }
  // Only the kinds there are: beside a ground picture the triangles are usually none, and an
  // empty layer still costs deck its per-frame set-up on the page's thread.
  return [
    drawings.fills.length > 0 &&
      new SolidPolygonLayer({
        id: `${idPrefix}-areas`,
        data: drawings.fills,
        getPolygon: (fill) => fill.ring as [number, number][],
        getFillColor: (fill) => fill.color as [number, number, number, number],
        filled: true,
        // See-through fills on one plane: writing depth would let each hide parts of the next
        // (stair-step z-fighting where areas overlap); they blend instead.
        parameters: { depthWriteEnabled: false },
      }),
    drawings.lines.length > 0 &&
      new PlainLineLayer({ id: `${idPrefix}-lines`, lines: drawings.lines, parameters: overFills }),
    drawings.dots.length > 0 &&
      new PlainDotLayer({ id: `${idPrefix}-nodes`, dots: drawings.dots, parameters: overFills }),
  ].filter((layer) => layer !== false)
}

/**
 * The view as the ground picture is planned for it (see ground-picture.ts): its centre, how far
 * the ground on the screen reaches from it, a texel of half a CSS pixel at the bottom edge (the
 * nearest ground when tilted: a line's edge is within a quarter pixel there, and a pixel's worth
 * of ring is two texels) and the zoom's CSS pixel. Undefined while the map has no size.
 */
function groundViewOf(map: MapLibreMap): GroundView | undefined {
  const { clientWidth: width, clientHeight: height } = map.getContainer()
  if (width < 2 || height < 2) return undefined
  const worldAt = (x: number, y: number) => {
    const { lng, lat } = map.unproject([x, y])
    return worldOf([lng, lat])
  }
  const center = worldOf([map.getCenter().lng, map.getCenter().lat])
  let reach = 0
  for (const [x, y] of [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
  ] as const) {
    const corner = worldAt(x, y)
    reach = Math.max(reach, Math.abs(corner[0] - center[0]), Math.abs(corner[1] - center[1]))
  }
  const left = worldAt(width / 2 - 0.5, height - 1)
  const right = worldAt(width / 2 + 0.5, height - 1)
  const bottomPixel = Math.hypot(right[0] - left[0], right[1] - left[1])
  if (!(bottomPixel > 0) || !(reach > 0)) return undefined
  return {
    center,
    reach,
    texel: bottomPixel / 2,
    pixel: 1 / (512 * 2 ** map.getZoom()),
  }
}

/**
 * The finest scale on the map's screen, metres a pixel, rounded down to a power of two (so it
 * changes once a zoom level, and errs towards more detail): the ground at the bottom edge is the
 * nearest to the camera when the map is tilted. Undefined while the map has no size.
 */
function finestScaleOf(map: MapLibreMap): number | undefined {
  const { clientWidth: width, clientHeight: height } = map.getContainer()
  if (width < 2 || height < 2) return undefined
  const left = map.unproject([width / 2 - 0.5, height - 1])
  const right = map.unproject([width / 2 + 0.5, height - 1])
  const meters = geodesicDistanceMeters([left.lng, left.lat], [right.lng, right.lat])
  if (!(meters > 0)) return undefined
  return 2 ** Math.floor(Math.log2(meters))
}
