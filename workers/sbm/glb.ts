import { SbmError } from './sbm-error'

/** 'glTF' read as a little-endian uint32: the first four bytes of every GLB. */
export const GLB_MAGIC = 0x46546c67
/** Chunk type of the JSON chunk ('JSON'). */
export const GLB_CHUNK_JSON = 0x4e4f534a
/** Chunk type of the binary buffer chunk ('BIN\0'). */
export const GLB_CHUNK_BIN = 0x004e4942
/** Size of the file header: magic, version, total length. */
export const GLB_HEADER_BYTES = 12
/** Size of each chunk header: length, type. */
export const GLB_CHUNK_HEADER_BYTES = 8

/** One chunk of a GLB file; `data` is a view into the file's bytes, not a copy. */
export interface GlbChunk {
  type: number
  data: Uint8Array
}

/** A GLB file split into its parts. */
export interface GlbContainer {
  version: number
  /** The parsed JSON chunk. */
  json: Record<string, unknown>
  /** The BIN chunk, if there is one. */
  bin: Uint8Array | null
  /** Every chunk after JSON and BIN, in file order (for SBM: the BVH chunk). */
  extraChunks: GlbChunk[]
}

/** Reads a chunk type such as 'BVH\0' as the little-endian uint32 a GLB stores. */
export function chunkTypeFromText(text: string): number {
  if (text.length !== 4) throw new Error(`A chunk type has four characters, got '${text}'`)
  let type = 0
  for (let index = 3; index >= 0; index--) type = (type << 8) | (text.charCodeAt(index) & 0xff)
  return type >>> 0
}

/** Shows a chunk type as text, for error messages. */
export function chunkTypeToText(type: number): string {
  let text = ''
  for (let index = 0; index < 4; index++) {
    const code = (type >>> (index * 8)) & 0xff
    text += code >= 32 && code < 127 ? String.fromCharCode(code) : `\\x${code.toString(16)}`
  }
  return text
}

/** Reads only the GLB header, to tell a glTF 1.0 binary from a 2.0 one without parsing it. */
export function peekGlbVersion(bytes: Uint8Array): number | null {
  if (bytes.byteLength < GLB_HEADER_BYTES) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, GLB_HEADER_BYTES)
  if (view.getUint32(0, true) !== GLB_MAGIC) return null
  return view.getUint32(4, true)
}

/**
 * Splits a GLB 2.0 file into its chunks and checks everything a hostile or damaged file could
 * lie about: magic, version, the declared total length against the real one, every chunk length
 * against the bytes that are left, 4-byte chunk alignment, a JSON chunk first, at most one BIN
 * chunk right after it, and JSON that parses to an object. Throws {@link SbmError} otherwise.
 */
