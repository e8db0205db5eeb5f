import type { CityCommands } from '../api/city-commands'
import {
  type CitySnapshot,
  cityDefaultCamera,
  createInitialCitySnapshot,
} from '../api/city-snapshot'
import type { CommandHandlers } from '../api/commands'
import { EngineError } from '../api/errors'
import type { EngineContext } from '../core/engine-context'
import { isOneOf, maxDistanceFactors, minDistanceFactors, wheelScaleOptions } from './city-controls'
import type { CityScene } from './city-scene'
import type { WorkerTilesLoader } from '../workers/tile-parse-client'
import { createDrawHandlers } from './draw/draw-handlers'
import { createTrackHandlers } from './draw/track-handlers'
import { createTourHandlers } from './draw/tour-handlers'
import { createCityPoiHandlers } from './pois/poi-handlers'
import { createCityStyleHandlers } from './style/city-style-handlers'
import { createCityLibraryModelHandlers } from './models/library-model-handlers'

function invalid(message: string, detail?: string): EngineError {
  return new EngineError('engine.invalidArgument', message, detail)
}

function checkLngLat(lng: number, lat: number): void {
  if (!Number.isFinite(lng) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    throw invalid(`Not a place on Earth: ${lng}, ${lat}.`, `${lng},${lat}`)
  }
}

/**
 * Handlers of the city commands. MapLibre, deck.gl and loaders.gl are imported only when a city
 * opens, so building-only sessions and Node tests never load them.
 */
