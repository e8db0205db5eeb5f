/**
 * Extracted files packed into a few large buffers plus an index. Packing keeps the transfer
 * from a worker cheap (a handful of transferables, not one per file), and the 8-byte alignment
 * lets callers view mesh data as Float32Array/Uint32Array in place.
 */
export interface ExtractedArchive {
  packs: ArrayBuffer[]
  /** In archive order. */
  files: ExtractedFile[]
  totalSizeBytes: number
}

/** Where one extracted file's bytes are. */
export interface ExtractedFile {
  name: string
  packIndex: number
  byteOffset: number
  sizeBytes: number
}

/** Every file's byteOffset is a multiple of this. */
export const extractedFileAlignmentBytes = 8

/** A view (not a copy) of one file's bytes. */
export function extractedFileBytes(archive: ExtractedArchive, file: ExtractedFile): Uint8Array {
  const pack = archive.packs[file.packIndex]
  if (!pack) throw new RangeError(`${file.name} points at pack ${file.packIndex}, which is missing`)
  return new Uint8Array(pack, file.byteOffset, file.sizeBytes)
}

/** Finds a file by its entry name and returns a view of its bytes, or undefined. */
export function findExtractedFile(archive: ExtractedArchive, name: string): Uint8Array | undefined {
  const file = archive.files.find((candidate) => candidate.name === name)
  return file ? extractedFileBytes(archive, file) : undefined
}
