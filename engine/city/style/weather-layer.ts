import type { CustomLayerInterface, Map as MapLibreMap } from 'maplibre-gl'
import type { WeatherStyle } from '../../api/style-commands'
import { starCount, weatherParticleCounts } from './city-style-values'

/**
 * Rain, snow, fog and the milky way's stars over the city, as one MapLibre custom layer: every
 * particle's place is computed on the GPU from a fixed seed and the time, so a frame costs one
 * small draw call per kind and no buffer upload. Particles live in screen space (weather is
 * seen close to the eye, not on the ground); stars are drawn only above the horizon. The fog is
 * one quad over the frame whose thickness follows each pixel's distance to a flat ground
 * (MapLibre's own fog only covers 3D terrain).
 */

/** The custom layer's id in the map's style. */
export const weatherLayerId = 'twinscape-weather'

const vertexShaderSource = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
// x, y: place 0–1; z: a 0–1 jitter (speed, size); w: 0 the drop's head, 1 its tail
layout(location = 0) in vec4 seed;
uniform float time;
uniform int kind;
uniform float horizon;
uniform float fogAlpha;
out float vAlpha;
out float vClipY;
void main(void) {
  float x;
  float y;
  if (kind == 3) {
    // the fog: one quad over the whole frame
    x = (gl_VertexID & 1) == 0 ? -1.0 : 1.0;
    y = (gl_VertexID & 2) == 0 ? -1.0 : 1.0;
    vAlpha = fogAlpha;
    gl_PointSize = 1.0;
  } else if (kind == 0) {
    float fall = fract(seed.y - time * (0.9 + 0.5 * seed.z));
    x = fract(seed.x + fall * 0.06) * 2.0 - 1.0 - seed.w * 0.005;
    y = fall * 2.2 - 1.1 + seed.w * (0.045 + 0.035 * seed.z);
    vAlpha = 0.65;
    gl_PointSize = 1.0;
  } else if (kind == 1) {
    float fall = fract(seed.y - time * (0.07 + 0.06 * seed.z));
    x = fract(seed.x + 0.015 * sin(time * 1.3 + seed.z * 40.0)) * 2.0 - 1.0;
    y = fall * 2.2 - 1.1;
    vAlpha = 0.9;
    gl_PointSize = 2.0 + 3.0 * seed.z;
  } else {
    x = seed.x * 2.0 - 1.0;
    y = seed.y * 2.0 - 1.0;
    vAlpha = y > horizon ? 0.35 + 0.65 * seed.z * seed.z : 0.0;
    gl_PointSize = 1.0 + 2.0 * seed.z * seed.z;
  }
  vClipY = y;
  gl_Position = vec4(x, y, 0.0, 1.0);
}
`

const fragmentShaderSource = /* glsl */ `#version 300 es
precision highp float;
precision highp int;
uniform int kind;
uniform vec3 color;
uniform float fogDensity;
uniform float centreBelowHorizon;
uniform float tanHalfFov;
in float vAlpha;
in float vClipY;
out vec4 fragColor;
void main(void) {
  float alpha = vAlpha;
  if (kind == 1 || kind == 2) {
    vec2 offset = gl_PointCoord - 0.5;
    if (dot(offset, offset) > 0.25) discard;
  } else if (kind == 3) {
    // Fog over a flat city: the ray through this pixel meets the ground at a distance of
    // (camera height / sin of its angle below the horizon); thicker the farther it goes.
    float below = centreBelowHorizon - atan(vClipY * tanHalfFov);
    float rayLength = 1.0 / max(sin(below), 0.002);
    alpha = below > 0.0
      ? 1.0 - exp(-rayLength * 0.25 * fogDensity)
      : 1.0 - smoothstep(0.0, 0.12, -below);
    alpha *= vAlpha;
  }
  // MapLibre blends premultiplied colours
  fragColor = vec4(color * alpha, alpha);
}
`

const kinds = { rain: 0, snow: 1, stars: 2, fog: 3 } as const
const colors: Record<Exclude<keyof typeof kinds, 'fog'>, [number, number, number]> = {
  rain: [0.78, 0.82, 0.88],
  snow: [1, 1, 1],
  stars: [1, 0.97, 0.9],
}

/** The same seeds every time (a small LCG): the star field does not change between opens. */
function createSeeds(count: number): Float32Array {
  let state = 0x2f6e2b1
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  const seeds = new Float32Array(count * 8)
  for (let index = 0; index < count; index++) {
    const [x, y, z] = [next(), next(), next()]
    seeds.set([x, y, z, 0, x, y, z, 1], index * 8)
  }
  return seeds
}

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)
  if (!shader) throw new Error('WebGL could not create a shader.')
  gl.shaderSource(shader, source)
  gl.compileShader(shader)
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
    throw new Error(`Weather shader: ${gl.getShaderInfoLog(shader)}`)
  }
  return shader
}

interface GpuParts {
  program: WebGLProgram
  buffer: WebGLBuffer
  /** Every vertex: drops as line pairs. */
  lineArray: WebGLVertexArrayObject
  /** Every other vertex: one point per particle. */
  pointArray: WebGLVertexArrayObject
  uniforms: Record<
    | 'time'
    | 'kind'
    | 'horizon'
    | 'color'
    | 'fogAlpha'
    | 'fogDensity'
    | 'centreBelowHorizon'
    | 'tanHalfFov',
    WebGLUniformLocation | null
  >
}

/** What the layer draws now. */
export interface WeatherLayerState {
  weather: WeatherStyle
  hasStars: boolean
  /** The fog's colour (0–1 per channel, its alpha the fog's strength), or null without fog. */
  fog: { color: [number, number, number, number]; density: number } | null
}

/** Creates the custom layer; `state()` is read every frame, so changes need only a repaint. */
export function createWeatherLayer(state: () => WeatherLayerState): CustomLayerInterface {
  let gpu: GpuParts | null = null
  let map: MapLibreMap | null = null
  const startMs = performance.now()

  const draw = (
    gl: WebGL2RenderingContext,
    parts: GpuParts,
    kind: Exclude<keyof typeof kinds, 'fog'>,
  ) => {
    const count = kind === 'stars' ? starCount : weatherParticleCounts[kind]
    gl.uniform1i(parts.uniforms.kind, kinds[kind])
    gl.uniform3fv(parts.uniforms.color, colors[kind])
    if (kind === 'rain') {
      gl.bindVertexArray(parts.lineArray)
      gl.drawArrays(gl.LINES, 0, count * 2)
    } else {
      gl.bindVertexArray(parts.pointArray)
      gl.drawArrays(gl.POINTS, 0, count)
    }
  }

  return {
    id: weatherLayerId,
    type: 'custom',
    renderingMode: '2d',
    onAdd(added, gl) {
      map = added
      const context = gl as WebGL2RenderingContext
      const program = context.createProgram()
      const buffer = context.createBuffer()
      const lineArray = context.createVertexArray()
      const pointArray = context.createVertexArray()
      context.attachShader(program, compile(context, context.VERTEX_SHADER, vertexShaderSource))
      context.attachShader(program, compile(context, context.FRAGMENT_SHADER, fragmentShaderSource))
      context.linkProgram(program)
      const maxCount = Math.max(starCount, ...Object.values(weatherParticleCounts))
      context.bindBuffer(context.ARRAY_BUFFER, buffer)
      context.bufferData(context.ARRAY_BUFFER, createSeeds(maxCount), context.STATIC_DRAW)
      for (const [array, stride] of [
        [lineArray, 16],
        [pointArray, 32],
      ] as const) {
        context.bindVertexArray(array)
        context.enableVertexAttribArray(0)
        context.vertexAttribPointer(0, 4, context.FLOAT, false, stride, 0)
      }
      context.bindVertexArray(null)
      context.bindBuffer(context.ARRAY_BUFFER, null)
      const uniform = (name: string) => context.getUniformLocation(program, name)
      gpu = {
        program,
        buffer,
        lineArray,
        pointArray,
        uniforms: {
          time: uniform('time'),
          kind: uniform('kind'),
          horizon: uniform('horizon'),
          color: uniform('color'),
          fogAlpha: uniform('fogAlpha'),
          fogDensity: uniform('fogDensity'),
          centreBelowHorizon: uniform('centreBelowHorizon'),
          tanHalfFov: uniform('tanHalfFov'),
        },
      }
    },
    render(gl) {
      const { weather, hasStars, fog } = state()
      if (!gpu || !map || (weather === 'sunny' && !hasStars && !fog)) return
      const context = gl as WebGL2RenderingContext
      // biome-ignore lint/correctness/useHookAtTopLevel: WebGL's useProgram, not a React hook.
      context.useProgram(gpu.program)
      context.disable(context.DEPTH_TEST)
      context.disable(context.STENCIL_TEST)
      context.enable(context.BLEND)
      context.blendFunc(context.ONE, context.ONE_MINUS_SRC_ALPHA)
      context.uniform1f(gpu.uniforms.time, (performance.now() - startMs) / 1000)
      const halfFov = (map.getVerticalFieldOfView() * Math.PI) / 360
      context.uniform1f(gpu.uniforms.horizon, horizonClipY(map))
      if (hasStars) draw(context, gpu, 'stars')
      if (fog) {
        context.uniform1i(gpu.uniforms.kind, kinds.fog)
        context.uniform3fv(gpu.uniforms.color, fog.color.slice(0, 3))
        context.uniform1f(gpu.uniforms.fogAlpha, fog.color[3])
        context.uniform1f(gpu.uniforms.fogDensity, fog.density)
        context.uniform1f(gpu.uniforms.centreBelowHorizon, ((90 - map.getPitch()) * Math.PI) / 180)
        context.uniform1f(gpu.uniforms.tanHalfFov, Math.tan(halfFov))
        context.bindVertexArray(gpu.lineArray)
        context.drawArrays(context.TRIANGLE_STRIP, 0, 4)
      }
      if (weather !== 'sunny') {
        draw(context, gpu, weather)
        // falling particles: the map keeps drawing frames while it rains or snows
        map.triggerRepaint()
      }
      context.bindVertexArray(null)
    },
    onRemove(_removed, gl) {
      if (!gpu) return
      const context = gl as WebGL2RenderingContext
      context.deleteProgram(gpu.program)
      context.deleteBuffer(gpu.buffer)
      context.deleteVertexArray(gpu.lineArray)
      context.deleteVertexArray(gpu.pointArray)
      gpu = null
      map = null
    },
  }
}

/**
 * Where the horizon is, in clip-space y (1 the top edge): the camera looks `pitch` degrees
 * from straight down, so the horizon is `90 - pitch` degrees above the view's centre.
 */
export function horizonClipY(map: MapLibreMap): number {
  const pitch = map.getPitch()
  const halfFov = (map.getVerticalFieldOfView() * Math.PI) / 360
  if (pitch <= 0) return 1e6
  return Math.tan(((90 - pitch) * Math.PI) / 180) / Math.tan(halfFov)
}
