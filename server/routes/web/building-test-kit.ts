import { readFile } from 'node:fs/promises'
import { inflateSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import type { FloorUploadDatum } from '../../../contract/building'
import { parseGlb, writeGlb } from '../../../workers/sbm/glb'
import { postMultipart } from './project-test-kit'

/**
 * Model files for the building route tests: the committed SBM fixtures, real glTF/DAE/FBX from
 * the shared test data, and hostile variants made from them. Test-only.
 */

const sharedData = new URL('../../../../shared/data/', import.meta.url)
const sbmFixtures = new URL('../../../workers/sbm/fixtures/', import.meta.url)

/** Reads a file of ../shared/data. */
export async function sharedFile(path: string): Promise<Buffer> {
  return readFile(new URL(path, sharedData))
}

/** The two SBM fixtures: a two-storey floor model (floors F1 at 0 m, F2 at 3 m) and the Duck. */
export async function sbmFixtureFiles() {
  return {
    twoStoreys: await readFile(new URL('two-storeys.sbm', sbmFixtures)),
    duck: await readFile(new URL('duck.sbm', sbmFixtures)),
  }
}

/**
 * Uploads SBM fixtures into a building project under the given file names (one model each, in
 * order) and answers the models' ids; fails the test when the upload is refused.
 */
export async function uploadFixtureModels(
  app: FastifyInstance,
  token: string,
  projectId: string,
  files: ReadonlyArray<{ fixture: 'duck' | 'twoStoreys'; fileName: string }>,
): Promise<string[]> {
  const fixtures = await sbmFixtureFiles()
  const uploaded = await postMultipart<FloorUploadDatum>(app, '/web/upload/uploadZip', token, [
    { name: 'project_id', value: projectId },
    ...files.map((file) => ({
      name: 'file',
      value: fixtures[file.fixture],
      fileName: file.fileName,
    })),
  ])
  if (uploaded.envelope.code !== '0') {
    throw new Error(`uploading the fixtures failed: ${uploaded.envelope.message}`)
  }
  return uploaded.envelope.datum.models.map((model) => model.id)
}

/** The same SBM with another role (and floors) in its marker, e.g. to make a shell. */
export function withSbmMarker(
  sbm: Uint8Array,
  marker: {
    role: 'shell' | 'floor' | 'model'
    floors?: Array<{ id: string; name: string; elevation: number }>
  },
): Buffer {
  const glb = parseGlb(sbm)
  const json = structuredClone(glb.json) as { asset: { extras: { sbm: Record<string, unknown> } } }
  json.asset.extras.sbm.role = marker.role
  if (marker.floors) json.asset.extras.sbm.floors = marker.floors
  else delete json.asset.extras.sbm.floors
  return Buffer.from(writeGlb({ json, bin: glb.bin, extraChunks: glb.extraChunks }))
}

/** A GLB whose JSON chunk claims to be far longer than the file. */
export function withLyingChunkLength(glb: Uint8Array): Buffer {
  const bytes = Buffer.from(glb)
  bytes.writeUInt32LE(0x7fff_fff0, 12)
  return bytes
}

/** Marks the central-directory record of `name` as a Unix symbolic link. */
export function markAsSymlink(zip: Uint8Array, name: string): Buffer {
  const bytes = Buffer.from(zip)
  const encodedName = Buffer.from(name)
  for (let offset = 0; offset + 46 < bytes.length; offset++) {
    if (bytes.readUInt32LE(offset) !== 0x02014b50) continue
    const nameLength = bytes.readUInt16LE(offset + 28)
    if (!bytes.subarray(offset + 46, offset + 46 + nameLength).equals(encodedName)) continue
    bytes.writeUInt16LE((3 << 8) | 20, offset + 4)
    bytes.writeUInt32LE((0o120777 << 16) >>> 0, offset + 38)
    return bytes
  }
  throw new Error(`${name} is not in the archive`)
}

/** The same GLB/SBM with a note in `asset.extras`, so its bytes (and hash) are its own. */
export function uniqueCopy(glbBytes: Uint8Array, note: string): Buffer {
  const glb = parseGlb(glbBytes)
  const json = structuredClone(glb.json) as { asset: { extras?: Record<string, unknown> } }
  json.asset.extras = { ...json.asset.extras, testNote: note }
  return Buffer.from(writeGlb({ json, bin: glb.bin, extraChunks: glb.extraChunks }))
}

/** The same GLB declaring a required extension no converter knows. */
export function withRequiredExtension(glbBytes: Uint8Array, extension: string): Buffer {
  const glb = parseGlb(glbBytes)
  const json = structuredClone(glb.json)
  json.extensionsUsed = [...((json.extensionsUsed as string[] | undefined) ?? []), extension]
  json.extensionsRequired = [
    ...((json.extensionsRequired as string[] | undefined) ?? []),
    extension,
  ]
  return Buffer.from(writeGlb({ json, bin: glb.bin, extraChunks: glb.extraChunks }))
}

/**
 * The same SBM whose first index accessor declares `count` elements (far more than its view
 * holds), with the BVH chunk dropped so only the accessor check can catch it.
 */
export function withLyingAccessorCount(sbm: Uint8Array, count = 2_000_000_000): Buffer {
  const glb = parseGlb(sbm)
  const json = structuredClone(glb.json) as {
    meshes: Array<{ primitives: Array<{ indices?: number }> }>
    accessors: Array<{ count: number }>
  }
  const indices = json.meshes[0]!.primitives[0]!.indices!
  json.accessors[indices]!.count = count
  return Buffer.from(writeGlb({ json, bin: glb.bin, extraChunks: [] }))
}

/**
 * A GLB or SBM with `image` appended to its BIN chunk as image 0 (what a hostile exporter could
 * embed), everything else unchanged. Used with the bombs of server/testing/image-bombs.ts.
 */
export function withEmbeddedImage(glbBytes: Uint8Array, image: Uint8Array, mimeType: string) {
  const glb = parseGlb(glbBytes)
  const json = structuredClone(glb.json) as {
    images?: Array<Record<string, unknown>>
    bufferViews?: Array<Record<string, unknown>>
    buffers: Array<{ byteLength: number }>
  }
  const bin = glb.bin ?? new Uint8Array(0)
  const start = Math.ceil(bin.byteLength / 4) * 4
  const merged = new Uint8Array(start + image.byteLength)
  merged.set(bin)
  merged.set(image, start)
  json.bufferViews = [
    ...(json.bufferViews ?? []),
    { buffer: 0, byteOffset: start, byteLength: image.byteLength },
  ]
  json.images = [
    { bufferView: json.bufferViews.length - 1, mimeType },
    ...(json.images ?? []).slice(1),
  ]
  json.buffers[0]!.byteLength = merged.byteLength
  return Buffer.from(writeGlb({ json, bin: merged, extraChunks: glb.extraChunks }))
}

/** The Duck as one GLB made from its .gltf, .bin and texture (the texture embedded). */
export async function duckGlb(): Promise<Buffer> {
  const json = JSON.parse((await sharedFile('gltf/Duck/Duck.gltf')).toString('utf8'))
  const bin = await sharedFile('gltf/Duck/Duck0.bin')
  delete json.buffers[0].uri
  const texture = await sharedFile('gltf/Duck/DuckCM.png')
  json.images = [{ uri: 'placeholder' }]
  const glb = writeGlb({ json, bin, extraChunks: [] })
  return withEmbeddedImage(glb, texture, 'image/png')
}

/**
 * The pixels of a PNG written by this product's encoder (server/modules/convert/png.ts: RGBA,
 * one IDAT, every row "Up"-filtered), e.g. a model thumbnail, to count what it draws.
 */
export function ownPngPixels(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  const idatLength = view.getUint32(33)
  const filtered = inflateSync(png.subarray(41, 41 + idatLength))
  const rowBytes = width * 4
  const rgba = new Uint8Array(rowBytes * height)
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < rowBytes; column++) {
      const above = row === 0 ? 0 : rgba[(row - 1) * rowBytes + column]!
      rgba[row * rowBytes + column] = (filtered[row * (rowBytes + 1) + 1 + column]! + above) & 0xff
    }
  }
  return { width, height, rgba }
}
