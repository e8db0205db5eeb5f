import type { GeoJSONStoreFeatures, TerraDraw } from 'terra-draw'
import { TerraDrawSelectMode } from 'terra-draw'
import {
  geodesicCirclePoints,
  geodesicDistanceMeters,
  type LngLat,
} from '../../../workers/geodesy/draw-geometry'
import { createTangentPlane, meanPosition } from '../../../workers/geodesy/local-tangent-plane'
import type {
  DrawEditing,
  DrawEditTool,
  DrawPosition,
  DrawShape,
  DrawTypeNumber,
} from '../../api/draw-commands'
import { pendingOf, pointsOfFeature } from './draw-shapes'

/** terra-draw's mode name of each draw type's feature. */
export const modeOfType: Record<DrawTypeNumber, string> = {
  1: 'circle',
  2: 'point',
  3: 'linestring',
  4: 'polygon',
  5: 'linestring',
}

/** terra-draw keeps 9 decimals; a longer coordinate fails its validation. */
const round9 = (value: number) => Math.round(value * 1e9) / 1e9

/** A saved shape as a terra-draw feature of its draw type's mode (a circle as its outline). */
export function featureOfShape(
  id: string | number,
  type: DrawTypeNumber,
  points: readonly DrawPosition[],
): GeoJSONStoreFeatures {
  const ring = (list: readonly DrawPosition[]) => {
    const coordinates = list.map(([lng, lat]) => [round9(lng), round9(lat)])
    coordinates.push([...coordinates[0]!])
    return coordinates
  }
  let geometry: GeoJSONStoreFeatures['geometry']
  if (type === 2)
    geometry = { type: 'Point', coordinates: [round9(points[0]![0]), round9(points[0]![1])] }
  else if (type === 3 || type === 5)
    geometry = {
      type: 'LineString',
      coordinates: points.map(([lng, lat]) => [round9(lng), round9(lat)]),
    }
  else if (type === 4) geometry = { type: 'Polygon', coordinates: [ring(points)] }
  else {
    const [center, rim] = points as [LngLat, LngLat]
    const outline = geodesicCirclePoints(center, geodesicDistanceMeters(center, rim), 64)
    geometry = { type: 'Polygon', coordinates: [ring(outline)] }
  }
  return {
    id,
    type: 'Feature',
    geometry,
    properties: { mode: modeOfType[type] },
  } as GeoJSONStoreFeatures
}

/**
 * `points` turned by `degrees` (clockwise seen from above, as a compass) about their centre, in
 * the tangent plane at the centre, so lengths and areas stay what they were.
 */
export function rotatePoints(points: readonly DrawPosition[], degrees: number): DrawPosition[] {
  if (points.length < 2 || degrees === 0) return points.map(([lng, lat]) => [lng, lat])
  const plane = createTangentPlane(meanPosition(points as LngLat[]))
  const angle = (-degrees * Math.PI) / 180
  const cos = Math.cos(angle)
  const sin = Math.sin(angle)
  return points.map((point) => {
    const [east, north] = plane.toEnu(point as LngLat)
    const [lng, lat] = plane.fromEnu(east * cos - north * sin, east * sin + north * cos)
    return [lng, lat] as DrawPosition
  })
}

/** The select mode's flags for one tool: what a drag may change. */
function flagsOf(tool: DrawEditTool | null) {
  const isEdit = tool === 'edit'
  const feature = {
    draggable: tool === 'move',
    coordinates: isEdit
      ? { draggable: true, midpoints: true, deletable: true }
      : { draggable: false, midpoints: false, deletable: false },
  }
  return {
    polygon: { feature },
    linestring: { feature },
    point: { feature: { draggable: tool === 'move' || isEdit } },
    // A circle's outline is not edited point by point: edit resizes it about its centre.
    circle: {
      feature: {
        draggable: tool === 'move',
        coordinates: isEdit ? { resizable: 'center-fixed' as const } : { draggable: false },
      },
    },
  }
}

/** terra-draw's select mode set up for the geometry control bar (no keyboard shortcuts). */
export function createSelectMode(): TerraDrawSelectMode {
  return new TerraDrawSelectMode({
    flags: flagsOf(null),
    keyEvents: null,
    allowManualDeselection: false,
    allowManualSelection: false,
  })
}

/**
 * The geometry control bar's state on one saved shape (SPEC §4 "Geometry control"): one tool at
 * a time, a rotate angle relative to where rotate began, and undo and redo stacks of the shape's
 * points (terra-draw's own history covers drawing, not select-mode drags and API updates).
 */
