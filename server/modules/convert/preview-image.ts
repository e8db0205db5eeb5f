import type { Document, Node } from '@gltf-transform/core'
import { encodePng } from './png'

/** The side of a preview image, in pixels (the model library draws it at 40–64 CSS px). */
export const previewSidePixels = 128

/** Drawn at twice the size and averaged down: cheap antialiasing of the silhouette. */
const supersampling = 2

/** Where the camera looks from (towards the model's centre): front-right, above. */
const viewDirection = normalize([0.62, 0.48, 0.78])
/** Where the light comes from: above and to the left of the camera. */
const lightDirection = normalize([-0.25, 0.9, 0.55])

/** glTF primitive mode of a triangle list; the normalized document has only these. */
const trianglesMode = 4

type Vector3 = [number, number, number]

/** One triangle primitive, already in world space, with its flat colour (sRGB 0–255). */
interface WorldPrimitive {
  positions: Float32Array
  indices: ArrayLike<number>
  color: Vector3
}

/**
 * A small PNG preview of a model (the model library's thumbnail, SPEC §2 "Library items show a
 * preview"), drawn in Node with no GPU: every triangle of the default scene projected
 * orthographically from above front-right, depth-tested, flat-shaded by its face normal in its
 * material's base colour, on a transparent background. Textures are not sampled (decoding JPEG
 * and WebP here would need native code); the shape and colours are what tells models apart at
 * thumbnail size. Null when the scene has no triangles.
 *
 * Runs in the conversion thread on the normalized document (metres, +Y up, plain triangle
 * lists), so it costs one pass over the vertices and a 256² raster: milliseconds per model.
 */
export function renderPreviewPng(document: Document): Uint8Array | null {
  const primitives = worldPrimitivesOf(document)
  if (primitives.length === 0) return null
  const right = normalize(cross([0, 1, 0], viewDirection))
  const up = cross(viewDirection, right)

  let minX = Infinity
  let maxX = -Infinity
  let minY = Infinity
  let maxY = -Infinity
  for (const { positions } of primitives) {
    for (let offset = 0; offset < positions.length; offset += 3) {
      const point: Vector3 = [positions[offset]!, positions[offset + 1]!, positions[offset + 2]!]
      const x = dot(point, right)
      const y = dot(point, up)
      minX = Math.min(minX, x)
      maxX = Math.max(maxX, x)
      minY = Math.min(minY, y)
      maxY = Math.max(maxY, y)
    }
  }
  if (!Number.isFinite(minX) || !Number.isFinite(minY)) return null

  const side = previewSidePixels * supersampling
  const margin = side * 0.06
  const extent = Math.max(maxX - minX, maxY - minY)
  const scale = extent > 0 ? (side - 2 * margin) / extent : 1
  const centreX = (minX + maxX) / 2
  const centreY = (minY + maxY) / 2
  const color = new Uint8ClampedArray(side * side * 4)
  const depth = new Float32Array(side * side).fill(-Infinity)

  const screen = new Float32Array(9)
  for (const primitive of primitives) {
    const { positions, indices } = primitive
    for (let index = 0; index + 2 < indices.length; index += 3) {
      const corners: Vector3[] = []
      for (let corner = 0; corner < 3; corner++) {
        const vertex = indices[index + corner]! * 3
        const point: Vector3 = [positions[vertex]!, positions[vertex + 1]!, positions[vertex + 2]!]
        corners.push(point)
        screen[corner * 3] = side / 2 + (dot(point, right) - centreX) * scale
        // image rows run downwards
        screen[corner * 3 + 1] = side / 2 - (dot(point, up) - centreY) * scale
        screen[corner * 3 + 2] = dot(point, viewDirection)
      }
      const normal = cross(subtract(corners[1]!, corners[0]!), subtract(corners[2]!, corners[0]!))
      const length = Math.hypot(normal[0], normal[1], normal[2])
      // double-sided: many models are open shells or have flipped faces
      const lambert = length > 0 ? Math.abs(dot(normal, lightDirection)) / length : 0.5
      const shade = 0.35 + 0.65 * lambert
      fillTriangle(screen, side, depth, color, [
        primitive.color[0] * shade,
        primitive.color[1] * shade,
        primitive.color[2] * shade,
      ])
    }
  }
  return encodePng(downsample(color, side, supersampling), previewSidePixels, previewSidePixels)
}

