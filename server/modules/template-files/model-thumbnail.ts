import type { DecodedSbm } from '../../../workers/sbm/decoded-sbm'
import { encodePng } from '../convert/png'

/** Edge of a template preview thumbnail in pixels (square, transparent background). */
export const thumbnailEdgePixels = 256

/**
 * Renders a decoded model into a small PNG preview: every triangle of every placed mesh, flat
 * shaded with its material's base colour (textures are not sampled: the silhouette and the
 * shading are what make a list preview recognisable), seen from above at the front-right like a
 * product shot, with an orthographic camera fitted to the model's bounds. A z-buffer software
 * rasteriser: no GPU on the server, and a few hundred thousand triangles take well under a
 * second. Pure and synchronous: it runs in a job thread, never on the request thread.
 */
export function renderModelThumbnail(
  model: DecodedSbm,
  edgePixels: number = thumbnailEdgePixels,
): Uint8Array {
  const size = edgePixels
  // camera: azimuth 35° around +Y, looking 25° down
  const azimuth = (35 * Math.PI) / 180
  const elevation = (25 * Math.PI) / 180
  const cosA = Math.cos(azimuth)
  const sinA = Math.sin(azimuth)
  const cosE = Math.cos(elevation)
  const sinE = Math.sin(elevation)
  // view basis: right, up, toward-camera (glTF is +Y up, metres)
  const right = [cosA, 0, -sinA]
  const forward = [sinA * cosE, sinE, cosA * cosE]
  const up = [-sinA * sinE, cosE, -cosA * sinE]

  const world = worldTriangles(model)
  const count = world.positions.length / 9
  const rgba = new Uint8Array(size * size * 4)
  if (count === 0) return encodePng(rgba, size, size, 'rgba')

  // project to view space and find the bounds there (fits the silhouette, not the world box)
  const view = new Float32Array(world.positions.length)
  let minX = Infinity
  let maxX = -Infinity
  let minY = Infinity
  let maxY = -Infinity
  for (let index = 0; index < world.positions.length; index += 3) {
    const x = world.positions[index]!
    const y = world.positions[index + 1]!
    const z = world.positions[index + 2]!
    const vx = x * right[0]! + y * right[1]! + z * right[2]!
    const vy = x * up[0]! + y * up[1]! + z * up[2]!
    const vz = x * forward[0]! + y * forward[1]! + z * forward[2]!
    view[index] = vx
    view[index + 1] = vy
    view[index + 2] = vz
    if (vx < minX) minX = vx
    if (vx > maxX) maxX = vx
    if (vy < minY) minY = vy
    if (vy > maxY) maxY = vy
  }
  const margin = size * 0.06
  const extent = Math.max(maxX - minX, maxY - minY, 1e-9)
  const scale = (size - 2 * margin) / extent
  const offsetX = (size - (maxX - minX) * scale) / 2
  const offsetY = (size - (maxY - minY) * scale) / 2
  const depth = new Float32Array(size * size).fill(-Infinity)
  // light from the upper left of the camera, plus ambient, so faces read apart
  const light = normalize([-0.4, 0.8, 0.6])

  for (let triangle = 0; triangle < count; triangle++) {
    const base = triangle * 9
    const sx = [0, 0, 0]
    const sy = [0, 0, 0]
    const sz = [0, 0, 0]
    for (let corner = 0; corner < 3; corner++) {
      const at = base + corner * 3
      sx[corner] = offsetX + (view[at]! - minX) * scale
      // image rows grow downwards
      sy[corner] = size - (offsetY + (view[at + 1]! - minY) * scale)
      sz[corner] = view[at + 2]!
    }
    // face normal in view space; both sides are shaded (many models are single-sided shells)
    const ax = view[base + 3]! - view[base]!
    const ay = view[base + 4]! - view[base + 1]!
    const az = view[base + 5]! - view[base + 2]!
    const bx = view[base + 6]! - view[base]!
    const by = view[base + 7]! - view[base + 1]!
    const bz = view[base + 8]! - view[base + 2]!
    const normal = normalize([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx])
    if (normal[2]! < 0) {
      normal[0] = -normal[0]!
      normal[1] = -normal[1]!
      normal[2] = -normal[2]!
    }
    const lambert = Math.max(
      0,
      normal[0]! * light[0]! + normal[1]! * light[1]! + normal[2]! * light[2]!,
    )
    const shade = 0.35 + 0.65 * lambert
    const colour = world.colours[triangle]!
    const red = Math.round(Math.min(1, colour[0] * shade) * 255)
    const green = Math.round(Math.min(1, colour[1] * shade) * 255)
    const blue = Math.round(Math.min(1, colour[2] * shade) * 255)
    fillTriangle(sx, sy, sz, size, depth, (pixel) => {
      rgba[pixel * 4] = red
      rgba[pixel * 4 + 1] = green
      rgba[pixel * 4 + 2] = blue
      rgba[pixel * 4 + 3] = 255
    })
  }
  return encodePng(rgba, size, size, 'rgba')
}

