import type { SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import { STALE } from '../../workers/protocol/latest-wins'
import type { BuildingCommands } from '../api/building-commands'
import {
  type BuildingCameraState,
  type BuildingRenderState,
  type BuildingSceneDescription,
  type BuildingSnapshot,
  createInitialBuildingSnapshot,
  defaultBuildingCamera,
  createInitialPoiLayerState,
} from '../api/building-snapshot'
import type { CommandHandlers } from '../api/commands'
import { createInitialPoiStatusState } from '../api/poi-status-commands'
import type { SceneStyle } from '../api/style-commands'
import { EngineError } from '../api/errors'
import type { EngineContext } from '../core/engine-context'
import { checkTrackMarkers, isOnMap } from '../core/track-markers'
import { createWorkerPool, type WorkerEndpoint } from '../workers/create-worker-client'
import {
  createBvhWorker,
  createIndoorRouteWorker,
  createSbmDecodeWorker,
} from '../workers/building-workers'
import { BuildingScene } from './building-scene'
import { BuildingView } from './building-view'
import { placementProblem } from './gml-placement'
import { createBuildingPoiHandlers } from './pois/poi-handlers'
import { createBuildingPoiStatusHandlers } from './pois/poi-status-handlers'
import { StyleController } from './style/style-controller'
import { createBuildingStyleHandlers } from './style/style-handlers'
import { BuildingPoiLayer } from './pois/poi-layer'
import { captureFramePng } from './capture-image'
import { CameraFlight, createVisitFlightHandlers } from './visit-flight'
import { createWalkHandlers, createWalkHost, WalkController } from './visit-walk'
import { MaterialOverrides } from './material-overrides'
import { BuildingLibraryModels } from './building-library-models'
import { BuildingTracking } from './building-tracking'

/** Worker factories and limits of the building scene (all optional). */
export interface BuildingEngineOptions {
  createSbmDecodeWorker?: () => WorkerEndpoint
  createBvhWorker?: () => WorkerEndpoint
  createIndoorRouteWorker?: () => WorkerEndpoint
  /** SBM decode workers that may run at once (default: cores, at most 3). */
  maxDecodeWorkers?: number
  /**
   * Let the picking worker decode picking's share of a model itself, in parallel with the decode
   * worker (one load at a time, see PickController.claimOwnDecode). Default false: the decode
   * worker decodes once and copies positions and indices for picking. Decoding them twice cost
   * about twice the CPU per load and was slower in the same rounds (bench/README.md, sbm-browser,
   * session 14).
   */
  pickingWorkerDecodes?: boolean
  /**
   * Split a model's decode across two decode workers when two are free (issue 23.2): one
   * decodes positions and BVHs (and images), the other indices, normals and uvs, each from the
   * same posted bytes; nothing decoded is copied to join them (model-download.ts). Default
   * false until a quiet run decides: in a noisy same-run A/B (bench/README.md, sbm-browser,
   * session 21) it halved the busiest worker's CPU per load (92 against 155 ms) for 10 % more
   * CPU in all, and its median load was 448 against 534 ms, faster in 4 of 7 rounds.
   */
  splitDecode?: boolean
  /**
   * Let a free decode worker download the model itself (issue 23.2, model-download.ts
   * `decodeFetchedByWorker`, models of 1 MiB and more): no read of the body on this thread,
   * which renders meanwhile. Default true; false makes this thread read every download and post its chunks, as before
   * session 22. Noisy same-run A/Bs (bench/README.md, sbm-browser, session 22): the page's main
   * thread spent 30–35 ms less CPU per 28 MB model and the decode worker 20–35 ms more; wall
   * time faster in 20 of 34 rounds. A quiet run decides.
   */
  workerDownload?: boolean
}

type BuildingHandlers = Pick<CommandHandlers, keyof BuildingCommands>

/**
 * Handlers of the building commands; everything three.js stays inside engine/building. One view
 * (renderer, camera, controls) lives as long as the engine; each `building.open` makes a new
 * BuildingScene and disposes the previous one.
 */
export function createBuildingHandlers(
  context: EngineContext,
  options: BuildingEngineOptions = {},
): BuildingHandlers & { dispose(): void } {
  const cores = typeof navigator === 'undefined' ? 2 : (navigator.hardwareConcurrency ?? 2)
  const decodePool = createWorkerPool<SbmDecodeWorkerApi>(
    options.createSbmDecodeWorker ?? createSbmDecodeWorker,
    { maxWorkers: options.maxDecodeWorkers ?? Math.min(3, Math.max(1, cores)) },
  )
  let scene: BuildingScene | null = null
  /** Buildings opened so far: the open one's `openRevision`. */
  let openCount = 0
  /** The open scene's POIs; made and freed with the scene. */
  let pois: BuildingPoiLayer | null = null
  let renderState: BuildingRenderState | null = null
  let zoomFactors = { minFactor: 1, maxFactor: 1 }
  let wheelScale = 1
  let hoverSequence = 0

  const cameraState = (): BuildingCameraState => {
    const { camera, target } = view
    const limits = view.getLimits()
    return {
      distance: view.distance(),
      target: [target.x, target.y, target.z],
      position: [camera.position.x, camera.position.y, camera.position.z],
      minDistance: limits.minDistance,
      maxDistance: limits.maxDistance,
      minZoomFactor: zoomFactors.minFactor,
      maxZoomFactor: zoomFactors.maxFactor,
      wheelScale,
    }
  }

  /**
   * The building part of the snapshot but its camera and render stats, kept until something in
   * it changes (null: made again at the next publish). A flight or a kiosk's looping tour
   * renders, and publishes the camera and render stats, on every frame; making the floors,
   * models, POI, style and walk parts anew each time was work and garbage on every frame
   * (issue 19 R8), and gave the store new objects to compare for nothing.
   */
  let parts: BuildingSnapshot | null = null

  const makeParts = (): BuildingSnapshot => {
    const base = scene ? scene.snapshot() : createInitialBuildingSnapshot()
    pois?.setFloorVisibility(base.floors, base.selectedFloorId)
    return {
      ...base,
      openRevision: scene ? openCount : 0,
      pois: pois?.state() ?? createInitialPoiLayerState(),
      poiStatuses: pois?.statusState() ?? createInitialPoiStatusState(),
      materials: materials.state(),
      libraryModels: libraryModels.states(),
      style: style.state(),
      walk: walk.snapshot(),
      placement: view.placement,
      track: tracking.state(),
      camera: defaultBuildingCamera,
      render: null,
    }
  }

  /** Publishes the kept parts with the camera and render stats of now (a render, a camera move). */
  const publishFrame = () => {
    parts ??= makeParts()
    context.updateState({
      building: { ...parts, camera: cameraState(), render: renderState },
    })
  }

  /** Something in the scene changed: every part is made again. */
  const publish = () => {
    parts = null
    publishFrame()
  }

  /** Only `changed` parts are new (a POI layer's drawn counts move with the camera on a tour). */
  const publishParts = (changed: () => Partial<BuildingSnapshot>) => {
    if (parts) parts = { ...parts, ...changed() }
    publishFrame()
  }

  const view: BuildingView = new BuildingView({
    onRendered: (stats) => {
      renderState = stats
      publishFrame()
    },
    onCameraChanged: publishFrame,
    beforeRender: (camera, viewportPixels) => {
      scene?.beforeRender(camera, viewportPixels)
      pois?.beforeRender(camera, viewportPixels)
      style.beforeRender(camera, viewportPixels)
      libraryModels.beforeRender()
      tracking.beforeRender(camera, viewportPixels)
    },
    hideSurroundings: (): (() => void) => style.hideSurroundings(),
  })
  /** The WASD walk: its rays go through the open scene's picking worker, like clicks. */
  const walk = new WalkController(
    createWalkHost(view, (ray) => openScene().pickInScene(ray), publish),
  )
  const style: StyleController = new StyleController(view, () => publish())
  const materials = new MaterialOverrides(
    () => view.requestRender(),
    () => publish(),
  )
  const libraryModels = new BuildingLibraryModels(view, () =>
    publishParts(() => ({ libraryModels: libraryModels.states() })),
  )
  /** Positioned objects around the building, on the ground under its lowest model. */
  const tracking = new BuildingTracking(view, () => {
    const level = scene?.groundLevel() ?? 0
    return level * (view.placement?.scale ?? 1)
  })
  /** The open building's group, whose children are its models (named by id). */
  const buildingRoot = () =>
    scene ? view.scene.getObjectByName(`building:${scene.description.projectId}`) : undefined
  view.attach(context.getCanvas())
  const stopWatchingCanvas = context.onCanvasChanged(() => {
    view.attach(context.getCanvas())
    if (!view.hasCanvas) renderState = null
    // the sky cube belonged to the old renderer
    style.rendererChanged()
    publish()
  })
  /** The camera part of a style (null: the building defaults), kept with the snapshot's. */
  const applyStyleCamera = (applied: SceneStyle | null) => {
    view.setDistanceBases(applied ? applied.visualDistance : undefined)
    const factors = applied?.zoomFactors ?? { min: 1, max: 1 }
    view.setZoomLimits(factors.min, factors.max)
    zoomFactors = { minFactor: factors.min, maxFactor: factors.max }
    wheelScale = applied?.wheelScale ?? 1
    view.setWheelScale(wheelScale)
  }

  /** The open scene's POI layer, made on the first POI command (a scene without POIs pays nothing). */
  const poiLayer = (): BuildingPoiLayer => {
    openScene()
    if (pois) return pois
    const layer = new BuildingPoiLayer({
      decodePool,
      cssSize: () => view.cssSize(),
      requestRender: () => view.requestRender(),
      renderer: () => view.getRenderer(),
      onChange: () => {
        if (pois === layer) {
          publishParts(() => ({ pois: layer.state(), poiStatuses: layer.statusState() }))
        }
      },
    })
    // POIs are kept on the building: they turn and scale with its placement
    view.placed.add(layer.group)
    pois = layer
    publish()
    return layer
  }

  const openScene = (): BuildingScene => {
    if (!scene) throw new EngineError('building.notOpen', 'No building is open.')
    return scene
  }
  const requireCanvas = () => {
    if (!view.hasCanvas) {
      throw new EngineError('view.noCanvas', 'No canvas is attached to the engine.')
    }
  }
  const closeScene = () => {
    walk.stop()
    pois?.dispose()
    pois = null
    materials.dispose()
    libraryModels.clear()
    scene?.dispose()
    scene = null
    view.hasUserMovedCamera = false
    view.requestRender()
    publish()
  }

  const flight = new CameraFlight(view)
  const flightHandlers = createVisitFlightHandlers(flight)
  const handlers: BuildingHandlers = {
    ...flightHandlers,
    // a view command takes the camera: the walk ends first
    'building.flyCamera': (args) => {
      walk.stop()
      return flightHandlers['building.flyCamera'](args)
    },
    ...createWalkHandlers(walk, () => flight.cancel()),
    ...createBuildingStyleHandlers({
      controller: style,
      applyCamera: applyStyleCamera,
      applyPathColor: (color) => scene?.gml.setRouteColor(color),
      requireCanvas,
    }),
    ...createBuildingPoiHandlers({
      view,
      layer: poiLayer,
      pickSurface: (x, y) => openScene().pick(view.rayAt(x, y), false),
      groundPoint: (x, y) => openScene().groundPoint(view.rayAt(x, y)),
      requireCanvas,
    }),
    ...createBuildingPoiStatusHandlers({ layer: poiLayer }),
    ...libraryModels.handlers(),
    'building.setTrackMarkers': async ({ origin, markers }) => {
      if (!origin || !isOnMap(origin.lng, origin.lat))
        throw new EngineError('engine.invalidArgument', 'The building origin is off the map.')
      checkTrackMarkers(markers)
      tracking.setMarkers(origin, markers)
      publish()
      return undefined
    },
    'building.open': async ({ description }) => {
      checkDescription(description)
      closeScene()
      const opened = new BuildingScene(description, {
        context,
        view,
        decodePool,
        createBvhWorker: options.createBvhWorker ?? createBvhWorker,
        pickingWorkerDecodes: options.pickingWorkerDecodes ?? false,
        splitDecode: options.splitDecode ?? false,
        workerDownload: options.workerDownload ?? true,
        createIndoorRouteWorker: options.createIndoorRouteWorker ?? createIndoorRouteWorker,
        onChange: () => {
          if (scene !== opened) return
          // a model that just loaded gets its overrides before it is first drawn
          materials.apply(buildingRoot())
          publish()
        },
      })
      scene = opened
      openCount += 1
      opened.gml.setRouteColor(style.state().style?.pathColor ?? null)
      publish()
      // Closed or replaced meanwhile: the answer still says what had loaded; that is no failure.
      const result = await opened.load()
      // the ground goes under the loaded models, the fog scales with them
      if (scene === opened) style.fitTo(opened.boundsOf())
      return result
    },
    'building.close': async () => {
      closeScene()
    },
    'building.setMaterialOverrides': async ({ overrides }) => {
      openScene()
      materials.set(overrides)
      materials.apply(buildingRoot())
      publish()
    },
    'building.selectFloor': async ({ floorId }) => {
      openScene().selectFloor(floorId)
    },
    'building.setFloorVisible': async ({ floorId, isVisible }) => {
      openScene().setFloorVisible(floorId, isVisible)
    },
    'building.setShellVisible': async ({ isVisible }) => {
      openScene().setShellVisible(isVisible)
    },
    'building.setShellOpacity': async ({ opacity }) => {
      openScene().setShellOpacity(opacity)
    },
    'building.setModelVisible': async ({ modelId, isVisible }) => {
      openScene().setModelVisible(modelId, isVisible)
    },
    'building.fitToModel': async ({ modelId }) => {
      walk.stop()
      flight.cancel()
      const box = openScene().boundsOf(modelId)
      if (box.isEmpty() && modelId !== undefined) {
        throw new EngineError('engine.invalidArgument', `Model '${modelId}' is not loaded.`)
      }
      view.fitTo(box)
    },
    'building.setCamera': async ({ position, target }) => {
      const isValid = (point: readonly number[]) =>
        Array.isArray(point) && point.length === 3 && point.every(Number.isFinite)
      if (!isValid(position) || !isValid(target)) {
        throw new EngineError('engine.invalidArgument', 'Camera points need three finite numbers.')
      }
      walk.stop()
      flight.cancel()
      view.setCamera(position, target)
    },
    'building.setZoomLimits': async ({ minDistanceFactor, maxDistanceFactor }) => {
      try {
        view.setZoomLimits(minDistanceFactor, maxDistanceFactor)
      } catch (error) {
        throw new EngineError('engine.invalidArgument', (error as Error).message)
      }
      zoomFactors = { minFactor: minDistanceFactor, maxFactor: maxDistanceFactor }
      publish()
    },
    'building.setWheelScale': async ({ wheelScale: scale }) => {
      try {
        view.setWheelScale(scale)
      } catch (error) {
        throw new EngineError('engine.invalidArgument', (error as Error).message)
      }
      wheelScale = scale
      publish()
    },
    'building.capturePng': async ({ maxWidth = 1920 }) => {
      requireCanvas()
      const canvas = view.renderForCapture()
      if (!canvas) throw new EngineError('view.noCanvas', 'No canvas is attached to the engine.')
      return captureFramePng(canvas, maxWidth)
    },
    'building.countDrawnPixels': async () => {
      requireCanvas()
      return view.countDrawnPixels()
    },
    'building.pickAtScreenPoint': async ({ x, y }) => {
      const current = openScene()
      requireCanvas()
      const pick = await current.pick(view.rayAt(x, y), false)
      const answer = pick === STALE ? null : pick
      if (scene === current) current.setLastPick(answer)
      return answer
    },
    'building.clearPick': async () => {
      openScene().setLastPick(null)
    },
    'building.setPlacement': async ({ placement }) => {
      if (placement !== null) {
        const isValid =
          typeof placement === 'object' &&
          Number.isFinite(placement.headingDegrees) &&
          Number.isFinite(placement.scale) &&
          placement.scale > 0
        if (!isValid) {
          throw new EngineError(
            'engine.invalidArgument',
            'A placement needs a finite heading and a scale above 0.',
          )
        }
      }
      view.setPlacement(placement)
      if (scene && !view.hasUserMovedCamera) view.fitTo(scene.boundsOf())
      publish()
    },
    'building.hoverAtScreenPoint': async ({ x, y }) => {
      const current = openScene()
      requireCanvas()
      const sequence = ++hoverSequence
      const pick = await current.pick(view.rayAt(x, y), true)
      // The worker drops hovers still queued behind a newer one; one it already answered is
      // dropped here, so an answer never arrives after a newer hover's.
      if (pick === STALE || sequence !== hoverSequence) return { isStale: true }
      return { isStale: false, pick }
    },
    'gml.load': async ({ url, placement }) => {
      const problem = placement && placementProblem(placement)
      if (problem) throw new EngineError('engine.invalidArgument', `GML placement: ${problem}.`)
      return openScene().gml.load(url, placement)
    },
    'gml.unload': async () => {
      openScene().gml.unload()
    },
    'gml.setDisplayMode': async ({ mode }) => {
      openScene().gml.setDisplayMode(mode)
    },
    'gml.setPlacement': async (placement) => {
      const problem = placementProblem(placement)
      if (problem) throw new EngineError('engine.invalidArgument', `GML placement: ${problem}.`)
      openScene().gml.setPlacement(placement)
    },
    'gml.route': async ({ from, to }) => openScene().gml.route(from, to),
    'gml.listStates': async () => openScene().gml.listStates(),
    'gml.snapPoint': async ({ point, storey }) => openScene().gml.snapPoint(point, storey),
    'gml.clearRoute': async () => {
      openScene().gml.clearRoute()
    },
  }

  return {
    ...handlers,
    dispose() {
      walk.dispose()
      flight.cancel()
      stopWatchingCanvas()
      pois?.dispose()
      pois = null
      materials.dispose()
      libraryModels.dispose()
      tracking.dispose()
      scene?.dispose()
      scene = null
      decodePool.dispose()
      style.dispose()
      view.dispose()
    },
  }
}

/** Refuses descriptions the scene cannot be built from, before the old scene is closed. */
function checkDescription(description: BuildingSceneDescription): void {
  const problem = (() => {
    if (!description || typeof description.projectId !== 'string') return 'projectId is missing'
    if (!Array.isArray(description.models) || !Array.isArray(description.floors)) {
      return 'models and floors must be lists'
    }
    const ids = new Set<string>()
    for (const model of description.models) {
      if (ids.has(model.id)) return `model '${model.id}' is listed twice`
      ids.add(model.id)
      if (typeof model.url !== 'string' || model.url === '') return `model '${model.id}' has no url`
    }
    for (const floor of description.floors) {
      if (!Number.isFinite(floor.elevationMeters)) return `floor '${floor.id}' has no elevation`
    }
    return null
  })()
  if (problem) throw new EngineError('engine.invalidArgument', `Building description: ${problem}.`)
}