export function createCityHandlers(
  context: EngineContext,
): Pick<CommandHandlers, keyof CityCommands> & { dispose(): void } {
  let container: HTMLElement | null = null
  let scene: CityScene | null = null
  /** Tile parse workers, kept while a container is attached: project switches reuse them. */
  let tilesLoader: WorkerTilesLoader | null = null
  /** Bumped by every open and close, so an open that loses a race drops its scene. */
  let openSequence = 0

  const city = () => context.getState().city
  const patchCity = (patch: Partial<CitySnapshot>) =>
    context.updateState({ city: { ...city(), ...patch } })

  const openScene = (): CityScene => {
    if (!scene) throw new EngineError('city.notOpen', 'No city is open.')
    return scene
  }

  const close = () => {
    openSequence++
    scene?.dispose()
    scene = null
    patchCity({
      ...createInitialCitySnapshot(),
      hasContainer: container !== null,
      controls: city().controls,
    })
  }

  const { styleInForce, ...styleHandlers } = createCityStyleHandlers(openScene, () => scene)

  return {
    ...styleHandlers,
    ...createCityPoiHandlers(openScene),
    ...createDrawHandlers(openScene),
    ...createTrackHandlers(openScene),
    ...createTourHandlers(openScene),
    ...createCityLibraryModelHandlers(openScene),
    'city.attachContainer': async ({ container: element }) => {
      if (element === container) return undefined
      // The map lives inside the element: a new element means a new map.
      if (scene) close()
      container = element
      patchCity({ hasContainer: element !== null })
      if (!element) {
        const wasAttached = tilesLoader !== null
        tilesLoader?.dispose()
        tilesLoader = null
        // At worst a quick re-attach finds MapLibre's worker gone: its map starts one itself.
        if (wasAttached) (await import('./city-scene')).releaseMapWorkers()
        return undefined
      }
      // A container means a city is about to open: its code loads and its tile workers and
      // MapLibre's start now, not in the open (which may come before they are ready: it does
      // not wait).
      const { createCityTilesLoader, prepareCityMap } = await import('./city-scene')
      if (container !== element || tilesLoader) return undefined
      prepareCityMap()
      const started = createCityTilesLoader()
      tilesLoader = started.tilesLoader
      await started.ready
      return undefined
    },
    'city.open': async (args) => {
      if (!container) {
        throw new EngineError('city.noContainer', 'Attach a container before opening a city.')
      }
      checkLngLat(args.center.lng, args.center.lat)
      const ids = new Set(args.tilesets.map((tileset) => tileset.id))
      if (ids.size !== args.tilesets.length) throw invalid('Two tilesets share an id.')
      if (scene) close()
      const sequence = ++openSequence
      const { CityScene, createCityTilesLoader } = await import('./city-scene')
      if (sequence !== openSequence || !container) return undefined
      tilesLoader ??= createCityTilesLoader().tilesLoader
      const streaming = { ...city().streaming, ...args.streaming }
      scene = new CityScene({
        container,
        projectId: args.projectId,
        camera: { ...cityDefaultCamera, ...args.center, zoom: args.zoom ?? cityDefaultCamera.zoom },
        basemap: args.basemap,
        tilesets: args.tilesets,
        streaming,
        controls: city().controls,
        keepDrawingBuffer: args.keepDrawingBuffer ?? false,
        publish: patchCity,
        tilesLoader,
        style: styleInForce(),
      })
      // bumped by the close before it too, so never the revision of the city it replaced
      patchCity({ openRevision: sequence })
      return undefined
    },
    'city.close': async () => {
      close()
      return undefined
    },
    'city.flyTo': async (target) => {
      if ('lng' in target) checkLngLat(target.lng, target.lat)
      await openScene().flyTo(target)
      return undefined
    },
    'city.setBasemap': async ({ basemap }) => {
      await openScene().setBasemap(basemap)
      return undefined
    },
    'city.addTileset': async (source) => {
      openScene().addTileset(source)
      return undefined
    },
    'city.removeTileset': async ({ id }) => {
      openScene().removeTileset(id)
      return undefined
    },
    'city.setTilesetVisible': async ({ id, isVisible }) => {
      openScene().setTilesetVisible(id, isVisible)
      return undefined
    },
    'city.setTilesetPlacement': async ({ id, placement }) => {
      if (placement) {
        checkLngLat(placement.lng, placement.lat)
        if (!Number.isFinite(placement.heightOffset) || !Number.isFinite(placement.heading)) {
          throw invalid('Placement height and heading must be numbers.', id)
        }
      }
      openScene().setTilesetPlacement(id, placement)
      return undefined
    },
    'city.setStreaming': async (settings) => {
      const { memoryBudgetMB, maximumScreenSpaceError } = settings
      if (memoryBudgetMB !== undefined && !(memoryBudgetMB > 0)) {
        throw invalid('The memory budget must be above 0 MB.', String(memoryBudgetMB))
      }
      if (maximumScreenSpaceError !== undefined && !(maximumScreenSpaceError > 0)) {
        throw invalid('The screen-space error must be above 0.', String(maximumScreenSpaceError))
      }
      if (scene) scene.setStreaming(settings)
      else patchCity({ streaming: { ...city().streaming, ...settings } })
      return undefined
    },
    'city.pickAtScreenPoint': async ({ x, y }) => openScene().pick(x, y),
    'city.pickTilesetPoint': async ({ x, y }) =>
      openScene().pickTilesetPoint(x, y, city().tilesets),
    'city.pickAndSelect': async ({ x, y }) => openScene().pickAndSelect(x, y),
    'city.selectFeature': async ({ tilesetId, tileId, featureId }) => {
      openScene().selectFeature(tilesetId, tileId, featureId)
      return undefined
    },
    'city.projectToScreen': async ({ lng, lat, heightMeters }) => {
      checkLngLat(lng, lat)
      return openScene().projectToScreen(lng, lat, heightMeters)
    },
    'city.setWheelScale': async ({ wheelScale }) => {
      if (!isOneOf(wheelScale, wheelScaleOptions)) {
        throw invalid(`Wheel scale ${wheelScale} is not one of ${wheelScaleOptions.join(', ')}.`)
      }
      if (scene) scene.setControls({ wheelScale })
      else patchCity({ controls: { ...city().controls, wheelScale } })
      return undefined
    },
    'city.setZoomLimits': async ({ minDistanceFactor, maxDistanceFactor }) => {
      if (!isOneOf(minDistanceFactor, minDistanceFactors)) {
        throw invalid(`Minimum distance factor ${minDistanceFactor} is not a SPEC option.`)
      }
      if (!isOneOf(maxDistanceFactor, maxDistanceFactors)) {
        throw invalid(`Maximum distance factor ${maxDistanceFactor} is not a SPEC option.`)
      }
      if (scene) scene.setControls({ minDistanceFactor, maxDistanceFactor })
      else patchCity({ controls: { ...city().controls, minDistanceFactor, maxDistanceFactor } })
      return undefined
    },
    'city.zoomBy': async ({ delta }) => {
      if (!Number.isFinite(delta)) throw invalid('The zoom step must be a number.', String(delta))
      openScene().mapControls.zoomBy(delta)
      return undefined
    },
    'city.resetNorth': async () => {
      openScene().mapControls.resetNorth()
      return undefined
    },
    'city.setPitch': async ({ pitch }) => {
      if (!Number.isFinite(pitch)) throw invalid('The tilt must be a number.', String(pitch))
      openScene().mapControls.setPitch(pitch)
      return undefined
    },
    dispose() {
      openSequence++
      scene?.dispose()
      scene = null
      container = null
      tilesLoader?.dispose()
      tilesLoader = null
    },
  }
}
