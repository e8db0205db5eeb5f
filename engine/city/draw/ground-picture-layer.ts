import type { DefaultProps, LayerContext, LayerProps, UpdateParameters } from '@deck.gl/core'
import type { Texture } from '@luma.gl/core'
import {
  type GroundPicture,
  lngLatOfWorld,
  worldOf,
} from '../../../workers/ground-picture/ground-picture-paint'
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
 * A picture of the ground (see ground-picture.ts) drawn as quads on the ground over its drawn
 * parts, where it lies in Web Mercator: the map's own projection, so the quads' straight
 * interpolation is exact.
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

  /**
   * One quad per drawn part of the picture (its `drawnSpans`), not one over all of it: on a
   * software GPU each pixel a quad covers costs as much as a pixel of the map's background, and
   * the ground between drawings is clear.
   */
  protected vertexAttributes() {
    const { picture } = this.props
    const spans = picture?.drawnSpans ?? new Uint32Array(0)
    const quads = quadVertexArrays(spans.length / 4, {
      positions: 'position',
      textureCoords: 'float32x2',
    })
    if (!picture) return quads
    const { width, height } = picture
    const [west, south, east, north] = picture.bounds
    // Texel rows are even steps of Web Mercator y (the picture's projection), not of latitude.
    const northY = worldOf([west, north])[1]
    const southY = worldOf([west, south])[1]
    const { values } = quads
    let vertex = 0
    for (let span = 0; span < spans.length; span += 4) {
      for (const [across, side] of quadCorners) {
        // (0|1, -1|1): the span's west|east, south|north; texel rows count from the north.
        const u = spans[span + (across ? 2 : 0)]! / width
        const v = spans[span + (side > 0 ? 1 : 3)]! / height
        const [, latitude] = lngLatOfWorld([0, northY + (southY - northY) * v])
        writeSplit(values.positions, values.positions64Low, vertex * 3, [
          west + (east - west) * u,
          latitude,
          0,
        ])
        values.textureCoords[vertex * 2] = u
        values.textureCoords[vertex * 2 + 1] = v
        vertex++
      }
    }
    return quads
  }
}
