import { Inflate, inflateSync } from 'fflate'
import { type ArchiveLimits, resolveArchiveLimits } from './archive-limits'
import { type ArchiveInput, type ArchiveSource, toArchiveSource } from './archive-source'
import { crc32Initial, finishCrc32, updateCrc32 } from './crc32'
import {
  type ExtractedArchive,
  type ExtractedFile,
  extractedFileAlignmentBytes,
} from './extracted-archive'
import { InflatedPastSizeError, inflateNatively, nativeInflateFormat } from './native-inflate'
import { createTaskYielder } from './task-yielder'
import { WindowReader } from './window-reader'
import {
  type ArchiveEntry,
  type ArchiveListing,
  checkDeclaredSizes,
  localDataOffset,
  localHeaderSizeBytes,
  type ReadDirectoryOptions,
  readArchiveDirectory,
} from './zip-reader'
import { ZipError } from './zip-errors'

/** How far an extraction has got, in uncompressed bytes and entries. */
export interface ExtractProgress {
  doneBytes: number
  totalBytes: number
  doneEntries: number
  totalEntries: number
}

/** What to extract and how; every field has a sensible default. */
export interface ExtractOptions {
  /**
   * Entry names to extract; a name ending in `/` selects everything under that folder.
   * Default: every file.
   */
  names?: readonly string[]
  limits?: Partial<ArchiveLimits>
  /** Compare each entry's CRC-32 with its bytes (default true; costs ~10 % of inflate time). */
  verifyChecksums?: boolean
  signal?: AbortSignal
  onProgress?: (progress: ExtractProgress) => void
  /** At most one progress report per this interval, plus the final one (default 10 ms). */
  progressIntervalMs?: number
  /** Target size of the buffers files are packed into (default 32 MiB). */
  packSizeBytes?: number
  /**
   * Entries whose compressed size is above this are inflated in chunks, with progress and abort
   * checks inside the entry; smaller ones in one call into their place in the pack, which is
   * faster. fflate drops writes past the end of the view it is given, so memory stays bounded
   * either way; the view is one byte longer than declared, and that byte being written means
   * the entry expanded past its declared size. Default 4 MiB.
   */
  chunkedAboveCompressedBytes?: number
  /**
   * Inflate deflated entries above {@link nativeInflateAboveCompressedBytes} with the platform's
   * zlib (`DecompressionStream`, where there is one) instead of fflate (default true).
   */
  inflateNatively?: boolean
  /** Default 64 KiB: below it a stream's set-up costs more than zlib's speed saves. */
  nativeInflateAboveCompressedBytes?: number
}

const mebibyte = 1024 * 1024
/**
 * Compressed bytes inflated between checks of the output size, abort flag and progress, for
 * entries inflated in chunks. Deflate expands at most ~1032-fold, so a lying entry overshoots
 * its declared size by at most ~256 MiB of decoding before it is caught.
 */
const inflateChunkSizeBytes = 256 * 1024
/**
 * Default of {@link ExtractOptions.chunkedAboveCompressedBytes}. fflate's streaming inflater
 * copies and regrows its buffers on every push, which with chunks small enough to bound a zip
 * bomb's overshoot made extraction ~30 % slower than unzipSync (bench/README.md); one call
 * straight into the pack has no such cost. Entries up to this size (nearly all entries of real
 * 3D uploads) take that path.
 */
const defaultChunkedAboveCompressedBytes = 4 * mebibyte
/** Default of {@link ExtractOptions.nativeInflateAboveCompressedBytes}. */
const defaultNativeInflateAboveCompressedBytes = 64 * 1024
/** Free bytes kept after every file in a pack, so the one-call overrun check never touches a neighbour. */
const overrunGuardBytes = 1
/** Longest stretch of work without letting the event loop run (abort messages, progress). */
const yieldIntervalMs = 16

/**
 * Extracts the selected entries of an archive whose directory has been read, into a few large
 * buffers ("packs") with an index, so the result can be transferred between threads with a
 * handful of transferables instead of one per file. Work is done in chunks: between chunks the
 * abort signal is checked, throttled progress is reported, and the event loop gets a turn.
 */
