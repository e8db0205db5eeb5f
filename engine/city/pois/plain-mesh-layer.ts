import { color, type DefaultProps, type LayerProps, phongMaterial, project32 } from '@deck.gl/core'
import {
  PlainTriangleLayer,
  shapesDefaultProp,
  vertexArrays,
  writeColor,
  writeSplit,
} from '../draw/plain-triangle-layers'
import type { PoiMesh } from './poi-mesh'

/** One copy of a mesh: where it stands and how it is turned, as deck's SimpleMeshLayer takes it. */
export interface PlainMeshCopy {
  position: readonly number[]
  /** [pitch, yaw, roll] in degrees (deck's `getOrientation`). */
  orientation: readonly [number, number, number]
}

/**
 * Vertices the copies of one mesh may have together (about 27 MB of vertex data): more, and the
 * copies are drawn instanced (`fitsPlainMeshLayer`).
 */
const copiedVerticesAtMost = 1 << 19

/** Whether `copies` copies of `mesh` are few enough to be drawn by a {@link PlainMeshLayer}. */
export function fitsPlainMeshLayer(mesh: PoiMesh, copies: number): boolean {
  return (mesh.attributes.positions.value.length / 3) * copies <= copiedVerticesAtMost
}

const meshVertexShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-mesh-layer-vertex-shader
in vec3 anchors;
in vec3 anchors64Low;
// the vertex from its copy's anchor, metres, turned as the copy is
in vec3 offsets;
in vec3 normals;
in vec4 colors;
out vec3 cameraPosition;
out vec3 normals_commonspace;
out vec4 position_commonspace;
out vec4 vColor;

void main(void) {
  geometry.worldPosition = anchors;
  cameraPosition = project.cameraPosition;
  vColor = colors;
  // As deck's SimpleMeshLayer places an instance (without composeModelMatrix).
  vec3 offset = project_size(offsets);
  DECKGL_FILTER_SIZE(offset, geometry);
  gl_Position = project_position_to_clipspace(anchors, anchors64Low, offset, position_commonspace);
  geometry.position = position_commonspace;
  normals_commonspace = project_normal(normals);
  geometry.normal = normals_commonspace;
  DECKGL_FILTER_GL_POSITION(gl_Position, geometry);
  DECKGL_FILTER_COLOR(vColor, geometry);
}
`

const meshFragmentShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-mesh-layer-fragment-shader
precision highp float;
in vec3 cameraPosition;
in vec3 normals_commonspace;
in vec4 position_commonspace;
in vec4 vColor;
out vec4 fragColor;

void main(void) {
  vec4 color = vColor;
  DECKGL_FILTER_COLOR(color, geometry);
  vec3 lightColor = lighting_getLightColor(color.rgb, cameraPosition, position_commonspace.xyz, normals_commonspace);
  fragColor = vec4(lightColor, color.a * layer.opacity);
}
`

/** Props of {@link PlainMeshLayer}. */
export interface PlainMeshLayerProps extends LayerProps {
  mesh: PoiMesh | null
  copies: readonly PlainMeshCopy[]
  /** RGBA 0–255 every copy's colours are multiplied by (alpha fades a ghost). */
  tint: readonly number[]
  /** deck's lighting material (the LightingEffect reads it), as SimpleMeshLayer's default. */
  material: boolean
}

const meshDefaultProps: DefaultProps<PlainMeshLayerProps> = {
  mesh: { type: 'object', value: null, compare: false },
  ...shapesDefaultProp('copies'),
  tint: { type: 'array', value: [255, 255, 255, 255], compare: false },
  material: true,
}

const radiansPerDegree = Math.PI / 180

