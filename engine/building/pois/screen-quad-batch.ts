import {
  BufferAttribute,
  BufferGeometry,
  DynamicDrawUsage,
  InterleavedBuffer,
  InterleavedBufferAttribute,
  Mesh,
  ShaderMaterial,
  type Texture,
  Vector2,
} from 'three'

/** Floats per quad corner: centre (3), atlas rect (4), pixel box (4), tint (4). */
const FLOATS = 15
/** A quad is two triangles over four corners, each corner holding the quad's floats. */
const CORNERS = 4
const INDICES = 6
const CORNER_XY = [-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5]
const CORNER_UV = [0, 0, 1, 0, 1, 1, 0, 1]
const CORNER_INDICES = [0, 1, 2, 0, 2, 3]
/** The trim of a picture drawn whole. */
const WHOLE = [0, 0, 1, 1] as const

/**
 * What a quad shows: `rect` (u, v, width, height of the atlas, v from the top) and, optionally,
 * `trim`: the part of it that is not transparent (left, top, right, bottom as fractions of the
 * rect, top down), so the quad covers only that part.
 */
export interface QuadPicture {
  readonly rect: readonly number[]
  readonly trim?: readonly number[]
}

const vertexShader = /* glsl */ `
attribute vec3 center;
attribute vec4 rect;
attribute vec4 box;
attribute vec4 tint;
uniform vec2 viewport;
uniform float pixelRatio;
varying vec2 vUv;
varying vec4 vTint;
void main() {
  vec4 clip = projectionMatrix * modelViewMatrix * vec4(center, 1.0);
  // box: offset (x, y) of the quad's centre from the anchor and its size, in CSS pixels, y up.
  vec2 pixels = (box.xy + position.xy * box.zw) * pixelRatio;
  clip.xy += pixels * 2.0 / viewport * clip.w;
  gl_Position = clip;
  vUv = vec2(rect.x + uv.x * rect.z, rect.y + (1.0 - uv.y) * rect.w);
  vTint = tint;
}
`

const fragmentShader = /* glsl */ `
uniform sampler2D atlas;
uniform float cutoff;
varying vec2 vUv;
varying vec4 vTint;
void main() {
  vec4 texel = texture2D(atlas, vUv) * vTint;
  if (texel.a < cutoff) discard;
  gl_FragColor = texel;
}
`

/**
 * Screen-aligned quads of a fixed pixel size anchored at scene points, each showing one rect of
 * one atlas: every marker, ring or label of a kind is one quad of one mesh, so thousands cost
 * one draw call. The CPU fills the buffer each frame with only what is drawn (clusters and
 * decluttered labels decide that), so it holds at most what fits on the screen. Drawn over the
 * model (no depth test): a marker behind a wall stays findable.
 *
 * The quads are plain triangles (each corner carries its quad's numbers), not instances of one
 * quad: SwiftShader, the software GPU of CI and of machines without a GPU, runs an instanced
 * draw as one draw per instance, each with its own set-up, so hundreds of instanced labels cost
 * as much as hundreds of draw calls there (issue 16, P9). Four corners cost four times the
 * floats, a few hundred kilobytes a frame at most.
 *
 * `isDepthTested` quads (the far 3D POIs' stand-ins) are hidden by what stands in front of them
 * and hide what is behind, like the models they stand in for; their edges are cut, not blended.
 */
export class ScreenQuadBatch {
  readonly mesh: Mesh<BufferGeometry, ShaderMaterial>
  private data = new Float32Array(0)
  private buffer: InterleavedBuffer | null = null
  private count = 0

  constructor(atlas: Texture, name: string, renderOrder: number, isDepthTested = false) {
    const geometry = new BufferGeometry()
    const material = new ShaderMaterial({
      uniforms: {
        atlas: { value: atlas },
        viewport: { value: new Vector2(1, 1) },
        pixelRatio: { value: 1 },
        // blended quads drop only what is all but invisible; depth-tested ones have no blending
        cutoff: { value: isDepthTested ? 0.5 : 0.02 },
      },
      vertexShader,
      fragmentShader,
      transparent: !isDepthTested,
      depthTest: isDepthTested,
      depthWrite: isDepthTested,
    })
    this.mesh = new Mesh(geometry, material)
    this.mesh.name = name
    this.mesh.frustumCulled = false
    this.mesh.renderOrder = renderOrder
    this.ensureCapacity(256)
    geometry.setDrawRange(0, 0)
  }

  /** Starts a new frame's list of quads. */
  begin(): void {
    this.count = 0
  }

