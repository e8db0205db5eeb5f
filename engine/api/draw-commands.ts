/**
 * Drawing on the city map (issue 18, SPEC §2 area division and path programming, §9 draw
 * types): the UI starts a draw tool, the engine lets the user draw with it (terra-draw on the
 * map) and publishes the finished shape with its geodesic area and length in
 * `snapshot.city.draw.pending`; saved shapes are handed back with `draw.setShapes` and drawn by
 * deck.gl. The UI never touches the map.
 */

/** SPEC §3 draw types: 1 circle, 2 point, 3 polyline, 4 polygon, 5 inflection point. */
export type DrawTypeNumber = 1 | 2 | 3 | 4 | 5

/** SPEC §9 path display modes: 0 hide all, 1 node and path, 2 node only, 3 path only. */
export type PathDisplayMode = 0 | 1 | 2 | 3

/** A [longitude, latitude] pair, degrees. */
export type DrawPosition = readonly [lng: number, lat: number]

/** A saved shape to draw (a circle is its centre and a point on its rim). */
export interface DrawShape {
  id: string
  type: DrawTypeNumber
  points: readonly DrawPosition[]
  /** `#rrggbbaa`. */
  fillColor: string
  /** `#rrggbbaa`. */
  outlineColor: string
  outlineWidthPx: number
  /** Which of nodes and segments a polyline or inflection-point shape shows. */
  displayMode: PathDisplayMode
  isVisible: boolean
}

/** A shape the user just finished drawing, measured on WGS84, waiting to be saved or dropped. */
export interface DrawPending {
  type: DrawTypeNumber
  readonly points: readonly DrawPosition[]
  /** m² (circles and polygons). */
  areaSquareMeters: number
  /** m: perimeter of an area, length of a line. */
  lengthMeters: number
  /**
   * Why the server would refuse it (workers/geodesy `GeometryIssue` code, e.g.
   * `polygonSelfIntersecting`), or null when it can be saved.
   */
  issue: string | null
}

/**
 * The geometry control bar's tools (SPEC §2, §4): one at a time. `edit` drags vertices (and
 * adds one from a segment's midpoint), `move` drags the whole shape, `rotate` turns it by the
 * rotate slider about its centre.
 */
export type DrawEditTool = 'edit' | 'move' | 'rotate'

/** A saved shape being edited with the geometry control bar, as it is now (measured). */
export interface DrawEditing {
  readonly id: string
  readonly type: DrawTypeNumber
  readonly tool: DrawEditTool | null
  readonly points: readonly DrawPosition[]
  readonly areaSquareMeters: number
  readonly lengthMeters: number
  /** As in {@link DrawPending}: why it could not be saved like this, or null. */
  readonly issue: string | null
  /** The rotate slider's angle, degrees (-180..180), relative to the shape when rotate began. */
  readonly rotationDegrees: number
  /** How many changes undo can take back. */
  readonly undoDepth: number
  /** How many changes redo can take again (any new change empties it). */
  readonly redoDepth: number
}

/** `snapshot.city.draw`. */
export interface DrawLayerState {
  /** The draw tool in use, or null. */
  readonly activeType: DrawTypeNumber | null
  readonly pending: DrawPending | null
  /** Saved shapes given with `draw.setShapes`, and how many of them are shown. */
  readonly shapeCount: number
  readonly visibleShapeCount: number
  /**
   * True while the picture the saved shapes are drawn in is painted off the page's thread;
   * meanwhile they are shown as before, or as triangles (engine/city/draw/ground-picture.ts).
   */
  readonly isPicturePainting: boolean
  /** The saved shape in the geometry control bar, or null. */
  readonly editing: DrawEditing | null
}

/** The draw state of a fresh city. */
export function createInitialDrawState(): DrawLayerState {
  return {
    activeType: null,
    pending: null,
    shapeCount: 0,
    visibleShapeCount: 0,
    isPicturePainting: false,
    editing: null,
  }
}

/** The drawing commands; `CityCommands` extends this map. */
export interface DrawCommands {
  /**
   * Starts drawing a shape of `type` on the map: clicks add points, a double click (or a click
   * on the first point of a polygon) finishes; a point placed within a few pixels of a vertex
   * of a shown saved shape (a circle's centre) lands on it, as does a point dragged with the
   * bar's edit tool; a circle is a click at its centre and one on its
   * rim. The finished shape lands in `snapshot.city.draw.pending`, measured. Replaces a pending
   * shape. Fails with `city.notOpen` without an open city.
   */
  'draw.start': {
    args: { type: DrawTypeNumber }
    result: undefined
  }
  /** Stops the draw tool and drops the pending shape (after it was saved, or to cancel). */
  'draw.cancel': {
    args: undefined
    result: undefined
  }
  /** Replaces the saved shapes drawn on the map (areas and paths of the project). */
  'draw.setShapes': {
    args: { shapes: readonly DrawShape[] }
    result: undefined
  }
  /**
   * Opens the geometry control bar on the saved shape `id`: it is taken off the saved layers
   * and shown editable; `snapshot.city.draw.editing` follows every change, measured. Stops a
   * draw tool and any other edit.
   */
  'draw.edit': {
    args: { id: string }
    result: undefined
  }
  /** Chooses the bar's tool (null: none); leaving rotate keeps the angle reached. */
  'draw.editTool': {
    args: { tool: DrawEditTool | null }
    result: undefined
  }
  /** Sets the rotate slider: the shape turns about its centre to `degrees` (-180..180). */
  'draw.editRotate': {
    args: { degrees: number }
    result: undefined
  }
  /** Takes back the last change of the shape being edited (false when there is none). */
  'draw.editUndo': {
    args: undefined
    result: boolean
  }
  /** Takes again the last change undo took back (false when there is none). */
  'draw.editRedo': {
    args: undefined
    result: boolean
  }
  /**
   * Closes the bar (clears its tool); the shape goes back to the saved layers as it was saved
   * — the caller saves `editing.points` first to keep the change.
   */
  'draw.editStop': {
    args: undefined
    result: undefined
  }
  /** Flies the camera so the saved shape `id` is seen whole. */
  'draw.flyToShape': {
    args: { id: string }
    result: undefined
  }
}
