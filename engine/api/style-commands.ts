/**
 * The look of a scene (issue 19, SPEC §9): sky, weather, ground, fog, lights and how the camera
 * moves. The UI holds the project's saved setting (server `/globalsetting`) and hands the scene
 * the whole style; the engine owns how it is drawn (sky cube maps, tiling ground textures,
 * GPU weather particles, MapLibre sky and fog in the city). Both scenes take the same shape
 * under `building.setStyle` / `city.setStyle`.
 */

/** A colour: r, g, b 0–255, a 0–1. For a light or the fog the alpha scales its strength. */
export interface StyleColor {
  r: number
  g: number
  b: number
  a: number
}

/** SPEC §9 sky styles: 1 sunny sky, 2 sky box at sun 25°, 3 milky way, 4 rainy (overcast). */
export type SkyStyle = 1 | 2 | 3 | 4

/** SPEC §9 weather styles. */
export type WeatherStyle = 'sunny' | 'rain' | 'snow'

/** SPEC §9 ground styles. */
export type GroundStyle = 'none' | 'grassland' | 'stoneGravel' | 'ashBlackGravel'

/** The whole look of a scene. */
export interface SceneStyle {
  sky: SkyStyle
  weather: WeatherStyle
  ground: GroundStyle
  fog: {
    isOn: boolean
    color: StyleColor
    /** 0–1: how thick, relative to the size of what is shown. */
    density: number
  }
  ambientLight: { color: StyleColor }
  /** Intensity 0–1 (the UI's number block); the scene scales it. */
  directionalLight: { color: StyleColor; intensity: number }
  hemisphereLight: { skyColor: StyleColor; groundColor: StyleColor; intensity: number }
  /** The camera's base distances in metres (SPEC §9 building kind 1 … 1e7). */
  visualDistance: { min: number; max: number }
  /** Turning and panning speed; 1 normal. */
  mouseSpeed: number
  /** Multiply the base distances (SPEC §9 options 1…0.1 and 1…10). */
  zoomFactors: { min: number; max: number }
  /** SPEC §9 wheel scale option (1…2.5); the zoom speed is this × 0.5. */
  wheelScale: number
  /**
   * The colour of drawn paths: the building's IndoorGML shortest route (the alpha is its
   * opacity). Without it the route keeps the engine's red.
   */
  pathColor?: StyleColor
}

/** The style part of a scene's snapshot. */
export interface SceneStyleState {
  /** The style in force, or null while the scene shows its neutral look (nothing applied). */
  readonly style: SceneStyle | null
  /** True while weather particles are drawn: the scene renders every frame then, not on demand. */
  readonly isAnimating: boolean
  /** Weather particles drawn in one draw call (0 without weather). */
  readonly particleCount: number
}

/** The colour (0–255) of a few points of the frame, rendered with everything the style draws. */
export interface StylePixels {
  /** A few pixels below the top edge, in the middle: the sky. */
  topRgb: readonly [number, number, number]
  centreRgb: readonly [number, number, number]
  /** A few pixels above the bottom edge, in the middle: the ground when the camera looks down. */
  bottomRgb: readonly [number, number, number]
}

/** The style state before any style is applied. */
export function createInitialStyleState(): SceneStyleState {
  return { style: null, isAnimating: false, particleCount: 0 }
}

/** Style commands of one scene; `BuildingCommands` extends `StyleCommands<'building'>`. */
export type StyleCommands<Prefix extends 'city' | 'building'> = {
  /**
   * Applies a whole style (checked first: a colour channel outside 0–255, an alpha outside
   * 0–1, a distance order or factor that makes no sense fails with `engine.invalidArgument`
   * and changes nothing). Weather makes the scene render every frame while it is on.
   */
  [K in `${Prefix}.setStyle`]: { args: { style: SceneStyle }; result: undefined }
} & {
  /** Back to the neutral look (no sky, ground, weather or fog; the engine's own lights). */
  [K in `${Prefix}.resetStyle`]: { args: undefined; result: undefined }
} & {
  /** Renders now and reads a few pixels back (for pixel checks of the sky and ground). */
  [K in `${Prefix}.sampleStylePixels`]: { args: undefined; result: StylePixels }
}
