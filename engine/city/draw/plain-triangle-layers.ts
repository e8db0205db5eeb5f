import {
  color,
  type DefaultProps,
  Layer,
  type LayerContext,
  type LayerProps,
  project32,
  type UpdateParameters,
} from '@deck.gl/core'
import { Buffer, type Texture } from '@luma.gl/core'
import { Model } from '@luma.gl/engine'
import type { PlainDot, PlainLine } from '../../../workers/ground-picture/ground-picture-paint'

/** The shapes' types live with the ground picture's painting, which draws them the same. */
export type { PlainDot, PlainLine }

/**
 * Lines and dots of a fixed pixel size drawn as plain triangles, every corner carrying its
 * shape's numbers, for the drawings of the city (areas' outlines, paths, nodes).
 *
 * deck's PathLayer and ScatterplotLayer draw one instance per segment or dot. SwiftShader, the
 * software GPU of CI and of machines without a GPU, runs an instanced draw as one draw per
 * instance, each with its own set-up: 1,000 areas and 1,000 paths (≈ 25,000 instances) made
 * every frame take 1.4 s there (issue 18, bench/draw-city-frames). As plain triangles they are
 * one draw each. Six corners cost six times the floats of an instance, a few megabytes for
 * tens of thousands of segments, made once when the shapes change.
 *
 * What is the same over a segment or a dot (colours, a ring's width) is a flat varying: a software
 * GPU sets up and interpolates every other varying for each triangle and pixel, and these small
 * triangles are many.
 *
 * Positions keep deck's 64-bit precision: each coordinate is split into a 32-bit float and
 * what it drops (`*64Low`), as deck's own attributes are. Not pickable: the drawings are
 * chosen in the area list, and edited through terra-draw.
 */

/** The four corners of one quad, (along or x, side or y) each; two triangles join them. */
export const quadCorners = [
  [0, -1],
  [1, -1],
  [1, 1],
  [0, 1],
] as const
const quadTriangles = [0, 1, 2, 0, 2, 3] as const

/** Indices of `quadCount` quads of four vertices each, two triangles per quad. */
function quadIndices(quadCount: number): Uint32Array {
  const indices = new Uint32Array(quadCount * quadTriangles.length)
  for (let quad = 0; quad < quadCount; quad++) {
    for (let corner = 0; corner < quadTriangles.length; corner++) {
      indices[quad * quadTriangles.length + corner] = quad * 4 + quadTriangles[corner]!
    }
  }
  return indices
}

/** A vertex attribute: its name, its luma format and its values. */
export interface VertexAttribute {
  name: string
  format: AttributeFormat
  values: Float32Array | Uint8Array
}

type AttributeFormat = 'float32' | 'float32x2' | 'float32x3' | 'unorm8x4'

/**
 * How a layer stores a vertex attribute: a luma format, or `position`, a coordinate kept at
 * deck's 64-bit precision in two float32x3 attributes, `name` and `name64Low` (see writeSplit).
 */
export type AttributeKind = AttributeFormat | 'position'

const valuesPerVertex: Record<AttributeFormat, number> = {
  float32: 1,
  float32x2: 2,
  float32x3: 3,
  unorm8x4: 4,
}

/** The arrays of the attributes `Kinds` names, a `position` giving two. */
export type VertexValues<Kinds extends Record<string, AttributeKind>> = {
  [Name in keyof Kinds & string as Kinds[Name] extends 'position'
    ? Name | `${Name}64Low`
    : Name]: Kinds[Name] extends 'unorm8x4' ? Uint8Array : Float32Array
}

/**
 * The arrays of `vertexCount` vertices of the attributes `kinds` names, for a layer to fill
 * (`values`), and the same arrays as the attributes its shaders read (`attributes`): every plain
 * triangle layer declares its attributes once, here, instead of allocating and listing each.
 */