/** deck's orientation matrix (column-major 3 × 3) of [pitch, yaw, roll] in degrees. */
function orientationMatrix([pitchDegrees, yawDegrees, rollDegrees]: readonly number[]) {
  const pitch = (pitchDegrees ?? 0) * radiansPerDegree
  const yaw = (yawDegrees ?? 0) * radiansPerDegree
  const roll = (rollDegrees ?? 0) * radiansPerDegree
  const [sr, sp, sw] = [Math.sin(roll), Math.sin(pitch), Math.sin(yaw)]
  const [cr, cp, cw] = [Math.cos(roll), Math.cos(pitch), Math.cos(yaw)]
  return [
    cw * cp,
    sw * cp,
    -sp,
    -sw * cr + cw * sp * sr,
    cw * cr + sw * sp * sr,
    cp * sr,
    sw * sr + cw * sp * cr,
    -cw * sr + sw * sp * cr,
    cp * cr,
  ]
}

/** Writes `matrix` × `vector` (three floats from `source[from]`) at `target[to]`. */
function writeTurned(
  target: Float32Array,
  to: number,
  matrix: readonly number[],
  source: Float32Array,
  from: number,
) {
  const x = source[from]!
  const y = source[from + 1]!
  const z = source[from + 2]!
  target[to] = matrix[0]! * x + matrix[3]! * y + matrix[6]! * z
  target[to + 1] = matrix[1]! * x + matrix[4]! * y + matrix[7]! * z
  target[to + 2] = matrix[2]! * x + matrix[5]! * y + matrix[8]! * z
}

/**
 * Copies of one 3D POI model as one plain triangle list, each copy's vertices turned and placed
 * on the CPU when the copies change: deck's SimpleMeshLayer draws an instance per POI, which
 * SwiftShader runs as a draw each (see `PlainTriangleLayer`). Lit as SimpleMeshLayer lights
 * its meshes (deck's lighting, the mesh's normals), so a POI looks the same either way.
 */
export class PlainMeshLayer extends PlainTriangleLayer<PlainMeshLayerProps> {
  static override layerName = 'PlainMeshLayer'
  static override defaultProps = meshDefaultProps

  protected readonly shaders = { vs: meshVertexShader, fs: meshFragmentShader }
  protected readonly shapesProp = 'copies'

  protected override shaderModules(): unknown[] {
    return [project32, color, phongMaterial]
  }

  protected vertexAttributes() {
    const { mesh, copies, tint } = this.props
    const positions = mesh?.attributes.positions.value ?? new Float32Array()
    const normals = mesh?.attributes.normals.value ?? new Float32Array()
    const meshColors = mesh?.attributes.colors.value ?? new Float32Array()
    const meshIndices = mesh?.indices.value ?? new Uint32Array()
    const meshVertices = positions.length / 3
    const vertexCount = meshVertices * copies.length
    const { values, attributes } = vertexArrays(vertexCount, {
      anchors: 'position',
      offsets: 'float32x3',
      normals: 'float32x3',
      colors: 'unorm8x4',
    })
    const { anchors, offsets, colors } = values
    const indices = new Uint32Array(meshIndices.length * copies.length)
    const rgba = [0, 0, 0, tint[3] ?? 255]
    let vertex = 0
    copies.forEach((copy, copyIndex) => {
      const matrix = orientationMatrix(copy.orientation)
      for (let index = 0; index < meshIndices.length; index++) {
        indices[copyIndex * meshIndices.length + index] = meshIndices[index]! + vertex
      }
      for (let meshVertex = 0; meshVertex < meshVertices; meshVertex++) {
        writeSplit(anchors, values.anchors64Low, vertex * 3, copy.position)
        writeTurned(offsets, vertex * 3, matrix, positions, meshVertex * 3)
        writeTurned(values.normals, vertex * 3, matrix, normals, meshVertex * 3)
        for (let channel = 0; channel < 3; channel++) {
          rgba[channel] = Math.round(
            (meshColors[meshVertex * 3 + channel] ?? 1) * (tint[channel] ?? 255),
          )
        }
        writeColor(colors, vertex * 4, rgba)
        vertex++
      }
    })
    return {
      vertexCount,
      indices,
      attributes,
    }
  }
}