/** Every triangle in world space (9 numbers each) with its material's colour. */
function worldTriangles(model: DecodedSbm): {
  positions: Float32Array
  colours: Array<[number, number, number]>
} {
  let total = 0
  for (const instance of model.instances) {
    for (const primitiveId of model.meshes[instance.meshIndex]?.primitiveIds ?? []) {
      total += Math.floor((model.primitives[primitiveId]?.indexCount ?? 0) / 3)
    }
  }
  const positions = new Float32Array(total * 9)
  const colours: Array<[number, number, number]> = []
  let cursor = 0
  for (const instance of model.instances) {
    const m = instance.matrixWorld
    for (const primitiveId of model.meshes[instance.meshIndex]?.primitiveIds ?? []) {
      const primitive = model.primitives[primitiveId]
      if (!primitive) continue
      const material =
        primitive.materialIndex === null ? undefined : model.materials[primitive.materialIndex]
      const colour = colourOf(material)
      const triangleCount = Math.floor(primitive.indexCount / 3)
      for (let index = 0; index < triangleCount * 3; index++) {
        const vertex = primitive.vertexOffset + model.indices[primitive.indexOffset + index]!
        const x = model.positions[vertex * 3]!
        const y = model.positions[vertex * 3 + 1]!
        const z = model.positions[vertex * 3 + 2]!
        // column-major 4×4, as three.js Matrix4.elements
        positions[cursor++] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!
        positions[cursor++] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!
        positions[cursor++] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!
      }
      for (let triangle = 0; triangle < triangleCount; triangle++) colours.push(colour)
    }
  }
  return { positions, colours }
}

/**
 * A material's colour for the preview: its base colour factor; a textured material with a white
 * factor (the usual case) gets a neutral warm grey rather than paper white, so it shows against
 * a white list background.
 */
function colourOf(material: DecodedSbm['materials'][number] | undefined): [number, number, number] {
  if (!material) return [0.75, 0.75, 0.75]
  const [red, green, blue] = material.baseColorFactor
  const isWhite = red > 0.95 && green > 0.95 && blue > 0.95
  if (material.baseColorTexture && isWhite) return [0.82, 0.78, 0.7]
  return [red, green, blue]
}

function normalize(vector: number[]): number[] {
  const length = Math.hypot(vector[0]!, vector[1]!, vector[2]!) || 1
  return [vector[0]! / length, vector[1]! / length, vector[2]! / length]
}

/** Scan-converts one screen triangle with a depth test (larger z is nearer the camera). */
function fillTriangle(
  xs: number[],
  ys: number[],
  zs: number[],
  size: number,
  depth: Float32Array,
  plot: (pixel: number) => void,
): void {
  const x0 = xs[0]!
  const y0 = ys[0]!
  const x1 = xs[1]!
  const y1 = ys[1]!
  const x2 = xs[2]!
  const y2 = ys[2]!
  const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
  if (!Number.isFinite(area) || Math.abs(area) < 1e-12) return
  const minX = Math.max(0, Math.floor(Math.min(x0, x1, x2)))
  const maxX = Math.min(size - 1, Math.ceil(Math.max(x0, x1, x2)))
  const minY = Math.max(0, Math.floor(Math.min(y0, y1, y2)))
  const maxY = Math.min(size - 1, Math.ceil(Math.max(y0, y1, y2)))
  for (let py = minY; py <= maxY; py++) {
    const cy = py + 0.5
    for (let px = minX; px <= maxX; px++) {
      const cx = px + 0.5
      const w0 = ((x1 - cx) * (y2 - cy) - (x2 - cx) * (y1 - cy)) / area
      const w1 = ((x2 - cx) * (y0 - cy) - (x0 - cx) * (y2 - cy)) / area
      const w2 = 1 - w0 - w1
      if (w0 < 0 || w1 < 0 || w2 < 0) continue
      const z = w0 * zs[0]! + w1 * zs[1]! + w2 * zs[2]!
      const pixel = py * size + px
      if (z <= depth[pixel]!) continue
      depth[pixel] = z
      plot(pixel)
    }
  }
}