export async function extractEntries(
  source: ArchiveSource,
  listing: ArchiveListing,
  options: ExtractOptions = {},
): Promise<ExtractedArchive> {
  const limits = resolveArchiveLimits(options.limits)
  const selected = selectEntries(listing.entries, options.names)
  checkDeclaredSizes(selected, limits)
  for (const entry of selected) {
    if (entry.isEncrypted) {
      throw new ZipError('archive.encrypted', `${entry.name} is password-protected.`, entry.name)
    }
    if (entry.compressionMethod === 'unsupported') {
      throw new ZipError(
        'archive.unsupportedMethod',
        `${entry.name} uses compression method ${entry.compressionMethodCode}; only stored and deflate are supported.`,
        entry.name,
      )
    }
  }

  const verifyChecksums = options.verifyChecksums ?? true
  const chunkedAboveCompressedBytes =
    options.chunkedAboveCompressedBytes ?? defaultChunkedAboveCompressedBytes
  const progressIntervalMs = options.progressIntervalMs ?? 10
  const nativeFormat =
    options.inflateNatively === false ? null : nativeInflateFormat(verifyChecksums)
  const nativeAboveCompressedBytes =
    options.nativeInflateAboveCompressedBytes ?? defaultNativeInflateAboveCompressedBytes
  const { files, packSizes } = planPacks(selected, options.packSizeBytes ?? 32 * mebibyte)
  const packs = packSizes.map((sizeBytes) => new ArrayBuffer(sizeBytes))
  const totalBytes = selected.reduce((sum, entry) => sum + entry.uncompressedSizeBytes, 0)
  const reader = new WindowReader(source)
  const yielder = createTaskYielder()
  let doneBytes = 0
  let doneEntries = 0
  let lastProgressAtMs = Number.NEGATIVE_INFINITY
  let lastYieldAtMs = performance.now()

  const reportProgress = (isFinal: boolean) => {
    if (!options.onProgress) return
    const nowMs = performance.now()
    if (!isFinal && nowMs - lastProgressAtMs < progressIntervalMs) return
    lastProgressAtMs = nowMs
    options.onProgress({ doneBytes, totalBytes, doneEntries, totalEntries: selected.length })
  }
  /** Called between chunks: stop if aborted, report, and let queued messages (aborts) in. */
  const checkpoint = async () => {
    if (options.signal?.aborted) throw abortedError()
    reportProgress(false)
    if (performance.now() - lastYieldAtMs >= yieldIntervalMs) {
      await yielder.yield()
      lastYieldAtMs = performance.now()
      if (options.signal?.aborted) throw abortedError()
    }
  }

  /**
   * Inflates a deflated entry with the platform's zlib (native-inflate.ts), several times faster
   * than fflate. False when zlib refused the bytes: fflate then inflates the entry again and
   * says exactly why (damaged data, wrong size, wrong checksum) or, for data zlib's stricter
   * reading refused, produces it. Progress already reported for the entry is taken back then.
   */
  const inflatedNatively = async (
    entry: ArchiveEntry,
    dataStart: number,
    output: Uint8Array,
  ): Promise<boolean> => {
    let producedBytes = 0
    try {
      producedBytes = await inflateNatively({
        format: nativeFormat!,
        compressedSizeBytes: entry.compressedSizeBytes,
        readCompressed: (offsetBytes, lengthBytes) =>
          reader.readExactly(dataStart + offsetBytes, lengthBytes),
        output,
        crc32: entry.crc32,
        afterChunk: async (chunkBytes) => {
          producedBytes += chunkBytes
          doneBytes += chunkBytes
          await checkpoint()
        },
      })
    } catch (error) {
      if (error instanceof ZipError) throw error
      if (error instanceof InflatedPastSizeError) throw sizeMismatch(entry)
      doneBytes -= producedBytes
      return false
    }
    if (producedBytes !== entry.uncompressedSizeBytes) throw sizeMismatch(entry)
    return true
  }

  try {
    reportProgress(true)
    for (let index = 0; index < selected.length; index++) {
      const entry = selected[index]!
      const file = files[index]!
      const output = new Uint8Array(packs[file.packIndex]!, file.byteOffset, file.sizeBytes)
      const header = await reader.read(entry.localHeaderOffsetBytes, localHeaderSizeBytes)
      const dataStart = localDataOffset(header, entry)
      let crc = crc32Initial
      let isCrcChecked = false

      if (entry.compressionMethod === 'stored') {
        for (let copied = 0; copied < entry.compressedSizeBytes; ) {
          const piece = await reader.readExactly(
            dataStart + copied,
            Math.min(inflateChunkSizeBytes, entry.compressedSizeBytes - copied),
          )
          output.set(piece, copied)
          if (verifyChecksums) crc = updateCrc32(crc, piece)
          copied += piece.byteLength
          doneBytes += piece.byteLength
          await checkpoint()
        }
      } else if (
        nativeFormat !== null &&
        entry.compressedSizeBytes > nativeAboveCompressedBytes &&
        (await inflatedNatively(entry, dataStart, output))
      ) {
        // zlib checked the CRC-32 itself (gzip framing) when asked to verify
        isCrcChecked = true
      } else if (entry.compressedSizeBytes <= chunkedAboveCompressedBytes) {
        const compressed = await reader.readExactly(dataStart, entry.compressedSizeBytes)
        const guardedOutput = new Uint8Array(
          output.buffer,
          output.byteOffset,
          output.byteLength + overrunGuardBytes,
        )
        let producedBytes: number
        try {
          producedBytes = inflateSync(compressed, { out: guardedOutput }).byteLength
        } catch (error) {
          throw inflateError(entry, error)
        }
        if (producedBytes !== entry.uncompressedSizeBytes) throw sizeMismatch(entry)
        if (verifyChecksums) crc = updateCrc32(crc, output)
        doneBytes += producedBytes
      } else {
        let producedBytes = 0
        const inflater = new Inflate((chunk) => {
          if (producedBytes + chunk.byteLength > entry.uncompressedSizeBytes) {
            throw sizeMismatch(entry)
          }
          output.set(chunk, producedBytes)
          if (verifyChecksums) crc = updateCrc32(crc, chunk)
          producedBytes += chunk.byteLength
          doneBytes += chunk.byteLength
        })
        for (let consumed = 0; consumed < entry.compressedSizeBytes; ) {
          const piece = await reader.readExactly(
            dataStart + consumed,
            Math.min(inflateChunkSizeBytes, entry.compressedSizeBytes - consumed),
          )
          consumed += piece.byteLength
          try {
            inflater.push(piece, consumed === entry.compressedSizeBytes)
          } catch (error) {
            throw inflateError(entry, error)
          }
          await checkpoint()
        }
        if (producedBytes !== entry.uncompressedSizeBytes) throw sizeMismatch(entry)
      }

      if (verifyChecksums && !isCrcChecked && finishCrc32(crc) !== entry.crc32) {
        throw new ZipError(
          'archive.checksumMismatch',
          `${entry.name} does not match its checksum: the archive is damaged.`,
          entry.name,
        )
      }
      doneEntries++
      await checkpoint()
    }
    reportProgress(true)
  } finally {
    yielder.close()
  }
  return { packs, files, totalSizeBytes: totalBytes }
}

