import {
  AdditiveBlending,
  BackSide,
  BufferGeometry,
  CubeCamera,
  Float32BufferAttribute,
  HalfFloatType,
  Mesh,
  Points,
  Scene,
  ShaderMaterial,
  SphereGeometry,
  type Texture,
  WebGLCubeRenderTarget,
  type WebGLRenderer,
} from 'three'
import { Sky } from 'three/examples/jsm/objects/Sky.js'
import type { SkyStyle } from '../../api/style-commands'
import { sunDirection } from './style-values'

/** Faces of the sky cube, pixels: the sky is smooth, 256 is sharp enough for stars of 1–2 px. */
const CUBE_SIZE = 256
/** Stars of the milky way sky: a uniform field and a denser band. */
const STAR_COUNT = 6000

/**
 * The sky of a style, rendered once into a cube map that becomes the scene's background. Drawing
 * the atmosphere shader per pixel every frame would cost as much as the building on SwiftShader;
 * a cube background costs one cheap pass, and nothing of the sky depends on the camera's place.
 */
export class SkyCube {
  private target: WebGLCubeRenderTarget | null = null

  /** Renders the sky of `style` (replacing the previous one); the texture to show. */
  render(renderer: WebGLRenderer, style: SkyStyle): Texture {
    this.dispose()
    const target = new WebGLCubeRenderTarget(CUBE_SIZE, { type: HalfFloatType })
    const skyScene = new Scene()
    const disposables: Array<{ dispose(): void }> = []
    for (const object of skyObjects(style)) {
      skyScene.add(object)
      disposables.push(object.geometry, object.material as ShaderMaterial)
    }
    const camera = new CubeCamera(0.1, 1000, target)
    camera.update(renderer, skyScene)
    for (const disposable of disposables) disposable.dispose()
    this.target = target
    return target.texture
  }

  /** Frees the cube map. */
  dispose(): void {
    this.target?.dispose()
    this.target = null
  }
}

function skyObjects(style: SkyStyle): Array<Mesh | Points> {
  if (style === 1 || style === 2) return [atmosphere(style)]
  if (style === 3) return [gradientDome([0.004, 0.006, 0.02], [0.02, 0.03, 0.07]), starField()]
  return [gradientDome([0.32, 0.34, 0.37], [0.55, 0.57, 0.6])]
}

/** Three's physical sky (Preetham); sky 2 a lower, warmer sun (the sky box at sun 25°). */
function atmosphere(style: 1 | 2): Mesh {
  const sky = new Sky()
  sky.scale.setScalar(100)
  const uniforms = sky.material.uniforms
  uniforms.turbidity!.value = style === 1 ? 2 : 6
  uniforms.rayleigh!.value = style === 1 ? 1 : 2
  uniforms.mieCoefficient!.value = 0.005
  uniforms.mieDirectionalG!.value = 0.8
  uniforms.sunPosition!.value.copy(sunDirection(style))
  // The scattering is in physical units, far above 1 near the sun; the renderer does no tone
  // mapping (it would change every model's look), so the sky maps its own range into 0–1 with
  // an ACES fit (Narkowicz 2015) at a fixed exposure.
  sky.material.onBeforeCompile = (shader) => {
    shader.fragmentShader = shader.fragmentShader.replace(
      '#include <tonemapping_fragment>',
      `vec3 exposed = gl_FragColor.rgb * ${style === 1 ? '0.55' : '0.45'};
      gl_FragColor.rgb = clamp((exposed * (2.51 * exposed + 0.03)) /
        (exposed * (2.43 * exposed + 0.59) + 0.14), 0.0, 1.0);
      // Below the horizon Preetham's sky is nearly white, which reads as an empty canvas when no
      // ground is set: fade it into a muted ground tone there instead.
      float belowHorizon = smoothstep(0.0, 0.08, -direction.y);
      gl_FragColor.rgb = mix(gl_FragColor.rgb, vec3(0.36, 0.37, 0.38), belowHorizon);`,
    )
  }
  return sky
}

/** A dome shading from `horizon` to `zenith` (linear RGB), for the night and overcast skies. */
function gradientDome(zenith: number[], horizon: number[]): Mesh {
  const material = new ShaderMaterial({
    side: BackSide,
    depthWrite: false,
    uniforms: {
      zenith: { value: zenith },
      horizon: { value: horizon },
    },
    vertexShader: /* glsl */ `
      varying vec3 vDirection;
      void main() {
        vDirection = normalize(position);
        gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
      }`,
    fragmentShader: /* glsl */ `
      uniform vec3 zenith;
      uniform vec3 horizon;
      varying vec3 vDirection;
      void main() {
        float height = clamp(vDirection.y, 0.0, 1.0);
        // below the horizon the ground colour of the overcast sky, darker
        vec3 color = vDirection.y < 0.0 ? horizon * 0.7 : mix(horizon, zenith, pow(height, 0.6));
        gl_FragColor = vec4(color, 1.0);
      }`,
  })
  return new Mesh(new SphereGeometry(500, 32, 16), material)
}

/** Deterministic pseudo-random numbers, so every client draws the same stars. */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = Math.imul(state ^ (state >>> 15), 1 | state)
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

/** Stars on a sphere, two thirds of them crowded into a tilted band: the milky way. */
function starField(): Points {
  const random = seeded(19)
  const positions: number[] = []
  const brightness: number[] = []
  const tilt = 0.5
  for (let index = 0; index < STAR_COUNT; index++) {
    let x: number
    let y: number
    let z: number
    if (index % 3 === 0) {
      const u = random() * 2 - 1
      const angle = random() * Math.PI * 2
      const ring = Math.sqrt(1 - u * u)
      x = ring * Math.cos(angle)
      y = u
      z = ring * Math.sin(angle)
    } else {
      // a band around a great circle, tilted about the x axis
      const angle = random() * Math.PI * 2
      const spread = (random() + random() + random() - 1.5) * 0.18
      const bandY = spread
      const bandZ = Math.sin(angle)
      x = Math.cos(angle)
      y = bandY * Math.cos(tilt) - bandZ * Math.sin(tilt)
      z = bandY * Math.sin(tilt) + bandZ * Math.cos(tilt)
      const length = Math.hypot(x, y, z)
      x /= length
      y /= length
      z /= length
    }
    positions.push(x * 400, Math.abs(y) * 400, z * 400)
    brightness.push(0.35 + random() * random() * 1.4)
  }
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new Float32BufferAttribute(positions, 3))
  geometry.setAttribute('brightness', new Float32BufferAttribute(brightness, 1))
  const material = new ShaderMaterial({
    depthWrite: false,
    transparent: true,
    blending: AdditiveBlending,
    vertexShader: /* glsl */ `
      attribute float brightness;
      varying float vBrightness;
      void main() {
        vBrightness = brightness;
        gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
        gl_PointSize = 1.0 + brightness * 1.5;
      }`,
    fragmentShader: /* glsl */ `
      varying float vBrightness;
      void main() {
        float fade = 1.0 - smoothstep(0.2, 0.5, length(gl_PointCoord - 0.5));
        gl_FragColor = vec4(vec3(0.85, 0.9, 1.0) * vBrightness * fade, 1.0);
      }`,
  })
  return new Points(geometry, material)
}
