import { type CustomLayerInterface, type Map as MapLibreMap, MercatorCoordinate } from 'maplibre-gl'
import {
  AmbientLight,
  Camera,
  DirectionalLight,
  Matrix4,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three'
import type { LibraryModelState, SceneLibraryModel } from '../../api/library-model-commands'
import { type LibraryModelEntry, LibraryModelSet } from '../../core/library-models'
import type { CitySceneContext } from '../city-scene-parts'

/** The custom layer's id in the map's style. */
export const libraryModelsLayerId = 'twinscape-library-models'

/** One model's own three.js scene: the model and the lights it is drawn with. */
interface ModelScene {
  scene: Scene
  entry: LibraryModelEntry
}

/**
 * The city's model library (issue 21 item 6): glTF/SBM models placed on the map, drawn by
 * three.js inside one MapLibre custom layer on the map's own WebGL context, so they share the
 * depth buffer with the tiles and deck's layers and appear in the same frame. Each model is
 * drawn with its own projection, composed on the CPU in double precision (the map's matrix ×
 * the model's place in mercator units), as MapLibre's three.js example does: a whole city in
 * one float32 matrix would shake models by metres. While an animation plays the layer asks the
 * map for the next frame; otherwise the map draws only when something moves.
 */
export class CityLibraryModels {
  private readonly models: LibraryModelSet
  private readonly scenes = new Map<string, ModelScene>()
  private renderer: WebGLRenderer | null = null
  private readonly camera = new Camera()
  private lastFrameAtMs: number | null = null
  private readonly onStyleLoad = () => this.addLayer()
  private readonly layer: CustomLayerInterface = {
    id: libraryModelsLayerId,
    type: 'custom',
    renderingMode: '3d',
    render: (gl, args) =>
      this.render(gl as WebGL2RenderingContext, args.defaultProjectionData.mainMatrix),
  }

  constructor(private readonly context: CitySceneContext) {
    this.models = new LibraryModelSet({
      added: (entry) => this.scenes.set(entry.source.id, { scene: sceneFor(entry), entry }),
      removed: (entry) => this.scenes.delete(entry.source.id),
      changed: () => {
        this.context.map.triggerRepaint()
        this.publish()
      },
    })
    context.map.on('style.load', this.onStyleLoad)
    this.addLayer()
  }

  /** Replaces the placed models (`city.setLibraryModels`). */
  set(models: readonly SceneLibraryModel[]): void {
    this.models.set(models)
  }

  /** Changes a model's animation (`city.setModelAnimation`). */
  setAnimation(...args: Parameters<LibraryModelSet['setAnimation']>): void {
    this.models.setAnimation(...args)
  }

  /** The snapshot's part. */
  states(): LibraryModelState[] {
    return this.models.states()
  }

  /** Frees the models and the renderer; the map (and its context) is the scene's to remove. */
  dispose(): void {
    this.context.map.off('style.load', this.onStyleLoad)
    this.models.dispose()
    this.scenes.clear()
    this.renderer?.dispose()
    this.renderer = null
  }

  private publish(): void {
    if (!this.context.isDisposed()) this.context.publish({ libraryModels: this.states() })
  }

  /** Puts the layer into the map's current style (a basemap swap replaces the style). */
  private addLayer(): void {
    const { map } = this.context
    try {
      if (!map.getLayer(libraryModelsLayerId)) map.addLayer(this.layer)
    } catch {
      // the style is still loading: its `style.load` adds the layer
    }
  }

  private render(gl: WebGL2RenderingContext, mainMatrix: ArrayLike<number>): void {
    if (this.scenes.size === 0) return
    // One renderer for the scene's life, made on the map's context when a model is first drawn:
    // three.js reads dozens of GL limits at its start, each a round trip that waits for the GPU
    // to finish the frames queued so far — on every city open (most place no model) and while
    // the first tiles are on their way.
    this.renderer ??= createRenderer(this.context.map, gl)
    const renderer = this.renderer
    const nowMs = performance.now()
    const deltaSeconds = this.lastFrameAtMs === null ? 0 : (nowMs - this.lastFrameAtMs) / 1000
    this.lastFrameAtMs = nowMs
    const isAnimating = this.models.advance(deltaSeconds)
    // MapLibre and deck changed the GL state since three.js last drew: forget what it assumed
    renderer.resetState()
    renderer.setViewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight)
    const projection = new Matrix4().fromArray(Array.from(mainMatrix))
    for (const { scene, entry } of this.scenes.values()) {
      this.camera.projectionMatrix.copy(projection).multiply(placementMatrix(entry.source))
      this.camera.projectionMatrixInverse.copy(this.camera.projectionMatrix).invert()
      renderer.render(scene, this.camera)
    }
    // MapLibre binds its own vertex arrays but expects none left bound by others
    gl.bindVertexArray(null)
    if (isAnimating) {
      this.context.map.triggerRepaint()
      this.publish()
    } else {
      this.lastFrameAtMs = null
      if (deltaSeconds > 0) this.publish()
    }
  }
}

/** A three.js renderer drawing into the map's context, never clearing what the map drew. */
function createRenderer(map: MapLibreMap, gl: WebGL2RenderingContext): WebGLRenderer {
  const renderer = new WebGLRenderer({ canvas: map.getCanvas(), context: gl, antialias: false })
  renderer.autoClear = false
  return renderer
}

/** The model with its lights, in its own scene (drawn with its own projection). */
function sceneFor(entry: LibraryModelEntry): Scene {
  const scene = new Scene()
  scene.add(new AmbientLight(0xffffff, 1.4))
  const sun = new DirectionalLight(0xffffff, 2)
  sun.position.set(0.5, 1, 0.8)
  scene.add(sun)
  if (entry.object) scene.add(entry.object)
  return scene
}

const up = new Vector3(0, 1, 0)

/**
 * Model metres (glTF: +Y up, front +Z) → mercator units: the place, then metres to mercator
 * (y flipped: mercator y grows southwards), +Y up turned to the map's +Z up, the heading turned
 * clockwise seen from above, and the model's scale.
 */
export function placementMatrix(model: SceneLibraryModel): Matrix4 {
  const [lng, lat, heightMeters] = model.position
  const origin = MercatorCoordinate.fromLngLat([lng, lat], heightMeters)
  const metre = origin.meterInMercatorCoordinateUnits()
  return new Matrix4()
    .makeTranslation(origin.x, origin.y, origin.z)
    .scale(new Vector3(metre, -metre, metre))
    .multiply(new Matrix4().makeRotationX(Math.PI / 2))
    .multiply(new Matrix4().makeRotationAxis(up, (-model.headingDegrees * Math.PI) / 180))
    .multiply(new Matrix4().makeScale(model.scale, model.scale, model.scale))
}
