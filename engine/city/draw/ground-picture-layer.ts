import type { DefaultProps, LayerContext, LayerProps, UpdateParameters } from '@deck.gl/core'
import type { Texture } from '@luma.gl/core'
import type { GroundPicture } from '../../../workers/ground-picture/ground-picture-paint'
import { createClampedTexture, writeClampedTexture } from '../clamped-texture'
import {
  PlainTriangleLayer,
  quadCorners,
  quadVertexArrays,
  writeSplit,
} from './plain-triangle-layers'

const pictureVertexShader = /* glsl */ `#version 300 es
#define SHADER_NAME ground-picture-layer-vertex-shader
in vec3 positions;
in vec3 positions64Low;
in vec2 textureCoords;
out vec2 vTextureCoords;

void main(void) {
  geometry.worldPosition = positions;
  geometry.uv = textureCoords;
  geometry.position = vec4(project_position(positions, positions64Low), 1.0);
  gl_Position = project_common_position_to_clipspace(geometry.position);
  vTextureCoords = textureCoords;
}
`

const pictureFragmentShader = /* glsl */ `#version 300 es
#define SHADER_NAME ground-picture-layer-fragment-shader
precision highp float;
uniform sampler2D picture;
in vec2 vTextureCoords;
out vec4 fragColor;

void main(void) {
  // Premultiplied texels: filtered at a drawing's edge they fade, not darken.
  vec4 texel = texture(picture, vTextureCoords);
  if (texel.a < 0.002) discard;
  fragColor = vec4(texel.rgb / texel.a, texel.a * layer.opacity);
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`

/** Props of {@link GroundPictureLayer}. */
export interface GroundPictureLayerProps extends LayerProps {
  /** The picture; a new object is uploaded again. */
  picture: GroundPicture | null
}

const pictureDefaultProps: DefaultProps<GroundPictureLayerProps> = {
  picture: { type: 'object', value: null, compare: false },
}

/**
 * A picture of the ground (see ground-picture.ts) drawn as one quad on the ground, where it lies
 * in Web Mercator: the map's own projection, so the quad's straight interpolation is exact.
 */
export class GroundPictureLayer extends PlainTriangleLayer<GroundPictureLayerProps> {
  static override layerName = 'GroundPictureLayer'
  static override defaultProps = pictureDefaultProps

  protected readonly shaders = { vs: pictureVertexShader, fs: pictureFragmentShader }
  protected readonly shapesProp = 'picture'

  /** The picture's texture: in the state, which deck hands on to the layer's next instance. */
  private get texture(): Texture | null {
    return (this.state.texture as Texture | undefined) ?? null
  }

  private set texture(texture: Texture | null) {
    this.state.texture = texture
  }

  override updateState(parameters: UpdateParameters<this>): void {
    super.updateState(parameters)
    const { picture } = parameters.props as GroundPictureLayerProps
    if (this.texture && picture === (parameters.oldProps as GroundPictureLayerProps).picture) return
    this.texture?.destroy()
    this.texture = null
    if (!picture) return
    // Mipmapped: a tilted or zoomed-out view reads a level as fine as its pixels (see
    // createClampedTexture), which is most of the quad's cost on a software GPU.
    this.texture = createClampedTexture(this.context.device, picture.width, picture.height, {
      mipmaps: true,
    })
    writeClampedTexture(this.texture, picture.pixels)
  }

  override finalizeState(context: LayerContext): void {
    this.texture?.destroy()
    this.texture = null
    super.finalizeState(context)
  }

  protected override textures(): Record<string, Texture> {
    return this.texture ? { picture: this.texture } : {}
  }

  protected vertexAttributes() {
    const { picture } = this.props
    const quad = quadVertexArrays(picture ? 1 : 0, {
      positions: 'position',
      textureCoords: 'float32x2',
    })
    if (!picture) return quad
    const [west, south, east, north] = picture.bounds
    const { values } = quad
    let vertex = 0
    for (const [across, side] of quadCorners) {
      // (0|1, -1|1): west|east, south|north; the picture's first row is its north edge.
      const isNorth = side > 0
      writeSplit(values.positions, values.positions64Low, vertex * 3, [
        across ? east : west,
        isNorth ? north : south,
        0,
      ])
      values.textureCoords[vertex * 2] = across
      values.textureCoords[vertex * 2 + 1] = isNorth ? 0 : 1
      vertex++
    }
    return quad
  }
}
