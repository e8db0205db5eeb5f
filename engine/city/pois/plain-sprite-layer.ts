import type { DefaultProps, LayerProps } from '@deck.gl/core'
import type { Texture } from '@luma.gl/core'
import {
  PlainTriangleLayer,
  quadCorners,
  quadVertexArrays,
  shapesDefaultProp,
  writeColor,
  writeSplit,
} from '../draw/plain-triangle-layers'
import type { AtlasSlot, SpriteAtlas } from './sprite-atlas'

/** One picture of an atlas drawn upright on screen at its own size, beside a point. */
export interface PlainSprite {
  position: readonly number[]
  slot: AtlasSlot
  /** The picture's top left corner from the point, CSS pixels, y down. */
  offset: readonly [number, number]
  /** RGBA 0–255 the picture is multiplied by (alpha fades a ghost). */
  color: readonly number[]
}

const spriteVertexShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-sprite-layer-vertex-shader
in vec3 anchors;
in vec3 anchors64Low;
// the corner's offset from the anchor, CSS pixels, y down
in vec2 offsets;
in vec2 textureCoords;
in vec4 colors;
out vec2 vTextureCoords;
out vec4 vColor;

void main(void) {
  geometry.worldPosition = anchors;
  geometry.uv = textureCoords;
  // Upright on screen at its own pixel size, as deck's IconLayer and TextLayer billboard theirs.
  gl_Position = project_position_to_clipspace(anchors, anchors64Low, vec3(0.0), geometry.position);
  DECKGL_FILTER_GL_POSITION(gl_Position, geometry);
  vec3 offset = vec3(offsets.x, -offsets.y, 0.0);
  DECKGL_FILTER_SIZE(offset, geometry);
  gl_Position.xy += project_pixel_size_to_clipspace(offset.xy);
  vTextureCoords = textureCoords;
  vColor = vec4(colors.rgb, colors.a * layer.opacity);
  DECKGL_FILTER_COLOR(vColor, geometry);
}
`

const spriteFragmentShader = /* glsl */ `#version 300 es
#define SHADER_NAME plain-sprite-layer-fragment-shader
precision highp float;
uniform sampler2D atlas;
in vec2 vTextureCoords;
in vec4 vColor;
out vec4 fragColor;

void main(void) {
  vec4 texel = texture(atlas, vTextureCoords);
  // The atlas is not premultiplied: a picture's transparent edge stays out of the depth and
  // of picking, as deck's IconLayer cuts it.
  if (texel.a * vColor.a < 0.05) discard;
  fragColor = vec4(texel.rgb * vColor.rgb, texel.a * vColor.a);
  DECKGL_FILTER_COLOR(fragColor, geometry);
}
`

/** Props of {@link PlainSpriteLayer}. */
export interface PlainSpriteLayerProps extends LayerProps {
  sprites: readonly PlainSprite[]
  atlas: SpriteAtlas | null
}

const spriteDefaultProps: DefaultProps<PlainSpriteLayerProps> = {
  ...shapesDefaultProp('sprites'),
  atlas: { type: 'object', value: null, compare: false },
}

/**
 * Pictures of one atlas (icons, labels, cluster counts) as plain triangles, one draw for all:
 * deck's IconLayer and TextLayer draw an instance per icon or per character, which SwiftShader
 * runs as a draw each (see `PlainTriangleLayer`). Not pickable: POIs are picked on the CPU.
 */
export class PlainSpriteLayer extends PlainTriangleLayer<PlainSpriteLayerProps> {
  static override layerName = 'PlainSpriteLayer'
  static override defaultProps = spriteDefaultProps

  protected readonly shaders = { vs: spriteVertexShader, fs: spriteFragmentShader }
  protected readonly shapesProp = 'sprites'

  protected override textures(): Record<string, Texture> {
    const { atlas } = this.props
    return atlas ? { atlas: atlas.textureOn(this.context.device) } : {}
  }

  protected vertexAttributes() {
    const { sprites } = this.props
    const quads = quadVertexArrays(sprites.length, {
      anchors: 'position',
      offsets: 'float32x2',
      textureCoords: 'float32x2',
      colors: 'unorm8x4',
    })
    const { values } = quads
    const { anchors, offsets, textureCoords, colors } = values
    let vertex = 0
    for (const sprite of sprites) {
      const [u0, v0, u1, v1] = sprite.slot.uv
      for (const [across, down] of quadCorners) {
        // The quad's corners (0|1, -1|1) as the picture's left|right, top|bottom.
        const right = across
        const bottom = (down + 1) / 2
        writeSplit(anchors, values.anchors64Low, vertex * 3, sprite.position)
        offsets[vertex * 2] = sprite.offset[0] + right * sprite.slot.width
        offsets[vertex * 2 + 1] = sprite.offset[1] + bottom * sprite.slot.height
        textureCoords[vertex * 2] = right ? u1 : u0
        textureCoords[vertex * 2 + 1] = bottom ? v1 : v0
        writeColor(colors, vertex * 4, sprite.color)
        vertex++
      }
    }
    return quads
  }
}
