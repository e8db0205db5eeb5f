import {
  BufferGeometry,
  CircleGeometry,
  Color,
  Float32BufferAttribute,
  Group,
  Line,
  LineBasicMaterial,
  type Material,
  Mesh,
  MeshBasicMaterial,
  type PerspectiveCamera,
  RingGeometry,
  Shape,
  ShapeGeometry,
  Vector3,
  type Vector2,
} from 'three'
import { createTangentPlane } from '../../workers/geodesy/local-tangent-plane'
import type { TrackLayerState, TrackMarker } from '../api/track-commands'
import { type BuildingView, metresPerCssPixel } from './building-view'

/** A marker's dot radius on screen, CSS pixels. */
const dotPixels = 8
/** Drawn over the building: a tracked person is shown wherever the walls are. */
const overEverything = 10

/** A flat shape on the ground (three.js shapes are drawn in x/y; the ground is x/−z). */
function onGround<T extends BufferGeometry>(geometry: T): T {
  geometry.rotateX(-Math.PI / 2)
  return geometry
}

/**
 * Positioned objects in the building scene (issue 18, the building's location module): each is
 * a dot in its colour with a white rim, an arrow turned to its heading, a red ring while inside
 * a fence, and its trail as a line, placed by longitude and latitude in the tangent plane at the
 * building's origin (east +x, north −z: the scene's own axes, which the building's placement
 * turns, not these). Markers are a few pixels wide at any zoom and drawn over the models.
 */
export class BuildingTracking {
  private readonly group = new Group()
  private readonly dot = onGround(new CircleGeometry(1, 24))
  private readonly rim = onGround(new RingGeometry(1, 1.3, 24))
  private readonly fenceRing = onGround(new RingGeometry(1.5, 1.9, 24))
  private readonly arrow = onGround(
    new ShapeGeometry(new Shape().moveTo(0, 2.4).lineTo(-0.8, 1.2).lineTo(0.8, 1.2).lineTo(0, 2.4)),
  )
  private readonly white = this.material('#ffffff')
  private readonly red = this.material('#ff2020')
  private markers: readonly TrackMarker[] = []
  /** The marker groups scaled to the camera before each frame. */
  private dots: Group[] = []
  /** What belongs to the markers drawn now (freed when they are replaced). */
  private owned: { geometries: BufferGeometry[]; materials: Material[] } = {
    geometries: [],
    materials: [],
  }
  private readonly inScene = new Vector3()

  constructor(
    private readonly view: BuildingView,
    /** Height of the ground under the building in the scene, metres. */
    private readonly groundLevel: () => number,
  ) {
    this.group.name = 'positioned-objects'
    view.scene.add(this.group)
  }

  /** The snapshot's part (`snapshot.building.track`). */
  state(): TrackLayerState {
    return {
      markerCount: this.markers.length,
      trailPointCount: this.markers.reduce((sum, marker) => sum + marker.trail.length, 0),
    }
  }

  /** Replaces the markers drawn (checked by the caller); `origin` is the building's location. */
  setMarkers(origin: { lng: number; lat: number }, markers: readonly TrackMarker[]): void {
    this.clear()
    this.markers = markers
    const plane = createTangentPlane([origin.lng, origin.lat])
    const level = this.groundLevel()
    const toScene = (lng: number, lat: number, lift: number) => {
      const [east, north] = plane.toEnu([lng, lat])
      return new Vector3(east, level + lift, -north)
    }
    for (const marker of markers) {
      const color = this.material(marker.color)
      const line = this.lineMaterial(marker.color)
      this.owned.materials.push(color, line)
      if (marker.trail.length > 0) {
        const points = [...marker.trail, [marker.lng, marker.lat] as const].flatMap(([lng, lat]) =>
          toScene(lng, lat, 0.05).toArray(),
        )
        const geometry = new BufferGeometry()
        geometry.setAttribute('position', new Float32BufferAttribute(points, 3))
        this.owned.geometries.push(geometry)
        this.group.add(this.overEverything(new Line(geometry, line)))
      }
      const dot = new Group()
      dot.name = marker.id
      dot.position.copy(toScene(marker.lng, marker.lat, 0.1))
      dot.add(
        this.overEverything(new Mesh(this.rim, this.white)),
        this.overEverything(new Mesh(this.dot, color)),
      )
      if (marker.heading !== null) {
        const arrow = new Group()
        // the arrow points north (−z) turned clockwise seen from above
        arrow.rotation.y = (-marker.heading * Math.PI) / 180
        arrow.add(this.overEverything(new Mesh(this.arrow, color)))
        dot.add(arrow)
      }
      if (marker.isInsideFence) dot.add(this.overEverything(new Mesh(this.fenceRing, this.red)))
      this.group.add(dot)
      this.dots.push(dot)
    }
    this.view.requestRender()
  }

  /** Keeps each dot {@link dotPixels} wide on screen. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    for (const dot of this.dots) {
      const distance = camera.position.distanceTo(dot.getWorldPosition(this.inScene))
      dot.scale.setScalar(metresPerCssPixel(camera, distance, viewportPixels) * dotPixels)
    }
  }

  dispose(): void {
    this.clear()
    for (const geometry of [this.dot, this.rim, this.fenceRing, this.arrow]) geometry.dispose()
    this.white.dispose()
    this.red.dispose()
    this.group.removeFromParent()
  }

  private clear(): void {
    this.group.clear()
    this.dots = []
    this.markers = []
    for (const geometry of this.owned.geometries) geometry.dispose()
    for (const material of this.owned.materials) material.dispose()
    this.owned = { geometries: [], materials: [] }
  }

  private overEverything<T extends Mesh | Line>(object: T): T {
    object.renderOrder = overEverything
    object.frustumCulled = false
    return object
  }

  /** A flat colour as the UI gave it (`#rrggbb`, alpha ignored), not lit and not tone-mapped. */
  private material(color: string): MeshBasicMaterial {
    return new MeshBasicMaterial({
      color: new Color(color.slice(0, 7)),
      depthTest: false,
      depthWrite: false,
      toneMapped: false,
    })
  }

  private lineMaterial(color: string): LineBasicMaterial {
    return new LineBasicMaterial({
      color: new Color(color.slice(0, 7)),
      depthTest: false,
      depthWrite: false,
      toneMapped: false,
    })
  }
}