export function vertexArrays<const Kinds extends Record<string, AttributeKind>>(
  vertexCount: number,
  kinds: Kinds,
): { values: VertexValues<Kinds>; attributes: VertexAttribute[] } {
  const attributes: VertexAttribute[] = []
  const add = (name: string, format: AttributeFormat) => {
    const length = vertexCount * valuesPerVertex[format]
    const values = format === 'unorm8x4' ? new Uint8Array(length) : new Float32Array(length)
    attributes.push({ name, format, values })
  }
  for (const [name, kind] of Object.entries(kinds)) {
    if (kind === 'position') {
      add(name, 'float32x3')
      add(`${name}64Low`, 'float32x3')
    } else add(name, kind)
  }
  const values = Object.fromEntries(attributes.map(({ name, values }) => [name, values]))
  return { values: values as VertexValues<Kinds>, attributes }
}

/**
 * {@link vertexArrays} for `quadCount` quads of four vertices (see {@link quadCorners}), with
 * their vertex count and triangles: what `vertexAttributes` answers, once `values` are filled.
 */
export function quadVertexArrays<const Kinds extends Record<string, AttributeKind>>(
  quadCount: number,
  kinds: Kinds,
) {
  const vertexCount = quadCount * quadCorners.length
  return { ...vertexArrays(vertexCount, kinds), vertexCount, indices: quadIndices(quadCount) }
}

/** Writes a position's 32-bit part at `high[offset]` and what that drops at `low[offset]`. */
export function writeSplit(
  high: Float32Array,
  low: Float32Array,
  offset: number,
  position: readonly number[],
) {
  for (let axis = 0; axis < 3; axis++) {
    const value = position[axis] ?? 0
    const rounded = Math.fround(value)
    high[offset + axis] = rounded
    low[offset + axis] = value - rounded
  }
}

export function writeColor(colors: Uint8Array, offset: number, rgba: readonly number[]) {
  colors[offset] = rgba[0] ?? 0
  colors[offset + 1] = rgba[1] ?? 0
  colors[offset + 2] = rgba[2] ?? 0
  colors[offset + 3] = rgba[3] ?? 255
}

/**
 * deck's default of a plain triangle layer's shapes prop `name`: none, and compared by identity
 * only (the layer rebuilds its vertices when it is given another array).
 */
export function shapesDefaultProp<Name extends string>(name: Name) {
  return { [name]: { type: 'array', value: [], compare: false } } as {
    [Key in Name]: { type: 'array'; value: []; compare: false }
  }
}

interface PlainTriangleState {
  [key: string]: unknown
  model?: Model
  buffers: Buffer[]
}

/**
 * A layer whose vertices are built on the CPU from its props (`vertexAttributes`), drawn as one
 * triangle list with its own shaders, rebuilt only when its data changes.
 */
export abstract class PlainTriangleLayer<Props extends LayerProps> extends Layer<Props> {
  static override layerName = 'PlainTriangleLayer'
  declare state: PlainTriangleState

  /** Its vertex and fragment shaders. */
  protected abstract readonly shaders: { vs: string; fs: string }
  /** The prop holding its shapes: the vertices are rebuilt when it is another array. */
  protected abstract readonly shapesProp: keyof Props
  /** The shader modules its shaders use (deck's projection and colour filters by default). */
  protected shaderModules(): unknown[] {
    return [project32, color]
  }
  /** The textures its shaders sample, by name, as they are at this frame (none by default). */
  protected textures(): Record<string, Texture> {
    return {}
  }
  /** The per-vertex attributes of the current data, and how many vertices there are. */
  protected abstract vertexAttributes(): {
    vertexCount: number
    attributes: VertexAttribute[]
    /** The triangles, three vertex indices each. */
    indices: Uint32Array
  }

  override initializeState(): void {
    this.state = { buffers: [] }
  }

  override shouldUpdateState({ changeFlags }: UpdateParameters<this>): boolean {
    return Boolean(changeFlags.propsOrDataChanged)
  }

