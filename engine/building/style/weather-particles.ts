import {
  BufferGeometry,
  Float32BufferAttribute,
  LineSegments,
  NormalBlending,
  Points,
  ShaderMaterial,
  Vector3,
} from 'three'

/**
 * Rain drops and snow flakes: one draw call each, all motion in the vertex shader. Snow flakes
 * are round points; rain drops are line streaks, since a point sprite as tall as a streak shades
 * its whole square (up to 48 × 48 pixels) to show a thin line of it, which a software GPU pays
 * for on every drop.
 */
export const RAIN_PARTICLE_COUNT = 6000
export const SNOW_PARTICLE_COUNT = 5000

const vertexShader = /* glsl */ `
  uniform float time;
  uniform vec3 boxSize;
  uniform vec3 centre;
  uniform float fallSpeed;
  uniform float isSnow;
  uniform float pointMeters;
  uniform float pixelsPerMeterAtOne;
  // a rain streak's end: 0 its head (lower), 1 its tail; always 0 for snow
  attribute float along;
  varying float vFade;
  varying float vAlong;
  void main() {
    // position holds 0..1 in each axis: the particle's place in a box that wraps around the camera
    vec3 place = position * boxSize;
    float speed = fallSpeed * (0.75 + 0.5 * fract(position.x * 97.13));
    place.y -= time * speed;
    // snow sways; rain leans slightly with a steady wind
    place.x += isSnow * sin(time * 0.9 + position.z * 40.0) * 0.8 + (1.0 - isSnow) * time * 0.6;
    place.z += isSnow * cos(time * 0.7 + position.x * 31.0) * 0.6;
    vec3 origin = centre - boxSize * 0.5;
    vec3 wrapped = mod(place - origin, boxSize) + origin;
    // the streak trails up and against the wind, as long as a drop falls in a short exposure
    wrapped += along * vec3(-0.04, 1.0, 0.0) * pointMeters;
    vAlong = along;
    vec4 viewPosition = viewMatrix * vec4(wrapped, 1.0);
    gl_Position = projectionMatrix * viewPosition;
    float depth = max(-viewPosition.z, 0.1);
    gl_PointSize = clamp(pointMeters * pixelsPerMeterAtOne / depth, 1.0, 48.0);
    // thin out at the box's far side, so its edge is never seen
    vFade = 1.0 - smoothstep(0.35, 0.5, length(wrapped - centre) / length(boxSize));
  }`

const fragmentShader = /* glsl */ `
  uniform float isSnow;
  uniform vec3 color;
  uniform float opacity;
  varying float vFade;
  varying float vAlong;
  void main() {
    float alpha;
    if (isSnow > 0.5) {
      alpha = 1.0 - smoothstep(0.2, 0.5, length(gl_PointCoord - 0.5));
    } else {
      // a streak, strongest in its middle
      alpha = 1.0 - abs(vAlong * 2.0 - 1.0);
    }
    alpha *= opacity * vFade;
    if (alpha < 0.02) discard;
    gl_FragColor = vec4(color, alpha);
  }`

/**
 * Rain or snow around the camera. The particles live in a box centred on the camera and wrap
 * inside it in the shader, so a few thousand of them fill the view wherever it goes, and a
 * frame costs one draw call and no CPU work per particle.
 */
export class WeatherParticles {
  readonly points: Points | LineSegments
  readonly count: number
  private readonly material: ShaderMaterial
  private readonly startMs = performance.now()

  constructor(kind: 'rain' | 'snow') {
    this.count = kind === 'rain' ? RAIN_PARTICLE_COUNT : SNOW_PARTICLE_COUNT
    let state = kind === 'rain' ? 7 : 13
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0
      return state / 4294967296
    }
    const isSnow = kind === 'snow'
    // a rain drop is two vertices (head and tail) at the same place in the box
    const verticesPerParticle = isSnow ? 1 : 2
    const positions = new Float32Array(this.count * 3 * verticesPerParticle)
    const along = new Float32Array(this.count * verticesPerParticle)
    for (let particle = 0; particle < this.count; particle++) {
      const place = [random(), random(), random()]
      for (let end = 0; end < verticesPerParticle; end++) {
        const vertex = particle * verticesPerParticle + end
        positions.set(place, vertex * 3)
        along[vertex] = end
      }
    }
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new Float32BufferAttribute(positions, 3))
    geometry.setAttribute('along', new Float32BufferAttribute(along, 1))
    this.material = new ShaderMaterial({
      vertexShader,
      fragmentShader,
      transparent: true,
      depthWrite: false,
      blending: NormalBlending,
      uniforms: {
        time: { value: 0 },
        boxSize: { value: new Vector3(40, 30, 40) },
        centre: { value: new Vector3() },
        fallSpeed: { value: isSnow ? 1.2 : 14 },
        isSnow: { value: isSnow ? 1 : 0 },
        pointMeters: { value: isSnow ? 0.12 : 0.6 },
        pixelsPerMeterAtOne: { value: 500 },
        color: { value: isSnow ? new Vector3(1, 1, 1) : new Vector3(0.72, 0.78, 0.85) },
        opacity: { value: isSnow ? 0.9 : 0.65 },
      },
    })
    this.points = isSnow
      ? new Points(geometry, this.material)
      : new LineSegments(geometry, this.material)
    // the box follows the camera: its bounds never describe where the particles are drawn
    this.points.frustumCulled = false
    this.points.renderOrder = 10
    this.points.name = `weather:${kind}`
  }

  /**
   * Moves the box to the camera and advances the fall. `pixelsPerMeterAtOne` is the viewport's
   * height in pixels over the vertical field of view (what one metre at one metre spans).
   */
  update(cameraPosition: Vector3, cameraDistance: number, pixelsPerMeterAtOne: number): void {
    const uniforms = this.material.uniforms
    uniforms.time!.value = (performance.now() - this.startMs) / 1000
    // a wider box when the camera stands far back, so the weather is seen around the building
    const width = Math.min(400, Math.max(30, cameraDistance * 0.8))
    ;(uniforms.boxSize!.value as Vector3).set(width, width * 0.75, width)
    ;(uniforms.centre!.value as Vector3).copy(cameraPosition)
    uniforms.pixelsPerMeterAtOne!.value = pixelsPerMeterAtOne
    // particles grow with the box, so a far view still reads as rain, not as dust
    uniforms.pointMeters!.value = (uniforms.isSnow!.value ? 0.12 : 0.6) * Math.max(1, width / 40)
  }

  /** Frees the GPU buffers and program. */
  dispose(): void {
    this.points.geometry.dispose()
    this.material.dispose()
  }
}