/** Depth-tested fill of one screen-space triangle (x, y, depth per corner; larger depth is nearer). */
function fillTriangle(
  screen: Float32Array,
  side: number,
  depth: Float32Array,
  color: Uint8ClampedArray,
  rgb: Vector3,
): void {
  const [x0, y0, z0, x1, y1, z1, x2, y2, z2] = screen as unknown as number[]
  const area = (x1! - x0!) * (y2! - y0!) - (x2! - x0!) * (y1! - y0!)
  if (area === 0 || !Number.isFinite(area)) return
  const left = Math.max(0, Math.floor(Math.min(x0!, x1!, x2!)))
  const right = Math.min(side - 1, Math.ceil(Math.max(x0!, x1!, x2!)))
  const top = Math.max(0, Math.floor(Math.min(y0!, y1!, y2!)))
  const bottom = Math.min(side - 1, Math.ceil(Math.max(y0!, y1!, y2!)))
  for (let row = top; row <= bottom; row++) {
    const y = row + 0.5
    for (let column = left; column <= right; column++) {
      const x = column + 0.5
      // barycentric weights; all of one sign (the area's) inside the triangle
      const weight0 = ((x1! - x) * (y2! - y) - (x2! - x) * (y1! - y)) / area
      const weight1 = ((x2! - x) * (y0! - y) - (x0! - x) * (y2! - y)) / area
      const weight2 = 1 - weight0 - weight1
      if (weight0 < 0 || weight1 < 0 || weight2 < 0) continue
      const z = weight0 * z0! + weight1 * z1! + weight2 * z2!
      const pixel = row * side + column
      if (z <= depth[pixel]!) continue
      depth[pixel] = z
      color[pixel * 4] = rgb[0]
      color[pixel * 4 + 1] = rgb[1]
      color[pixel * 4 + 2] = rgb[2]
      color[pixel * 4 + 3] = 255
    }
  }
}

/** Averages `factor`² pixels into one, weighting colour by coverage (premultiplied alpha). */
function downsample(pixels: Uint8ClampedArray, side: number, factor: number): Uint8Array {
  const outSide = side / factor
  const output = new Uint8Array(outSide * outSide * 4)
  for (let row = 0; row < outSide; row++) {
    for (let column = 0; column < outSide; column++) {
      let red = 0
      let green = 0
      let blue = 0
      let alpha = 0
      for (let dy = 0; dy < factor; dy++) {
        for (let dx = 0; dx < factor; dx++) {
          const source = ((row * factor + dy) * side + column * factor + dx) * 4
          const coverage = pixels[source + 3]!
          red += pixels[source]! * coverage
          green += pixels[source + 1]! * coverage
          blue += pixels[source + 2]! * coverage
          alpha += coverage
        }
      }
      const target = (row * outSide + column) * 4
      if (alpha === 0) continue
      output[target] = Math.round(red / alpha)
      output[target + 1] = Math.round(green / alpha)
      output[target + 2] = Math.round(blue / alpha)
      output[target + 3] = Math.round(alpha / (factor * factor))
    }
  }
  return output
}

/** Every triangle primitive of the default scene, its positions moved to world space. */
function worldPrimitivesOf(document: Document): WorldPrimitive[] {
  const root = document.getRoot()
  const scene = root.getDefaultScene() ?? root.listScenes()[0]
  if (!scene) return []
  const primitives: WorldPrimitive[] = []
  const visit = (node: Node) => {
    const mesh = node.getMesh()
    if (mesh) {
      const matrix = node.getWorldMatrix()
      for (const primitive of mesh.listPrimitives()) {
        const position = primitive.getAttribute('POSITION')
        if (primitive.getMode() !== trianglesMode || !position) continue
        const count = position.getCount()
        const positions = new Float32Array(count * 3)
        const element: number[] = [0, 0, 0]
        for (let vertex = 0; vertex < count; vertex++) {
          position.getElement(vertex, element)
          const [x, y, z] = element as Vector3
          positions[vertex * 3] = matrix[0] * x + matrix[4] * y + matrix[8] * z + matrix[12]
          positions[vertex * 3 + 1] = matrix[1] * x + matrix[5] * y + matrix[9] * z + matrix[13]
          positions[vertex * 3 + 2] = matrix[2] * x + matrix[6] * y + matrix[10] * z + matrix[14]
        }
        const indices = primitive.getIndices()?.getArray() ?? sequence(count)
        const material = primitive.getMaterial()
        const factor = material?.getBaseColorFactor() ?? [1, 1, 1, 1]
        // a texture's colours are not sampled: a textured surface is drawn a little darker than
        // its factor, so a white-factor textured model does not vanish on a light list
        const tint = material?.getBaseColorTexture() ? 0.8 : 1
        // base colour factors are linear; the PNG is sRGB
        const color = [0, 1, 2].map((channel) =>
          Math.round(255 * tint * Math.min(1, Math.max(0, factor[channel]!)) ** (1 / 2.2)),
        ) as Vector3
        primitives.push({ positions, indices, color })
      }
    }
    for (const child of node.listChildren()) visit(child)
  }
  for (const node of scene.listChildren()) visit(node)
  return primitives
}

function sequence(count: number): Uint32Array {
  const indices = new Uint32Array(count)
  for (let index = 0; index < count; index++) indices[index] = index
  return indices
}

function dot(a: Vector3 | readonly number[], b: Vector3 | readonly number[]): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!
}

function cross(a: readonly number[], b: readonly number[]): Vector3 {
  return [
    a[1]! * b[2]! - a[2]! * b[1]!,
    a[2]! * b[0]! - a[0]! * b[2]!,
    a[0]! * b[1]! - a[1]! * b[0]!,
  ]
}

function subtract(a: Vector3, b: Vector3): Vector3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

function normalize(vector: readonly number[]): Vector3 {
  const length = Math.hypot(vector[0]!, vector[1]!, vector[2]!)
  return [vector[0]! / length, vector[1]! / length, vector[2]! / length]
}
