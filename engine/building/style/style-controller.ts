import {
  AmbientLight,
  type Box3,
  Color,
  DirectionalLight,
  FogExp2,
  HemisphereLight,
  Mesh,
  MeshLambertMaterial,
  PlaneGeometry,
  type PerspectiveCamera,
  type Scene,
  type Texture,
  type Vector2,
  type Vector3,
  type WebGLRenderer,
} from 'three'
import type { SceneStyle, SceneStyleState, StylePixels } from '../../api/style-commands'
import { createGroundTexture, GROUND_TILE_METERS } from './ground-textures'
import { SkyCube } from './sky-cube'
import {
  AMBIENT_INTENSITY,
  DIRECTIONAL_INTENSITY_FALLBACK,
  HEMISPHERE_INTENSITY_FALLBACK,
  intensityOr,
  LIGHT_INTENSITY_SCALE,
  sunDirection,
  threeColor,
} from './style-values'
import { WeatherParticles } from './weather-particles'

/** Fog density at 1, in units of 1 / (the framed radius). */
const FOG_DENSITY_SCALE = 0.6

/**
 * What a style is drawn into: the building scene's view (building-view.ts), or the offline
 * package viewer's scene (engine/offline-viewer/viewer-style.ts), which draws every frame.
 */
export interface StyleView {
  readonly scene: Scene
  /** Where the camera looks (the sun and the ground centre on it without bounds). */
  readonly target: Vector3
  /** The view's own lights, hidden while a style brings its own. */
  readonly neutralLights: { visible: boolean }
  /** The radius of what was last framed, metres. */
  readonly framedRadius: number
  getRenderer(): WebGLRenderer | null
  /** The camera's distance to the target. */
  distance(): number
  setAnimating(isAnimating: boolean): void
  setMouseSpeed(speed: number): void
  requestRender(): void
  /** Draws now; false without a renderer. */
  renderNow(): boolean
}

/**
 * Draws a style around the building: the sky (a cube map background), the lights, the ground (a
 * tiling textured plane under the models), the fog and the weather. It lives as long as the
 * view; scenes come and go under it, and the ground is fitted to each one's bounds.
 */
export class StyleController {
  private style: SceneStyle | null = null
  private readonly sky = new SkyCube()
  private skyOf: SceneStyle['sky'] | null = null
  private readonly ambient = new AmbientLight()
  private readonly directional = new DirectionalLight()
  private readonly hemisphere = new HemisphereLight()
  private ground: { mesh: Mesh; texture: Texture; kind: SceneStyle['ground'] } | null = null
  private weather: WeatherParticles | null = null
  private readonly neutralBackground: Color | null
  private bounds: Box3 | null = null

  constructor(
    private readonly view: StyleView,
    private readonly onChange: () => void,
  ) {
    this.neutralBackground = view.scene.background instanceof Color ? view.scene.background : null
    for (const light of [this.ambient, this.directional, this.hemisphere]) {
      light.visible = false
      view.scene.add(light)
    }
    view.scene.add(this.directional.target)
  }

  /** What the snapshot says about the style. */
  state(): SceneStyleState {
    return {
      style: this.style,
      isAnimating: this.weather !== null,
      particleCount: this.weather?.count ?? 0,
    }
  }

  /** Applies a style that `styleProblem` accepted. */
  apply(style: SceneStyle): void {
    const scene = this.view.scene
    this.style = style
    this.view.neutralLights.visible = false
    this.applyLights(style)
    this.applySky(style)
    this.applyGround(style)
    this.applyWeather(style)
    scene.fog =
      style.fog.isOn && style.fog.color.a > 0 && style.fog.density > 0
        ? new FogExp2(threeColor(style.fog.color), this.fogDensity(style))
        : null
    this.view.setMouseSpeed(style.mouseSpeed)
    this.view.requestRender()
    this.onChange()
  }

  /** Back to the view's neutral look. */
  reset(): void {
    this.style = null
    this.skyOf = null
    this.sky.dispose()
    this.view.scene.background = this.neutralBackground
    this.view.scene.fog = null
    this.view.neutralLights.visible = true
    for (const light of [this.ambient, this.directional, this.hemisphere]) light.visible = false
    this.removeGround()
    this.removeWeather()
    this.view.setMouseSpeed(1)
    this.view.requestRender()
    this.onChange()
  }

  /** A new renderer (canvas): the sky cube is rendered again with it. */
  rendererChanged(): void {
    this.skyOf = null
    this.sky.dispose()
    if (this.style) this.apply(this.style)
  }

  /** The models' bounds changed (a building opened or loaded): the ground and fog follow. */
  fitTo(bounds: Box3 | null): void {
    this.bounds = bounds && !bounds.isEmpty() ? bounds.clone() : null
    if (this.style) this.apply(this.style)
  }

  /** Before each render: weather follows the camera. */
  beforeRender(camera: PerspectiveCamera, viewportPixels: Vector2): void {
    if (!this.weather) return
    const pixelsPerMeter = viewportPixels.y / (2 * Math.tan((camera.fov * Math.PI) / 360))
    this.weather.update(camera.position, this.view.distance(), pixelsPerMeter)
  }

  /** Hides sky, ground and weather for one render; returns what shows them again. */
  hideSurroundings(): () => void {
    const background = this.view.scene.background
    const fog = this.view.scene.fog
    const hidden = [this.ground?.mesh, this.weather?.points].filter((object) => object?.visible)
    this.view.scene.background = this.neutralBackground
    this.view.scene.fog = null
    for (const object of hidden) object!.visible = false
    return () => {
      this.view.scene.background = background
      this.view.scene.fog = fog
      for (const object of hidden) object!.visible = true
    }
  }

