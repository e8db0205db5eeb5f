import type { ArrivingBytes } from './arriving-bytes'
import { BVH_CHUNK_TYPE, parseBvhChunk, type StoredBvhEntry } from './bvh-chunk'
import { checkAccessors } from './check-accessors'
import {
  GLB_CHUNK_BIN,
  GLB_CHUNK_HEADER_BYTES,
  GLB_CHUNK_JSON,
  GLB_HEADER_BYTES,
  GLB_MAGIC,
  type GlbContainer,
  parseGlb,
} from './glb'
import { SbmError } from './sbm-error'
import { readSbmHeader, type SbmHeader } from './sbm-header'

/** An SBM file split and validated, with geometry still encoded. */
export interface SbmFile {
  header: SbmHeader
  /** The glTF JSON. */
  json: Record<string, unknown>
  /** The GLB BIN chunk (buffer 0), or null for a file without binary data. */
  bin: Uint8Array | null
  /** Stored BVHs, one per mesh primitive that has one; empty when the file has no BVH chunk. */
  bvhEntries: StoredBvhEntry[]
}

/**
 * Validates an SBM file's container and marker without decoding geometry: GLB 2.0 structure and
 * lengths (see {@link parseGlb}), the `asset.extras.sbm` marker, a self-contained buffer list
 * (no external or data URIs, buffer 0 inside the BIN chunk), every buffer view, accessor and
 * image against the bytes behind it (see {@link checkAccessors}) and the BVH chunk's table.
 * Throws {@link SbmError} for anything else.
 */
export function readSbm(input: Uint8Array | ArrayBuffer): SbmFile {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input)
  const container: GlbContainer = parseGlb(bytes)
  const header = readSbmHeader(container.json)
  checkBuffers(container)
  checkAccessors(container.json)
  const bvhChunks = container.extraChunks.filter((chunk) => chunk.type === BVH_CHUNK_TYPE)
  if (bvhChunks.length > 1) throw new SbmError('more than one BVH chunk')
  const bvhEntries = bvhChunks[0] ? parseBvhChunk(bvhChunks[0].data) : []
  return { header, json: container.json, bin: container.bin, bvhEntries }
}

/** What the start of an arriving SBM file gives: enough to plan and decode its BIN views. */
export type SbmPrefix = Omit<SbmFile, 'bvhEntries'> & { bin: Uint8Array }

/**
 * Reads the start of an SBM file that is still arriving (GLB header, JSON chunk, BIN chunk
 * header) with the checks {@link readSbm} makes of them, so its BIN views can be decoded as
 * their bytes come in; `bin` is a view of where the BIN chunk's bytes will be. Null when the
 * start is not that of a well-formed SBM with a BIN chunk right after its JSON: the caller then
 * waits for the whole file and lets {@link readSbm} refuse it with its usual reason. Anything
 * decoded early must still pass {@link readSbm} of the whole file before it is used.
 */
export async function readArrivingSbmPrefix(arriving: ArrivingBytes): Promise<SbmPrefix | null> {
  const { bytes } = arriving
  const headersEnd = GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES
  if (bytes.byteLength < headersEnd) return null
  await arriving.whenReceived(headersEnd)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== GLB_MAGIC || view.getUint32(4, true) !== 2) return null
  if (view.getUint32(8, true) !== bytes.byteLength) return null
  const jsonLength = view.getUint32(GLB_HEADER_BYTES, true)
  if (view.getUint32(GLB_HEADER_BYTES + 4, true) !== GLB_CHUNK_JSON || jsonLength % 4 !== 0) {
    return null
  }
  const jsonEnd = headersEnd + jsonLength
  if (jsonEnd + GLB_CHUNK_HEADER_BYTES > bytes.byteLength) return null
  await arriving.whenReceived(jsonEnd + GLB_CHUNK_HEADER_BYTES)
  const binLength = view.getUint32(jsonEnd, true)
  const binStart = jsonEnd + GLB_CHUNK_HEADER_BYTES
  if (view.getUint32(jsonEnd + 4, true) !== GLB_CHUNK_BIN || binLength % 4 !== 0) return null
  if (binLength > bytes.byteLength - binStart) return null
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      bytes.subarray(headersEnd, jsonEnd),
    )
    const json: unknown = JSON.parse(text)
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return null
    const container: GlbContainer = {
      version: 2,
      json: json as Record<string, unknown>,
      bin: bytes.subarray(binStart, binStart + binLength),
      extraChunks: [],
    }
    const header = readSbmHeader(container.json)
    checkBuffers(container)
    checkAccessors(container.json)
    return { header, json: container.json, bin: container.bin! }
  } catch {
    // The whole file's reading reports it, in the order it checks things.
    return null
  }
}

function checkBuffers(container: GlbContainer): void {
  const buffers = container.json.buffers
  if (buffers === undefined) return
  if (!Array.isArray(buffers)) throw new SbmError('glTF buffers is not an array')
  buffers.forEach((buffer, index) => {
    if (typeof buffer !== 'object' || buffer === null) {
      throw new SbmError(`glTF buffer ${index} is not an object`)
    }
    const { uri, byteLength } = buffer as { uri?: unknown; byteLength?: unknown }
    if (uri !== undefined) throw new SbmError(`buffer ${index} refers to outside data (${uri})`)
    if (typeof byteLength !== 'number' || !Number.isInteger(byteLength) || byteLength < 0) {
      throw new SbmError(`buffer ${index} has no valid byteLength`)
    }
    if (isMeshoptFallback(buffer)) return
    // In a GLB only buffer 0 can live in the BIN chunk; any other buffer would have no bytes.
    if (index > 0) throw new SbmError(`buffer ${index} has no data in a GLB`)
    if (byteLength > (container.bin?.byteLength ?? 0)) {
      throw new SbmError(`buffer 0 declares ${byteLength} bytes, the BIN chunk is shorter`)
    }
  })
}

/** EXT_meshopt_compression's placeholder buffer: declared, never read, so it has no bytes. */
function isMeshoptFallback(buffer: object): boolean {
  const extensions = (buffer as { extensions?: Record<string, { fallback?: unknown }> }).extensions
  return extensions?.EXT_meshopt_compression?.fallback === true
}