export function parseGlb(bytes: Uint8Array): GlbContainer {
  if (bytes.byteLength === 0) throw new SbmError('the file is empty')
  if (bytes.byteLength < GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES) {
    throw new SbmError(`the file is ${bytes.byteLength} bytes, too short for a GLB header`)
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== GLB_MAGIC) throw new SbmError('no glTF binary magic')
  const version = view.getUint32(4, true)
  if (version !== 2) throw new SbmError(`GLB version ${version}, SBM needs version 2`)
  const declaredLength = view.getUint32(8, true)
  if (declaredLength !== bytes.byteLength) {
    throw new SbmError(
      `the header declares ${declaredLength} bytes but the file has ${bytes.byteLength}`,
    )
  }

  const chunks: GlbChunk[] = []
  let offset = GLB_HEADER_BYTES
  while (offset < declaredLength) {
    if (declaredLength - offset < GLB_CHUNK_HEADER_BYTES) {
      throw new SbmError(`a truncated chunk header at byte ${offset}`)
    }
    const chunkLength = view.getUint32(offset, true)
    const type = view.getUint32(offset + 4, true)
    const dataStart = offset + GLB_CHUNK_HEADER_BYTES
    if (chunkLength > declaredLength - dataStart) {
      throw new SbmError(
        `chunk '${chunkTypeToText(type)}' at byte ${offset} declares ${chunkLength} bytes, only ${declaredLength - dataStart} remain`,
      )
    }
    if (chunkLength % 4 !== 0) {
      throw new SbmError(`chunk '${chunkTypeToText(type)}' is ${chunkLength} bytes, not 4-aligned`)
    }
    chunks.push({ type, data: bytes.subarray(dataStart, dataStart + chunkLength) })
    offset = dataStart + chunkLength
  }

  const [jsonChunk, ...rest] = chunks
  if (!jsonChunk || jsonChunk.type !== GLB_CHUNK_JSON) {
    throw new SbmError('the first chunk is not JSON')
  }
  let bin: Uint8Array | null = null
  let extraChunks = rest
  if (rest[0]?.type === GLB_CHUNK_BIN) {
    bin = rest[0].data
    extraChunks = rest.slice(1)
  }
  for (const chunk of extraChunks) {
    if (chunk.type === GLB_CHUNK_JSON || chunk.type === GLB_CHUNK_BIN) {
      throw new SbmError(`a second '${chunkTypeToText(chunk.type)}' chunk`)
    }
  }

  let json: unknown
  try {
    // fatal: a JSON chunk that is not UTF-8 is damaged, not something to guess at.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(jsonChunk.data)
    json = JSON.parse(text)
  } catch (error) {
    throw new SbmError(`the JSON chunk does not parse: ${(error as Error).message}`)
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new SbmError('the JSON chunk is not an object')
  }
  return { version, json: json as Record<string, unknown>, bin, extraChunks }
}

/** What {@link writeGlb} assembles. */
export interface GlbParts {
  json: unknown
  bin?: Uint8Array | null
  extraChunks?: GlbChunk[]
}

/**
 * Assembles a GLB 2.0 file: JSON padded with spaces, BIN and extra chunks padded with zeros, as
 * the glTF spec requires, so every chunk (and every typed view into it) starts 4-byte aligned.
 */
export function writeGlb(parts: GlbParts): Uint8Array<ArrayBuffer> {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(parts.json))
  const chunks: { type: number; data: Uint8Array; padByte: number }[] = [
    { type: GLB_CHUNK_JSON, data: jsonBytes, padByte: 0x20 },
  ]
  if (parts.bin) chunks.push({ type: GLB_CHUNK_BIN, data: parts.bin, padByte: 0 })
  for (const chunk of parts.extraChunks ?? []) chunks.push({ ...chunk, padByte: 0 })

  let totalLength = GLB_HEADER_BYTES
  for (const chunk of chunks) totalLength += GLB_CHUNK_HEADER_BYTES + padTo4(chunk.data.byteLength)
  const output = new Uint8Array(totalLength)
  const view = new DataView(output.buffer)
  view.setUint32(0, GLB_MAGIC, true)
  view.setUint32(4, 2, true)
  view.setUint32(8, totalLength, true)
  let offset = GLB_HEADER_BYTES
  for (const chunk of chunks) {
    const paddedLength = padTo4(chunk.data.byteLength)
    view.setUint32(offset, paddedLength, true)
    view.setUint32(offset + 4, chunk.type, true)
    output.set(chunk.data, offset + GLB_CHUNK_HEADER_BYTES)
    output.fill(
      chunk.padByte,
      offset + GLB_CHUNK_HEADER_BYTES + chunk.data.byteLength,
      offset + GLB_CHUNK_HEADER_BYTES + paddedLength,
    )
    offset += GLB_CHUNK_HEADER_BYTES + paddedLength
  }
  return output
}

/** Rounds a byte count up to the next multiple of four. */
export function padTo4(byteLength: number): number {
  // Arithmetic rather than a bit mask: a mask would wrap above 2 GiB.
  return Math.ceil(byteLength / 4) * 4
}