  /** Renders and reads a few pixels back (top, centre, bottom of the frame). */
  samplePixels(): StylePixels {
    const black = [0, 0, 0] as const
    const renderer = this.view.getRenderer()
    if (!renderer || !this.view.renderNow()) {
      return { topRgb: black, centreRgb: black, bottomRgb: black }
    }
    const gl = renderer.getContext()
    const width = gl.drawingBufferWidth
    const height = gl.drawingBufferHeight
    const read = (y: number): [number, number, number] => {
      const pixel = new Uint8Array(4)
      gl.readPixels(Math.floor(width / 2), y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
      return [pixel[0]!, pixel[1]!, pixel[2]!]
    }
    // readPixels counts rows from the bottom
    return {
      topRgb: read(Math.max(0, height - 5)),
      centreRgb: read(Math.floor(height / 2)),
      bottomRgb: read(Math.min(4, height - 1)),
    }
  }

  /** Frees the sky, ground and weather. */
  dispose(): void {
    this.sky.dispose()
    this.removeGround()
    this.removeWeather()
    for (const light of [this.ambient, this.directional, this.hemisphere]) {
      light.removeFromParent()
      light.dispose()
    }
    this.directional.target.removeFromParent()
  }

  private radius(): number {
    if (!this.bounds) return Math.max(this.view.framedRadius, 10)
    const size = this.bounds.getSize(this.directional.position.clone())
    return Math.max(size.length() / 2, 10)
  }

  private fogDensity(style: SceneStyle): number {
    return (style.fog.density * style.fog.color.a * FOG_DENSITY_SCALE) / this.radius()
  }

  private applyLights(style: SceneStyle): void {
    const { ambientLight, directionalLight, hemisphereLight } = style
    this.ambient.color.copy(threeColor(ambientLight.color))
    this.ambient.intensity = ambientLight.color.a * AMBIENT_INTENSITY
    this.directional.color.copy(threeColor(directionalLight.color))
    this.directional.intensity =
      intensityOr(directionalLight.intensity, DIRECTIONAL_INTENSITY_FALLBACK) *
      directionalLight.color.a *
      LIGHT_INTENSITY_SCALE
    this.hemisphere.color.copy(threeColor(hemisphereLight.skyColor))
    this.hemisphere.groundColor.copy(threeColor(hemisphereLight.groundColor))
    this.hemisphere.intensity =
      intensityOr(hemisphereLight.intensity, HEMISPHERE_INTENSITY_FALLBACK) *
      hemisphereLight.skyColor.a *
      LIGHT_INTENSITY_SCALE
    // the light comes from where the sky's sun is
    const centre = this.bounds?.getCenter(this.directional.target.position.clone())
    this.directional.target.position.copy(centre ?? this.view.target)
    this.directional.position
      .copy(this.directional.target.position)
      .addScaledVector(sunDirection(style.sky), this.radius() * 2)
    for (const light of [this.ambient, this.directional, this.hemisphere]) light.visible = true
  }

  private applySky(style: SceneStyle): void {
    const renderer = this.view.getRenderer()
    if (!renderer) return
    if (this.skyOf !== style.sky) {
      this.view.scene.background = this.sky.render(renderer, style.sky)
      this.skyOf = style.sky
    }
  }

  private applyGround(style: SceneStyle): void {
    if (style.ground === 'none') {
      this.removeGround()
      return
    }
    if (this.ground?.kind !== style.ground) {
      this.removeGround()
      const texture = createGroundTexture(style.ground)
      const material = new MeshLambertMaterial({ map: texture })
      const mesh = new Mesh(new PlaneGeometry(1, 1), material)
      mesh.name = `ground:${style.ground}`
      mesh.rotation.x = -Math.PI / 2
      mesh.renderOrder = -1
      this.view.scene.add(mesh)
      this.ground = { mesh, texture, kind: style.ground }
    }
    // wide enough to reach the horizon the clip planes allow, under the lowest model
    const radius = this.radius()
    const size = radius * 40
    const { mesh, texture } = this.ground!
    mesh.scale.set(size, size, 1)
    const centre = this.bounds?.getCenter(mesh.position.clone()) ?? this.view.target.clone()
    mesh.position.set(centre.x, (this.bounds?.min.y ?? 0) - 0.02, centre.z)
    texture.repeat.set(size / GROUND_TILE_METERS, size / GROUND_TILE_METERS)
  }

  private applyWeather(style: SceneStyle): void {
    const kind = style.weather === 'sunny' ? null : style.weather
    const current = this.weather?.points.name.slice('weather:'.length) ?? null
    if (kind === current) return
    this.removeWeather()
    if (kind) {
      this.weather = new WeatherParticles(kind)
      this.view.scene.add(this.weather.points)
    }
    this.view.setAnimating(this.weather !== null)
  }

  private removeGround(): void {
    if (!this.ground) return
    this.ground.mesh.removeFromParent()
    this.ground.mesh.geometry.dispose()
    ;(this.ground.mesh.material as MeshLambertMaterial).dispose()
    this.ground.texture.dispose()
    this.ground = null
  }

  private removeWeather(): void {
    if (!this.weather) return
    this.weather.points.removeFromParent()
    this.weather.dispose()
    this.weather = null
    this.view.setAnimating(false)
  }
}
