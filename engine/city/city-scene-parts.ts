import type { Map as MapLibreMap } from 'maplibre-gl'
import type { CitySnapshot } from '../api/city-snapshot'

/** A patch of the city snapshot; the handlers merge it into the engine state. */
export type CityPatch = Partial<CitySnapshot>

/**
 * What the parts of a city scene (tileset streams, feature selection, camera) share: the map,
 * the way to publish, and the one place deck's layer list is rebuilt from every part.
 */
export interface CitySceneContext {
  readonly map: MapLibreMap
  publish(patch: CityPatch): void
  /** Gives deck the layers of every part again (something that is drawn changed). */
  updateLayers(): void
  /** True once the scene was disposed: late callbacks do nothing. */
  isDisposed(): boolean
  /** Resolves after the map's next drawn frame (at once when disposed). */
  nextRender(): Promise<void>
  /** Draws the next frame even if GPU pacing would hold it: a first content is to be seen. */
  drawNextFrame(): void
  /**
   * Draws a frame now, in this task, when the map can draw what was just shown (its style loaded,
   * deck started); else as {@link drawNextFrame}. For content seen for the first time.
   */
  drawNow(): void
}