  override updateState({ props, oldProps }: UpdateParameters<this>): void {
    const isChanged = (props as Props)[this.shapesProp] !== (oldProps as Props)[this.shapesProp]
    if (this.state.model && !isChanged) return
    const { vertexCount, attributes, indices } = this.vertexAttributes()
    const device = this.context.device
    for (const buffer of this.state.buffers) buffer.destroy()
    const buffers = attributes.map((attribute) => device.createBuffer({ data: attribute.values }))
    // Shared corners run the vertex shader once (a quad's two triangles share two corners).
    const indexBuffer = device.createBuffer({
      usage: Buffer.INDEX,
      indexType: 'uint32',
      data: indices,
    })
    const model =
      this.state.model ??
      new Model(device, {
        ...this.getShaders({ ...this.shaders, modules: this.shaderModules() }),
        id: this.props.id,
        topology: 'triangle-list',
        isInstanced: false,
        bufferLayout: attributes.map(({ name, format }) => ({ name, format })),
      })
    model.setAttributes(
      Object.fromEntries(attributes.map((attribute, index) => [attribute.name, buffers[index]!])),
    )
    model.setIndexBuffer(indexBuffer)
    model.setVertexCount(vertexCount)
    model.setIndexCount(indices.length)
    this.setState({ model, buffers: [...buffers, indexBuffer] })
  }

  override finalizeState(context: LayerContext): void {
    for (const buffer of this.state.buffers) buffer.destroy()
    this.state.model?.destroy()
    super.finalizeState(context)
  }

  override draw(): void {
    const { model } = this.state
    if (!model || model.indexCount === 0) return
    const textures = this.textures()
    if (Object.keys(textures).length > 0) model.setBindings(textures)
    model.draw(this.context.renderPass)
  }
}

const lineVertexShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-line-layer-vertex-shader
in vec3 startPositions;
in vec3 startPositions64Low;
in vec3 endPositions;
in vec3 endPositions64Low;
// x: 0 at the segment's start, 1 at its end; y: -1 on its left, 1 on its right
in vec2 corners;
in vec4 colors;
in float widths;
// One colour a segment: flat, not interpolated (see the module comment).
flat out vec4 vColor;

void main(void) {
  geometry.worldPosition = startPositions;
  geometry.worldPositionAlt = endPositions;
  vec3 start = project_position(startPositions, startPositions64Low);
  vec3 end = project_position(endPositions, endPositions64Low);
  // Widened on the ground, as deck's PathLayer does without billboarding: the line keeps the
  // ground's depth, so it is neither hidden by the ground it lies on nor drawn over a building.
  vec2 along = end.xy - start.xy;
  vec2 direction = length(along) > 0.0 ? normalize(along) : vec2(1.0, 0.0);
  vec2 normal = vec2(-direction.y, direction.x);
  float halfWidth = project_pixel_size(widths * 0.5);
  // Square caps: each end reaches half a width past its point, so the segments of a path meet
  // without a notch at their joints.
  vec2 offset = normal * corners.y * halfWidth + direction * (corners.x * 2.0 - 1.0) * halfWidth;
  geometry.position = vec4(mix(start, end, corners.x) + vec3(offset, 0.0), 1.0);
  gl_Position = project_common_position_to_clipspace(geometry.position);
  vColor = vec4(colors.rgb, colors.a * layer.opacity);
  DECKGL_FILTER_COLOR(vColor, geometry);
}
`

const lineFragmentShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-line-layer-fragment-shader
precision highp float;
flat in vec4 vColor;
out vec4 fragColor;

void main(void) {
  fragColor = vColor;
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`

/** Props of {@link PlainLineLayer}. */
export interface PlainLineLayerProps extends LayerProps {
  lines: readonly PlainLine[]
}

/** Polylines of a fixed pixel width as plain triangles; see the module comment. */
export class PlainLineLayer extends PlainTriangleLayer<PlainLineLayerProps> {
  static override layerName = 'PlainLineLayer'
  static override defaultProps: DefaultProps<PlainLineLayerProps> = shapesDefaultProp('lines')
  protected readonly shaders = { vs: lineVertexShader, fs: lineFragmentShader }
  protected readonly shapesProp = 'lines'