/**
 * The files an extraction covers, in archive order: all of them, or the named ones (a name
 * ending in `/` selects a folder). Unknown names are refused rather than skipped.
 */
export function selectEntries(
  entries: readonly ArchiveEntry[],
  names: readonly string[] | undefined,
): ArchiveEntry[] {
  const files = entries.filter((entry) => !entry.isDirectory)
  let selected = files
  if (names) {
    const byName = new Set(files.map((entry) => entry.name))
    for (const name of names) {
      const isKnown = name.endsWith('/')
        ? files.some((entry) => entry.name.startsWith(name))
        : byName.has(name)
      if (!isKnown) {
        throw new ZipError('archive.entryNotFound', `${name} is not in the archive.`, name)
      }
    }
    const wanted = new Set(names)
    const folders = names.filter((name) => name.endsWith('/'))
    selected = files.filter(
      (entry) => wanted.has(entry.name) || folders.some((folder) => entry.name.startsWith(folder)),
    )
  }
  // Archive order makes the reads sequential.
  return selected.sort((a, b) => a.localHeaderOffsetBytes - b.localHeaderOffsetBytes)
}

/**
 * Groups entries, in order, into packs of at most `packSizeBytes`; an entry larger than that gets
 * a pack of its own. Files start on 8-byte boundaries so callers can view float and index data
 * in place (`new Float32Array(pack, byteOffset, …)`) without copying.
 */
function planPacks(
  entries: readonly ArchiveEntry[],
  packSizeBytes: number,
): { files: ExtractedFile[]; packSizes: number[] } {
  const files: ExtractedFile[] = []
  const packSizes: number[] = []
  let packUsedBytes = Number.POSITIVE_INFINITY
  for (const entry of entries) {
    const start = alignUp(packUsedBytes)
    if (
      packSizes.length === 0 ||
      start + entry.uncompressedSizeBytes + overrunGuardBytes > packSizeBytes
    ) {
      packSizes.push(0)
      packUsedBytes = 0
    }
    const byteOffset = alignUp(packUsedBytes)
    files.push({
      name: entry.name,
      packIndex: packSizes.length - 1,
      byteOffset,
      sizeBytes: entry.uncompressedSizeBytes,
    })
    packUsedBytes = byteOffset + entry.uncompressedSizeBytes + overrunGuardBytes
    packSizes[packSizes.length - 1] = packUsedBytes
  }
  return { files, packSizes }
}

function alignUp(offsetBytes: number): number {
  return Math.ceil(offsetBytes / extractedFileAlignmentBytes) * extractedFileAlignmentBytes
}

function abortedError(): ZipError {
  return new ZipError('archive.aborted', 'The extraction was cancelled.')
}

function sizeMismatch(entry: ArchiveEntry): ZipError {
  return new ZipError(
    'archive.corrupt',
    `${entry.name} does not expand to the ${entry.uncompressedSizeBytes} bytes it declares: the archive is damaged or forged.`,
    entry.name,
  )
}

function inflateError(entry: ArchiveEntry, error: unknown): ZipError {
  if (error instanceof ZipError) return error
  const reason = error instanceof Error ? error.message : String(error)
  return new ZipError(
    'archive.corrupt',
    `${entry.name} cannot be decompressed (${reason}): the archive is damaged.`,
    entry.name,
  )
}

/** Reads the directory and extracts in one go: the usual call when nothing needs listing first. */
export async function extractArchive(
  input: ArchiveInput,
  options: ExtractOptions & ReadDirectoryOptions = {},
): Promise<ExtractedArchive> {
  const source = toArchiveSource(input)
  return extractEntries(source, await readArchiveDirectory(source, options), options)
}
