import {
  BufferAttribute,
  BufferGeometry,
  Group,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  MeshBasicMaterial,
  SphereGeometry,
  SRGBColorSpace,
  type Vector2,
} from 'three'
import { Line2 } from 'three/examples/jsm/lines/Line2.js'
import { LineGeometry } from 'three/examples/jsm/lines/LineGeometry.js'
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js'
import type { NetworkSnapshot } from '../../workers/indoor-route/indoor-route-api'
import type { GmlDisplayMode, GmlPlacement } from '../api/building-snapshot'
import type { StyleColor } from '../api/style-commands'
import { displayModeParts, placementMatrix } from './gml-placement'

/** Radius of a State's sphere, in file units (IndoorGML files are in metres in practice). */
const STATE_RADIUS = 0.15
/**
 * The network is drawn after the models and never hidden by their walls (it runs inside the
 * building, so depth-tested it would be invisible from outside); the route goes last, on top of
 * the network, since it is what the user follows.
 */
const NETWORK_RENDER_ORDER = 990
const ROUTE_RENDER_ORDER = 1000
const ROUTE_WIDTH_PIXELS = 6

/**
 * The drawing of a loaded IndoorGML network: instanced spheres for States, line segments for
 * Transitions, and the found route as a thick always-on-top line. Geometry is stored relative
 * to the network's centre (computed in double precision), because files in projected
 * coordinates (e.g. 445536, 5444906) would lose centimetres in float32 vertex buffers.
 */
export class GmlLayer {
  readonly group = new Group()
  private readonly centre: [number, number, number]
  private readonly states: InstancedMesh
  private readonly transitions: LineSegments
  private route: Line2 | null = null
  private readonly routeMaterial = new LineMaterial({
    linewidth: ROUTE_WIDTH_PIXELS,
    depthTest: false,
    depthWrite: false,
    transparent: true,
  })
  private placement: GmlPlacement
  private displayMode: GmlDisplayMode

  constructor(
    network: NetworkSnapshot,
    placement: GmlPlacement,
    displayMode: GmlDisplayMode,
    routeColor: StyleColor,
  ) {
    this.setRouteColor(routeColor)
    this.group.name = 'gml-network'
    this.group.matrixAutoUpdate = false
    this.centre = centreOf(network.positions)
    const [cx, cy, cz] = this.centre

    const stateCount = network.stateIds.length
    const states = new InstancedMesh(
      new SphereGeometry(STATE_RADIUS, 12, 8),
      new MeshBasicMaterial({ color: 0x1e88e5, depthTest: false, depthWrite: false }),
      stateCount,
    )
    const matrix = new Matrix4()
    let placed = 0
    for (let state = 0; state < stateCount; state++) {
      const x = network.positions[state * 3]!
      const y = network.positions[state * 3 + 1]!
      const z = network.positions[state * 3 + 2]!
      if (!Number.isFinite(x + y + z)) continue
      states.setMatrixAt(placed++, matrix.makeTranslation(x - cx, y - cy, z - cz))
    }
    states.count = placed
    states.computeBoundingSphere()
    states.name = 'gml-states'
    states.renderOrder = NETWORK_RENDER_ORDER + 1
    this.states = states

    const segmentPoints: number[] = []
    const starts = network.edgeGeometryStarts
    const points = network.edgeGeometry
    for (let edge = 0; edge + 1 < starts.length; edge++) {
      for (let point = starts[edge]!; point + 1 < starts[edge + 1]!; point++) {
        for (const at of [point, point + 1]) {
          segmentPoints.push(
            points[at * 3]! - cx,
            points[at * 3 + 1]! - cy,
            points[at * 3 + 2]! - cz,
          )
        }
      }
    }
    const transitionGeometry = new BufferGeometry()
    transitionGeometry.setAttribute(
      'position',
      new BufferAttribute(new Float32Array(segmentPoints), 3),
    )
    this.transitions = new LineSegments(
      transitionGeometry,
      new LineBasicMaterial({ color: 0x43a047, depthTest: false, depthWrite: false }),
    )
    this.transitions.name = 'gml-transitions'
    this.transitions.renderOrder = NETWORK_RENDER_ORDER
    this.group.add(this.states, this.transitions)
    this.placement = placement
    this.displayMode = displayMode
    this.applyPlacement()
    this.applyDisplayMode()
  }

