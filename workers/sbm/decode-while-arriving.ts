import type { ArrivingBytes } from './arriving-bytes'
import {
  BVH_CHUNK_HEADER_BYTES,
  BVH_CHUNK_TYPE,
  BVH_ENTRY_BYTES,
  BVH_ROOT_RECORD_BYTES,
  decodeBvhRoots,
  parseBvhChunk,
  type StoredBvhEntry,
  type VertexCodecDecoder,
} from './bvh-chunk'
import { GLB_CHUNK_HEADER_BYTES } from './glb'
import type { AccessorDestination, GltfBufferReader } from './gltf-buffers'
import type { LapTimer } from './load-timings'
import { SbmDownloadError } from './sbm-error'

/** BVH roots decoded (and validated) while the file arrived, found again by their entry. */
export interface EarlyBvhRoots {
  /** The roots of `entry` when they were decoded early from the very same bytes, else undefined. */
  rootsOf(entry: StoredBvhEntry): ArrayBuffer[] | undefined
}

/**
 * Decodes what can be decoded of an arriving SBM before its last byte: each compressed BIN view
 * in place as soon as its bytes are in (`streamedViews`), then each stored BVH entry of the BVH
 * chunk that follows (`streamedBvhs`); the waits are booked as `waitForBytes`. Best effort: a
 * view or tree that does not decode is left to the reads after the whole file's checks, which
 * refuse it as they would have anyway; only a failed download rejects (SbmDownloadError).
 */
export async function decodeWhileArriving(
  arriving: ArrivingBytes,
  bin: Uint8Array,
  reader: GltfBufferReader,
  {
    decoder,
    timer,
    onPlaced,
    decodeBvhs = true,
  }: {
    decoder: VertexCodecDecoder
    timer: LapTimer
    /** False when the BVHs are decoded elsewhere (DecodeSbmOptions.withoutBvhs). */
    decodeBvhs?: boolean
    /** Told which destinations a view's early decode made final (`streamedCopies`). */
    onPlaced: (placed: AccessorDestination[]) => void
  },
): Promise<EarlyBvhRoots> {
  const binStart = bin.byteOffset - arriving.bytes.byteOffset
  const early = new Map<string, { dataOffsets: number[]; roots: ArrayBuffer[] }>()
  try {
    for (const { viewIndex, binEndByte } of reader.compressedViewsByEnd()) {
      await arriving.whenReceived(binStart + binEndByte)
      timer.lap('waitForBytes')
      const placed = reader.prepareView(viewIndex)
      timer.lap('streamedViews')
      onPlaced(placed)
      timer.lap('streamedCopies')
      // A body read by this thread is read only between its tasks (ArrivingBytes.readsHere).
      await arriving.betweenSteps()
      timer.lap('waitForBytes')
    }
    const chunk = decodeBvhs ? await arrivingBvhChunk(arriving, binStart + bin.byteLength) : null
    for (const entry of chunk ? parseBvhChunk(chunk) : []) {
      const last = entry.roots.at(-1)
      if (!last) continue
      await arriving.whenReceived(
        last.data.byteOffset - arriving.bytes.byteOffset + last.data.byteLength,
      )
      timer.lap('waitForBytes')
      early.set(key(entry), {
        dataOffsets: entry.roots.map((root) => root.data.byteOffset),
        roots: decodeBvhRoots(entry, decoder),
      })
      timer.lap('streamedBvhs')
      await arriving.betweenSteps()
      timer.lap('waitForBytes')
    }
  } catch (error) {
    if (error instanceof SbmDownloadError) throw error
    // Refused later, by the same checks on the whole file.
  }
  return {
    rootsOf(entry) {
      const found = early.get(key(entry))
      const isSameBytes =
        found?.dataOffsets.length === entry.roots.length &&
        entry.roots.every((root, index) => root.data.byteOffset === found.dataOffsets[index])
      return isSameBytes ? found.roots : undefined
    },
  }
}

function key(entry: StoredBvhEntry): string {
  return `${entry.meshIndex}/${entry.primitiveIndex}/${entry.triangleCount}/${entry.encoding}`
}

/**
 * The BVH chunk right after the BIN chunk, once its table (entries and root records) has
 * arrived; null when the next chunk is not a BVH chunk or its lengths do not fit (the whole
 * file's reading refuses or ignores it then).
 */
async function arrivingBvhChunk(
  arriving: ArrivingBytes,
  headerAt: number,
): Promise<Uint8Array | null> {
  const { bytes } = arriving
  const dataStart = headerAt + GLB_CHUNK_HEADER_BYTES
  if (dataStart + BVH_CHUNK_HEADER_BYTES > bytes.byteLength) return null
  await arriving.whenReceived(dataStart + BVH_CHUNK_HEADER_BYTES)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const length = view.getUint32(headerAt, true)
  if (view.getUint32(headerAt + 4, true) !== BVH_CHUNK_TYPE) return null
  if (length > bytes.byteLength - dataStart) return null
  const entryCount = view.getUint32(dataStart + 4, true)
  const entriesEnd = BVH_CHUNK_HEADER_BYTES + entryCount * BVH_ENTRY_BYTES
  if (entriesEnd > length) return null
  await arriving.whenReceived(dataStart + entriesEnd)
  let rootCount = 0
  for (let entry = 0; entry < entryCount; entry++) {
    rootCount += view.getUint32(
      dataStart + BVH_CHUNK_HEADER_BYTES + entry * BVH_ENTRY_BYTES + 12,
      true,
    )
  }
  const tableEnd = entriesEnd + rootCount * BVH_ROOT_RECORD_BYTES
  if (tableEnd > length) return null
  await arriving.whenReceived(dataStart + tableEnd)
  return bytes.subarray(dataStart, dataStart + length)
}