export class DrawEditSession {
  private activeTool: DrawEditTool | null = null
  private points: DrawPosition[]
  private readonly history: DrawPosition[][] = []
  /** What undo took back, the last on top; any new change empties it. */
  private readonly redoHistory: DrawPosition[][] = []
  /** The points when rotate began, and the angle reached (the slider is absolute). */
  private rotateBase: DrawPosition[] | null = null
  private rotation = 0
  /** Whether this rotate already put its start on the undo stack (one undo per rotate). */
  private isRotateRecorded = false
  /** The feature's id in terra-draw's store (its id strategy makes them). */
  private readonly featureId: string | number

  constructor(
    private readonly draw: TerraDraw,
    readonly shape: DrawShape,
  ) {
    this.points = shape.points.map(([lng, lat]) => [lng, lat])
    draw.clear()
    draw.setMode('select')
    draw.updateModeOptions<typeof TerraDrawSelectMode>('select', { flags: flagsOf(null) })
    this.featureId = draw.getFeatureId()
    const [result] = draw.addFeatures([featureOfShape(this.featureId, shape.type, this.points)])
    if (!result?.valid) throw new Error(result?.reason ?? 'The shape cannot be edited.')
    draw.selectFeature(this.featureId)
  }

  /** The tool in use. */
  get tool(): DrawEditTool | null {
    return this.activeTool
  }

  /** The snapshot's `editing`. */
  state(): DrawEditing {
    const measured = pendingOf(this.shape.type, this.points)
    return {
      id: this.shape.id,
      type: this.shape.type,
      tool: this.activeTool,
      points: this.points,
      areaSquareMeters: measured.areaSquareMeters,
      lengthMeters: measured.lengthMeters,
      issue: measured.issue,
      rotationDegrees: this.rotation,
      undoDepth: this.history.length,
      redoDepth: this.redoHistory.length,
    }
  }

  /** Chooses the tool: drags now do what it says. */
  setTool(tool: DrawEditTool | null): void {
    this.activeTool = tool
    this.rotateBase = tool === 'rotate' ? this.points : null
    this.rotation = 0
    this.isRotateRecorded = false
    this.draw.updateModeOptions<typeof TerraDrawSelectMode>('select', { flags: flagsOf(tool) })
    // New flags take effect on the next selection.
    this.draw.deselectFeature(this.featureId)
    this.draw.selectFeature(this.featureId)
  }

  /** The rotate slider moved: the shape is its rotate-start points turned by `degrees`. */
  rotate(degrees: number): void {
    if (this.activeTool !== 'rotate') this.setTool('rotate')
    const base = this.rotateBase ?? this.points
    if (!this.isRotateRecorded) this.history.push(this.points)
    this.isRotateRecorded = true
    this.redoHistory.length = 0
    this.rotation = degrees
    this.points = rotatePoints(base, degrees)
    this.draw.updateFeatureGeometry(
      this.featureId,
      featureOfShape(this.featureId, this.shape.type, this.points).geometry,
    )
  }

  /** A drag finished in terra-draw: take its geometry as the shape's points. */
  takeDrag(): boolean {
    const feature = this.draw.getSnapshotFeature(this.featureId)
    if (!feature) return false
    const points = pointsOfFeature(this.shape.type, feature.geometry)
    if (points.length === 0) return false
    this.history.push(this.points)
    this.redoHistory.length = 0
    this.points = points.map(([lng, lat]) => [lng, lat])
    return true
  }

  /** Takes back the last change; false when there is none. */
  undo(): boolean {
    return this.step(this.history, this.redoHistory)
  }

  /** Takes again the last change undo took back; false when there is none. */
  redo(): boolean {
    return this.step(this.redoHistory, this.history)
  }

  /** Shows the points on top of `from`, keeping the present ones on `to`. */
  private step(from: DrawPosition[][], to: DrawPosition[][]): boolean {
    const points = from.pop()
    if (!points) return false
    to.push(this.points)
    this.points = points
    if (this.activeTool === 'rotate') {
      this.rotateBase = points
      this.rotation = 0
      this.isRotateRecorded = false
    }
    this.draw.updateFeatureGeometry(
      this.featureId,
      featureOfShape(this.featureId, this.shape.type, points).geometry,
    )
    return true
  }

  /** Leaves select mode with nothing in terra-draw's store. */
  close(): void {
    this.draw.clear()
    this.draw.setMode('static')
  }
}
