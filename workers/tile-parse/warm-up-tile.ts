import { padTo4, writeGlb } from '../sbm/glb'

/**
 * A tiny textured b3dm (one triangle, a 1×1 PNG) the parse worker reads once when it starts.
 * The first tile a fresh worker parses costs several times the next ones — loaders.gl's code
 * compiles and its image decoding starts up on first use — and the first tile of a tileset is
 * the one the user waits for. Parsing this while the tileset.json is still on its way takes
 * that cost off the first real tile.
 */

const pngMimeType = 'image/png'

/**
 * A 1×1 transparent PNG (grey + alpha, CRCs valid). Made with OffscreenCanvas instead it cost
 * 0.3 s in a fresh worker: more than the warm-up saves.
 */
const onePixelPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

function onePixelPng(): Uint8Array {
  return Uint8Array.from(atob(onePixelPngBase64), (character) => character.charCodeAt(0))
}

/** JSON text padded with spaces to a multiple of 4 bytes, as the b3dm feature table needs. */
function paddedJson(value: unknown): Uint8Array {
  const text = JSON.stringify(value)
  return new TextEncoder().encode(text.padEnd(padTo4(text.length), ' '))
}

function glbOf(png: Uint8Array): Uint8Array {
  // positions (3 × vec3), texture coordinates (3 × vec2), then the image.
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0])
  const texCoords = new Float32Array([0, 0, 1, 0, 0, 1])
  const imageOffset = positions.byteLength + texCoords.byteLength
  const binaryLength = padTo4(imageOffset + png.byteLength)
  const binary = new Uint8Array(binaryLength)
  binary.set(new Uint8Array(positions.buffer), 0)
  binary.set(new Uint8Array(texCoords.buffer), positions.byteLength)
  binary.set(png, imageOffset)
  const json = {
    asset: { version: '2.0' },
    buffers: [{ byteLength: binaryLength }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: positions.byteLength },
      { buffer: 0, byteOffset: positions.byteLength, byteLength: texCoords.byteLength },
      { buffer: 0, byteOffset: imageOffset, byteLength: png.byteLength },
    ],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: 3,
        type: 'VEC3',
        min: [0, 0, 0],
        max: [1, 1, 0],
      },
      { bufferView: 1, componentType: 5126, count: 3, type: 'VEC2' },
    ],
    images: [{ bufferView: 2, mimeType: pngMimeType }],
    textures: [{ source: 0 }],
    materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
    meshes: [
      {
        primitives: [{ attributes: { POSITION: 0, TEXCOORD_0: 1 }, material: 0 }],
      },
    ],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    scene: 0,
  }
  return writeGlb({ json, bin: binary })
}

/** The warm-up tile: a b3dm (as photogrammetry tilesets mostly are) around the glTF. */
export function warmUpTile(): ArrayBuffer {
  const glb = glbOf(onePixelPng())
  const featureTable = paddedJson({ BATCH_LENGTH: 0 })
  const headerLength = 28
  const tile = new Uint8Array(headerLength + featureTable.byteLength + glb.byteLength)
  const view = new DataView(tile.buffer)
  tile.set(new TextEncoder().encode('b3dm'), 0)
  view.setUint32(4, 1, true)
  view.setUint32(8, tile.byteLength, true)
  view.setUint32(12, featureTable.byteLength, true)
  // Feature-table binary, batch-table JSON and binary lengths stay 0.
  tile.set(featureTable, headerLength)
  tile.set(glb, headerLength + featureTable.byteLength)
  return tile.buffer
}
