import type { Map as MapLibreMap } from 'maplibre-gl'
import type { LightSpecification, SkySpecification } from './city-style-values'
import type { CitySnapshot } from '../../api/city-snapshot'
import {
  createInitialStyleState,
  type SceneStyle,
  type SceneStyleState,
  type StylePixels,
} from '../../api/style-commands'
import type { CityPatch } from '../city-scene-parts'
import { setTileLighting } from '../tile-mesh-renderer'
import { cityLightOf, citySkyOf, tileLightingOf, weatherParticleCounts } from './city-style-values'
import { createWeatherLayer, weatherLayerId } from './weather-layer'

/** MapLibre's own light (its style-spec defaults), for a city without a style. */
const defaultMapLight: LightSpecification = {
  anchor: 'viewport',
  color: '#ffffff',
  intensity: 0.5,
  position: [1.15, 210, 30],
}

/** What the style part of a city scene needs from the scene. */
export interface CityStyleDependencies {
  map: MapLibreMap
  /** The map's GL context (null when the browser has no WebGL 2: nothing is lit then). */
  gl: WebGL2RenderingContext | null
  publish(patch: CityPatch): void
  /** Applies the camera part of a style (zoom factors, wheel scale). */
  setControls(controls: Partial<CitySnapshot['controls']>): void
}

/**
 * The style part of a city scene (issue 19): the sky, fog and light go into MapLibre's style
 * (`setSky`, `setLight`), the lights into the tiles' shader, rain, snow and the milky way's
 * stars into a custom layer. A basemap swap replaces MapLibre's style, so all of it is put
 * back on every `style.load`.
 */
export class CityStyle {
  private style: SceneStyle | null = null
  private readonly weatherLayer = createWeatherLayer(() => ({
    weather: this.style?.weather ?? 'sunny',
    hasStars: this.style?.sky === 3,
    fog: this.style?.fog.isOn
      ? {
          color: [
            this.style.fog.color.r / 255,
            this.style.fog.color.g / 255,
            this.style.fog.color.b / 255,
            this.style.fog.color.a,
          ],
          density: this.style.fog.density,
        }
      : null,
  }))
  private readonly onStyleLoad = () => this.applyToMap()

  constructor(private readonly dependencies: CityStyleDependencies) {
    dependencies.map.on('style.load', this.onStyleLoad)
  }

  /** The style part of the snapshot. */
  state(): SceneStyleState {
    const style = this.style
    if (!style) return createInitialStyleState()
    const particleCount = weatherParticleCounts[style.weather]
    return { style, isAnimating: particleCount > 0, particleCount }
  }

  /** Draws a (checked) style, or the city's neutral look with null. */
  apply(style: SceneStyle | null): void {
    this.style = style
    const { gl, map, publish, setControls } = this.dependencies
    if (gl) setTileLighting(gl, style ? tileLightingOf(style) : null)
    setControls({
      minDistanceFactor: style?.zoomFactors.min ?? 1,
      maxDistanceFactor: style?.zoomFactors.max ?? 1,
      wheelScale: style?.wheelScale ?? 1,
    })
    this.applyToMap()
    map.triggerRepaint()
    publish({ style: this.state() })
  }

  /** Renders a frame and reads a few of its pixels (top, centre, bottom, in the middle). */
  samplePixels(): Promise<StylePixels> {
    const { map, gl } = this.dependencies
    return new Promise((resolve, reject) => {
      if (!gl) {
        reject(new Error('The city map has no WebGL 2 context.'))
        return
      }
      // read right after MapLibre drew: the drawing buffer is still there then
      map.once('render', () => {
        const framebuffer = gl.getParameter(gl.FRAMEBUFFER_BINDING) as WebGLFramebuffer | null
        gl.bindFramebuffer(gl.FRAMEBUFFER, null)
        const width = gl.drawingBufferWidth
        const height = gl.drawingBufferHeight
        const read = (y: number): [number, number, number] => {
          const pixel = new Uint8Array(4)
          gl.readPixels(Math.floor(width / 2), y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
          return [pixel[0]!, pixel[1]!, pixel[2]!]
        }
        const pixels: StylePixels = {
          topRgb: read(height - 5),
          centreRgb: read(Math.floor(height / 2)),
          bottomRgb: read(4),
        }
        gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer)
        resolve(pixels)
      })
      map.triggerRepaint()
    })
  }

  /**
   * Puts rain, snow and fog over deck's layers again (deck adds a new layer on top of the map's
   * stack; the weather belongs in front of the tiles).
   */
  keepOnTop(): void {
    const { map } = this.dependencies
    try {
      const layers = map.getLayersOrder()
      if (layers.at(-1) !== weatherLayerId && map.getLayer(weatherLayerId)) {
        map.moveLayer(weatherLayerId)
      }
    } catch {
      // no style yet
    }
  }

  /** Stops following the map's style (the map itself is removed by the scene). */
  dispose(): void {
    this.dependencies.map.off('style.load', this.onStyleLoad)
    if (this.dependencies.gl) setTileLighting(this.dependencies.gl, null)
  }

  /** Sky, light and the weather layer into MapLibre's current style (once it has loaded). */
  private applyToMap(): void {
    const { map } = this.dependencies
    const style = this.style
    try {
      // MapLibre takes no sky as "none"; its typing asks for one
      map.setSky(style ? citySkyOf(style) : (undefined as unknown as SkySpecification))
      map.setLight(style ? cityLightOf(style) : defaultMapLight)
      if (style && !map.getLayer(weatherLayerId)) map.addLayer(this.weatherLayer)
      this.keepOnTop()
    } catch {
      // The style is still loading: its `style.load` applies all of this.
    }
  }
}