  /**
   * Adds a quad: anchored at a scene point, offset and sized in CSS pixels (y up), showing
   * `picture` (its atlas rect) multiplied by a tint. When the picture has a `trim`, only that
   * part of the box is drawn: the same pixels where the picture shows, and none of its
   * transparent margin (a software GPU pays for every pixel a quad covers, shown or not).
   */
  push(
    x: number,
    y: number,
    z: number,
    picture: QuadPicture,
    offsetX: number,
    offsetY: number,
    width: number,
    height: number,
    tint: readonly number[],
  ): void {
    this.ensureCapacity(this.count + 1)
    const data = this.data
    const at = this.count * CORNERS * FLOATS
    const rect = picture.rect
    const trim = picture.trim ?? WHOLE
    // A pixel at the trim's edge keeps all of its samples (antialiasing): a pixel more each side.
    const padX = picture.trim && width > 0 ? 1 / width : 0
    const padY = picture.trim && height > 0 ? 1 / height : 0
    const left = Math.max(0, trim[0]! - padX)
    const top = Math.max(0, trim[1]! - padY)
    const right = Math.min(1, trim[2]! + padX)
    const bottom = Math.min(1, trim[3]! + padY)
    data[at] = x
    data[at + 1] = y
    data[at + 2] = z
    data[at + 3] = rect[0]! + left * rect[2]!
    data[at + 4] = rect[1]! + top * rect[3]!
    data[at + 5] = (right - left) * rect[2]!
    data[at + 6] = (bottom - top) * rect[3]!
    // the kept part's centre is off the whole box's centre by as much as in the picture
    data[at + 7] = offsetX + width * ((left + right) / 2 - 0.5)
    data[at + 8] = offsetY + height * (0.5 - (top + bottom) / 2)
    data[at + 9] = width * (right - left)
    data[at + 10] = height * (bottom - top)
    data[at + 11] = tint[0]!
    data[at + 12] = tint[1]!
    data[at + 13] = tint[2]!
    data[at + 14] = tint[3]!
    for (let corner = 1; corner < CORNERS; corner++)
      data.copyWithin(at + corner * FLOATS, at, at + FLOATS)
    this.count++
  }

  /** Uploads the frame's quads (only the used part of the buffer). */
  end(viewportPixels: Vector2, pixelRatio: number): void {
    const geometry = this.mesh.geometry
    geometry.setDrawRange(0, this.count * INDICES)
    this.mesh.visible = this.count > 0
    const uniforms = this.mesh.material.uniforms
    ;(uniforms.viewport!.value as Vector2).copy(viewportPixels)
    uniforms.pixelRatio!.value = pixelRatio
    const buffer = this.buffer!
    buffer.clearUpdateRanges()
    buffer.addUpdateRange(0, this.count * CORNERS * FLOATS)
    buffer.needsUpdate = true
  }

  /** Quads drawn this frame. */
  get size(): number {
    return this.count
  }

  /** Frees the GPU buffers (the atlas belongs to its owner). */
  dispose(): void {
    this.mesh.removeFromParent()
    this.mesh.geometry.dispose()
    this.mesh.material.dispose()
  }

  private ensureCapacity(count: number): void {
    const quadFloats = CORNERS * FLOATS
    if (count * quadFloats <= this.data.length) return
    const capacity = Math.max(count, (this.data.length / quadFloats) * 2, 256)
    const data = new Float32Array(capacity * quadFloats)
    data.set(this.data)
    this.data = data
    // A bigger buffer is a new GL buffer: new attributes, and the old GL buffers are freed.
    const geometry = this.mesh.geometry
    geometry.dispose()
    const buffer = new InterleavedBuffer(data, FLOATS)
    buffer.setUsage(DynamicDrawUsage)
    this.buffer = buffer
    // The corners' own numbers: where in the quad (−0.5…0.5) and which texture corner.
    const corners = new Float32Array(capacity * CORNERS * 3)
    const uvs = new Float32Array(capacity * CORNERS * 2)
    const indices = new Uint32Array(capacity * INDICES)
    for (let quad = 0; quad < capacity; quad++) {
      for (let corner = 0; corner < CORNERS; corner++) {
        const vertex = quad * CORNERS + corner
        corners[vertex * 3] = CORNER_XY[corner * 2]!
        corners[vertex * 3 + 1] = CORNER_XY[corner * 2 + 1]!
        uvs[vertex * 2] = CORNER_UV[corner * 2]!
        uvs[vertex * 2 + 1] = CORNER_UV[corner * 2 + 1]!
      }
      for (let index = 0; index < INDICES; index++)
        indices[quad * INDICES + index] = quad * CORNERS + CORNER_INDICES[index]!
    }
    geometry.setAttribute('position', new BufferAttribute(corners, 3))
    geometry.setAttribute('uv', new BufferAttribute(uvs, 2))
    geometry.setIndex(new BufferAttribute(indices, 1))
    geometry.setAttribute('center', new InterleavedBufferAttribute(buffer, 3, 0))
    geometry.setAttribute('rect', new InterleavedBufferAttribute(buffer, 4, 3))
    geometry.setAttribute('box', new InterleavedBufferAttribute(buffer, 4, 7))
    geometry.setAttribute('tint', new InterleavedBufferAttribute(buffer, 4, 11))
  }
}
