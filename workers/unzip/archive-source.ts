/**
 * Random access to an archive's bytes. A `Blob` (a user's `File`) is read in slices, so a big
 * upload is never copied whole into memory or across threads: posting a Blob to a worker
 * passes a handle, not the bytes.
 */
export interface ArchiveSource {
  readonly sizeBytes: number
  /** Reads `[offsetBytes, offsetBytes + lengthBytes)`, clamped to the end of the archive. */
  read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>
}

/** What callers may hand in: a Blob/File, or bytes already in memory. */
export type ArchiveInput = Blob | Uint8Array | ArrayBuffer

/** Wraps any accepted input as an {@link ArchiveSource}. */
export function toArchiveSource(input: ArchiveInput): ArchiveSource {
  if (input instanceof Uint8Array) return bytesSource(input)
  if (input instanceof ArrayBuffer) return bytesSource(new Uint8Array(input))
  return blobSource(input)
}

function bytesSource(bytes: Uint8Array): ArchiveSource {
  return {
    sizeBytes: bytes.byteLength,
    read: async (offsetBytes, lengthBytes) =>
      bytes.subarray(offsetBytes, Math.min(bytes.byteLength, offsetBytes + lengthBytes)),
  }
}

function blobSource(blob: Blob): ArchiveSource {
  return {
    sizeBytes: blob.size,
    read: async (offsetBytes, lengthBytes) =>
      new Uint8Array(
        await blob.slice(offsetBytes, Math.min(blob.size, offsetBytes + lengthBytes)).arrayBuffer(),
      ),
  }
}