  /** Moves the network (drawing only; the caller maps snapped points with the same placement). */
  setPlacement(placement: GmlPlacement): void {
    this.placement = placement
    this.applyPlacement()
  }

  /** Shows the parts the display mode names. */
  setDisplayMode(mode: GmlDisplayMode): void {
    this.displayMode = mode
    this.applyDisplayMode()
  }

  /** Draws a route from its polyline (flat x, y, z in file coordinates); null removes it. */
  setRoute(polyline: Float64Array | null): void {
    if (this.route) {
      this.route.removeFromParent()
      this.route.geometry.dispose()
      this.route = null
    }
    if (!polyline || polyline.length < 6) return
    const [cx, cy, cz] = this.centre
    const relative = new Float32Array(polyline.length)
    for (let index = 0; index < polyline.length; index += 3) {
      relative[index] = polyline[index]! - cx
      relative[index + 1] = polyline[index + 1]! - cy
      relative[index + 2] = polyline[index + 2]! - cz
    }
    const geometry = new LineGeometry()
    geometry.setPositions(relative)
    const line = new Line2(geometry, this.routeMaterial)
    line.computeLineDistances()
    line.renderOrder = ROUTE_RENDER_ORDER
    line.frustumCulled = false
    line.name = 'gml-route'
    this.route = line
    this.group.add(line)
    this.applyDisplayMode()
  }

  /** The route's colour (sRGB 0–255) and opacity (alpha 0–1). */
  setRouteColor(color: StyleColor): void {
    this.routeMaterial.color.setRGB(color.r / 255, color.g / 255, color.b / 255, SRGBColorSpace)
    this.routeMaterial.opacity = color.a
  }

  /** Thick lines are sized in pixels, so they need the drawing buffer size before each render. */
  setViewport(viewportPixels: Vector2): void {
    this.routeMaterial.resolution.copy(viewportPixels)
  }

  /** Removes the layer from the scene and frees its GPU resources. */
  dispose(): void {
    this.setRoute(null)
    this.group.removeFromParent()
    this.states.geometry.dispose()
    ;(this.states.material as MeshBasicMaterial).dispose()
    this.states.dispose()
    this.transitions.geometry.dispose()
    ;(this.transitions.material as LineBasicMaterial).dispose()
    this.routeMaterial.dispose()
  }

  private applyPlacement(): void {
    const [cx, cy, cz] = this.centre
    this.group.matrix
      .fromArray(placementMatrix(this.placement))
      .multiply(new Matrix4().makeTranslation(cx, cy, cz))
    this.group.matrixWorldNeedsUpdate = true
  }

  private applyDisplayMode(): void {
    const { areStatesShown, arePathsShown } = displayModeParts(this.displayMode)
    this.states.visible = areStatesShown
    this.transitions.visible = arePathsShown
    if (this.route) this.route.visible = arePathsShown
  }
}

function centreOf(positions: Float64Array): [number, number, number] {
  const min = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
  const max = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (let index = 0; index + 2 < positions.length; index += 3) {
    const x = positions[index]!
    const y = positions[index + 1]!
    const z = positions[index + 2]!
    if (!Number.isFinite(x + y + z)) continue
    min[0] = Math.min(min[0]!, x)
    min[1] = Math.min(min[1]!, y)
    min[2] = Math.min(min[2]!, z)
    max[0] = Math.max(max[0]!, x)
    max[1] = Math.max(max[1]!, y)
    max[2] = Math.max(max[2]!, z)
  }
  if (!Number.isFinite(min[0]!)) return [0, 0, 0]
  return [(min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2]
}
