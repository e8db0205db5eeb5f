import type { FileHandle } from 'node:fs/promises'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createInflateRaw, crc32 as nativeCrc32 } from 'node:zlib'
import type { TilesetStats } from '../../../contract/city'
import type { NamedFiles } from '../../plugins/storage'
import type { ArchiveSource } from '../../../workers/unzip/archive-source'
import type { ArchiveEntry } from '../../../workers/unzip/zip-reader'
import { ZipError } from '../../../workers/unzip/zip-errors'
import { checkEntryResult, entryDataOffset, inflateError, inflateRawAsync } from './file-archive'
import { detectTileFormat, expectedFormatOf, isGzip, peelGzipHead } from './tileset-json'

/** What extraction found. */
export interface ExtractionResult {
  stats: TilesetStats
  /** Files whose first bytes are not the format their extension promises. */
  mismatches: Array<{ path: string; expected: string; found: string }>
}

/**
 * Entries that declare up to this many bytes are read and inflated in one call (fast for the
 * many small tiles of real tilesets; inflating never writes past the declared size, so a lying
 * entry cannot take more); larger ones stream through zlib, so memory stays flat at
 * `parallelSmallEntries` × 2 × this at worst.
 */
const defaultInMemoryMaxBytes = 16 * 1024 * 1024
/**
 * Bytes of a file's start kept to recognise its format: a gzip-on-disk file needs a few hundred
 * to inflate the inner magic.
 */
const headBytes = 4096
/** Small entries in flight at once: file writes overlap inflating the next entries. */
const parallelSmallEntries = 4

const tileFormats = new Set(['b3dm', 'i3dm', 'pnts', 'cmpt', 'glb'])

/**
 * Extracts the planned entries into `target.folder` of the store's named files (a new, empty
 * folder), straight from the archive, with no copy on this machine: every
 * entry's size and CRC-32 is checked against the directory, inflating stops as soon as an entry
 * expands past its declared size, and each file's format is recognised from its first bytes
 * (gzip-on-disk files by their 1f 8b magic, then by the content inside). Throws a ZipError on
 * the first damaged entry; the caller removes the folder.
 */
export async function extractTilesetEntries(input: {
  handle: FileHandle
  source: ArchiveSource
  entries: readonly ArchiveEntry[]
  target: { files: NamedFiles; folder: string }
  /** Larger entries stream (default 16 MiB; tests lower it to exercise streaming cheaply). */
  inMemoryMaxBytes?: number
}): Promise<ExtractionResult> {
  const { handle, source } = input
  const { files, folder } = input.target
  const nameOf = (entry: ArchiveEntry) => `${folder}/${entry.name}`
  const inMemoryMaxBytes = input.inMemoryMaxBytes ?? defaultInMemoryMaxBytes
  // archive order: the disk is read front to back
  const entries = [...input.entries].sort(
    (a, b) => a.localHeaderOffsetBytes - b.localHeaderOffsetBytes,
  )
  const formats: Record<string, number> = {}
  const mismatches: ExtractionResult['mismatches'] = []
  let totalBytes = 0
  let gzipFileCount = 0
  let tileCount = 0

  const record = (entry: ArchiveEntry, head: Uint8Array) => {
    totalBytes += entry.uncompressedSizeBytes
    const gzip = isGzip(head)
    if (gzip) gzipFileCount++
    const found = detectTileFormat(gzip ? peelGzipHead(head) : head)
    const expected = expectedFormatOf(entry.name)
    const format = found ?? 'other'
    formats[format] = (formats[format] ?? 0) + 1
    if (tileFormats.has(format)) tileCount++
    if (expected !== undefined && found !== expected && entry.uncompressedSizeBytes > 0) {
      mismatches.push({
        path: entry.name,
        expected,
        found: found ?? (gzip ? 'unknown gzip data' : 'unknown data'),
      })
    }
  }

  const extractSmall = async (entry: ArchiveEntry) => {
    const start = await entryDataOffset(source, entry)
    const compressed = await source.read(start, entry.compressedSizeBytes)
    if (compressed.byteLength < entry.compressedSizeBytes) {
      throw new ZipError(
        'archive.truncated',
        'The archive ends early: it was cut off before its end.',
      )
    }
    let bytes: Uint8Array
    if (entry.compressionMethod === 'stored') bytes = compressed
    else {
      try {
        bytes = await inflateRawAsync(compressed, {
          maxOutputLength: entry.uncompressedSizeBytes + 1,
        })
      } catch (error) {
        throw inflateError(entry, error)
      }
    }
    checkEntryResult(entry, bytes.byteLength, nativeCrc32(bytes))
    await files.write(nameOf(entry), bytes)
    record(entry, bytes.subarray(0, headBytes))
  }

  const extractLarge = async (entry: ArchiveEntry) => {
    const start = await entryDataOffset(source, entry)
    const check = new EntryCheck(entry)
    const reader = handle.createReadStream({
      start,
      end: start + entry.compressedSizeBytes - 1,
      autoClose: false,
      highWaterMark: 1024 * 1024,
    })
    try {
      // the store reads the checked bytes as they come; a failure on either side ends both
      const checked =
        entry.compressionMethod === 'stored'
          ? pipeline(reader, check)
          : pipeline(reader, createInflateRaw({ chunkSize: 256 * 1024 }), check)
      const written = files.write(nameOf(entry), check).catch((error: unknown) => {
        check.destroy(error as Error)
        throw error
      })
      await Promise.all([checked, written])
    } catch (error) {
      if (error instanceof ZipError) throw error
      throw inflateError(entry, error)
    }
    checkEntryResult(entry, check.sizeBytes, check.crc)
    record(entry, check.head)
  }

  // small entries run a few at a time; a large one waits for them and runs alone
  let inFlight: Promise<void>[] = []
  const settle = async () => {
    // every write has ended before a failure is reported, so the caller's clean-up is final
    const results = await Promise.allSettled(inFlight)
    inFlight = []
    const failure = results.find((result) => result.status === 'rejected')
    if (failure) throw failure.reason
  }
  for (const entry of entries) {
    if (
      entry.uncompressedSizeBytes > inMemoryMaxBytes ||
      entry.compressedSizeBytes > inMemoryMaxBytes
    ) {
      await settle()
      await extractLarge(entry)
      continue
    }
    inFlight.push(extractSmall(entry))
    if (inFlight.length >= parallelSmallEntries) await settle()
  }
  await settle()

  return {
    stats: {
      file_count: entries.length,
      tile_count: tileCount,
      total_bytes: totalBytes,
      formats,
      gzip_file_count: gzipFileCount,
    },
    mismatches,
  }
}

/**
 * Counts, checksums and bounds an entry's bytes on their way to disk: the stream fails as soon
 * as the entry produces more than it declared (a lying header or a zip bomb).
 */
class EntryCheck extends Transform {
  sizeBytes = 0
  crc = 0
  head: Uint8Array = new Uint8Array()

  constructor(private readonly entry: ArchiveEntry) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.sizeBytes += chunk.byteLength
    if (this.sizeBytes > this.entry.uncompressedSizeBytes) {
      done(
        new ZipError(
          'archive.corrupt',
          `The archive is damaged: ${this.entry.name} expands past its declared size.`,
          this.entry.name,
        ),
      )
      return
    }
    if (this.head.byteLength < headBytes) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, headBytes - this.head.byteLength)])
    }
    this.crc = nativeCrc32(chunk, this.crc)
    done(null, chunk)
  }
}