  protected vertexAttributes() {
    const { lines } = this.props
    let segmentCount = 0
    for (const line of lines) {
      const points = line.path.length
      if (points >= 2) segmentCount += line.isClosed ? points : points - 1
    }
    const segments = quadVertexArrays(segmentCount, {
      startPositions: 'position',
      endPositions: 'position',
      corners: 'float32x2',
      colors: 'unorm8x4',
      widths: 'float32',
    })
    const { values } = segments
    const { startPositions, endPositions, corners, colors, widths } = values
    let vertex = 0
    for (const line of lines) {
      const { path } = line
      if (path.length < 2) continue
      const segments = line.isClosed ? path.length : path.length - 1
      for (let index = 0; index < segments; index++) {
        const start = path[index]!
        const end = path[(index + 1) % path.length]!
        for (const [along, side] of quadCorners) {
          writeSplit(startPositions, values.startPositions64Low, vertex * 3, start)
          writeSplit(endPositions, values.endPositions64Low, vertex * 3, end)
          corners[vertex * 2] = along
          corners[vertex * 2 + 1] = side
          writeColor(colors, vertex * 4, line.color)
          widths[vertex] = line.widthPixels
          vertex++
        }
      }
    }
    return segments
  }
}

const dotVertexShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-dot-layer-vertex-shader
in vec3 centers;
in vec3 centers64Low;
in vec2 corners;
in vec4 fillColors;
in vec4 lineColors;
in float radii;
in float lineWidths;
// Colours and ring of a dot are the same at its four corners: flat, only the position is
// interpolated (see the module comment).
flat out vec4 vFillColor;
flat out vec4 vLineColor;
out vec2 unitPosition;
flat out float innerUnitRadius;

void main(void) {
  geometry.worldPosition = centers;
  // The ring is centred on the dot's edge, as deck's ScatterplotLayer strokes it; the dot lies
  // on the ground as its dots do, keeping the ground's depth.
  float outerRadius = radii + lineWidths * 0.5;
  unitPosition = corners;
  innerUnitRadius = 1.0 - lineWidths / max(outerRadius, 0.001);
  vec3 center = project_position(centers, centers64Low);
  geometry.position = vec4(center + vec3(corners * project_pixel_size(outerRadius), 0.0), 1.0);
  gl_Position = project_common_position_to_clipspace(geometry.position);
  vFillColor = vec4(fillColors.rgb, fillColors.a * layer.opacity);
  vLineColor = vec4(lineColors.rgb, lineColors.a * layer.opacity);
  DECKGL_FILTER_COLOR(vFillColor, geometry);
}
`

const dotFragmentShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-dot-layer-fragment-shader
precision highp float;
flat in vec4 vFillColor;
flat in vec4 vLineColor;
in vec2 unitPosition;
flat in float innerUnitRadius;
out vec4 fragColor;

void main(void) {
  float distance = length(unitPosition);
  if (distance > 1.0) discard;
  fragColor = distance > innerUnitRadius ? vLineColor : vFillColor;
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`

/** Props of {@link PlainDotLayer}. */
export interface PlainDotLayerProps extends LayerProps {
  dots: readonly PlainDot[]
}

/** Dots of a fixed pixel radius with a ring, as plain triangles; see the module comment. */
export class PlainDotLayer extends PlainTriangleLayer<PlainDotLayerProps> {
  static override layerName = 'PlainDotLayer'
  static override defaultProps: DefaultProps<PlainDotLayerProps> = shapesDefaultProp('dots')
  protected readonly shaders = { vs: dotVertexShader, fs: dotFragmentShader }
  protected readonly shapesProp = 'dots'

  protected vertexAttributes() {
    const { dots } = this.props
    const quads = quadVertexArrays(dots.length, {
      centers: 'position',
      corners: 'float32x2',
      fillColors: 'unorm8x4',
      lineColors: 'unorm8x4',
      radii: 'float32',
      lineWidths: 'float32',
    })
    const { values } = quads
    const { centers, corners, fillColors, lineColors, radii, lineWidths } = values
    let vertex = 0
    for (const dot of dots) {
      for (const [along, side] of quadCorners) {
        writeSplit(centers, values.centers64Low, vertex * 3, dot.position)
        // The quad's corners from (0|1, -1|1) to (-1|1, -1|1).
        corners[vertex * 2] = along * 2 - 1
        corners[vertex * 2 + 1] = side
        writeColor(fillColors, vertex * 4, dot.fillColor)
        writeColor(lineColors, vertex * 4, dot.lineColor)
        radii[vertex] = dot.radiusPixels
        lineWidths[vertex] = dot.lineWidthPixels
        vertex++
      }
    }
    return quads
  }
}
