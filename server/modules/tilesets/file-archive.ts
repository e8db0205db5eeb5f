import type { FileHandle } from 'node:fs/promises'
import { promisify } from 'node:util'
import { inflateRaw, crc32 as nativeCrc32 } from 'node:zlib'
import type { ArchiveSource } from '../../../workers/unzip/archive-source'
import type { ArchiveEntry } from '../../../workers/unzip/zip-reader'
import { localDataOffset, localHeaderSizeBytes } from '../../../workers/unzip/zip-reader'
import { ZipError } from '../../../workers/unzip/zip-errors'

/**
 * zlib's inflate on its thread pool: the event loop keeps answering other requests (tiles,
 * API calls) while a big upload is extracted, and up to four entries inflate at once.
 */
export const inflateRawAsync = promisify(inflateRaw) as (
  input: Uint8Array,
  options: { maxOutputLength: number; chunkSize?: number },
) => Promise<Buffer>

/**
 * Random access to an archive on disk for the shared zip reader (workers/unzip), so only the
 * central directory and the entries asked for are read, never the whole upload.
 */
export function fileArchiveSource(handle: FileHandle, sizeBytes: number): ArchiveSource {
  return {
    sizeBytes,
    async read(offsetBytes, lengthBytes) {
      const length = Math.max(0, Math.min(lengthBytes, sizeBytes - offsetBytes))
      const buffer = Buffer.allocUnsafe(length)
      let done = 0
      while (done < length) {
        const { bytesRead } = await handle.read(buffer, done, length - done, offsetBytes + done)
        if (bytesRead === 0) break
        done += bytesRead
      }
      return buffer.subarray(0, done)
    },
  }
}

/** Where an entry's compressed bytes start, from its local header (whose extra field may differ). */
export async function entryDataOffset(source: ArchiveSource, entry: ArchiveEntry): Promise<number> {
  const header = await source.read(entry.localHeaderOffsetBytes, localHeaderSizeBytes)
  return localDataOffset(header, entry)
}

/** zlib's smallest chunk is 64 bytes; its default (16 KiB) stays the floor for small entries. */
const minimumChunkBytes = 16 * 1024

/**
 * An entry's bytes, inflated in memory and checked against its declared size and CRC-32. For
 * small entries only (tileset JSON files): `maxBytes` bounds what a lying header can cost.
 */
export async function readEntryBytes(
  source: ArchiveSource,
  entry: ArchiveEntry,
  maxBytes: number,
): Promise<Buffer> {
  if (entry.uncompressedSizeBytes > maxBytes) {
    throw new ZipError(
      'archive.entryTooLarge',
      `${entry.name} is ${entry.uncompressedSizeBytes} bytes; at most ${maxBytes} are read.`,
      entry.name,
    )
  }
  const start = await entryDataOffset(source, entry)
  const compressed = await source.read(start, entry.compressedSizeBytes)
  if (compressed.byteLength < entry.compressedSizeBytes) {
    throw new ZipError(
      'archive.truncated',
      'The archive ends early: it was cut off before its end.',
    )
  }
  let bytes: Buffer
  if (entry.compressionMethod === 'stored') {
    bytes = Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength)
  } else {
    try {
      // one byte of room past the declared size reveals an entry that lies about it; the whole
      // entry inflates into one chunk: with zlib's default 16 KiB chunks a 15 MB model took ~1,000
      // callbacks and a 15 MB concatenation on the request thread (bench/templates/template-zip-health)
      const outputBytes = entry.uncompressedSizeBytes + 1
      bytes = await inflateRawAsync(compressed, {
        maxOutputLength: outputBytes,
        chunkSize: Math.max(minimumChunkBytes, outputBytes),
      })
    } catch (error) {
      throw inflateError(entry, error)
    }
  }
  checkEntryResult(entry, bytes.byteLength, nativeCrc32(bytes))
  return bytes
}

/** Maps a zlib failure of an entry to the archive error a user can act on. */
export function inflateError(entry: ArchiveEntry, error: unknown): ZipError {
  const code = (error as { code?: string }).code
  if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
    return new ZipError(
      'archive.corrupt',
      `The archive is damaged: ${entry.name} expands past its declared size.`,
      entry.name,
    )
  }
  return new ZipError(
    'archive.corrupt',
    `The archive is damaged: ${entry.name} does not inflate (${(error as Error).message}).`,
    entry.name,
  )
}

/** Refuses an entry whose extracted bytes differ from what the directory declared. */
export function checkEntryResult(entry: ArchiveEntry, sizeBytes: number, crc: number): void {
  if (sizeBytes !== entry.uncompressedSizeBytes) {
    throw new ZipError(
      'archive.corrupt',
      `The archive is damaged: ${entry.name} has ${sizeBytes} bytes, not the ${entry.uncompressedSizeBytes} it declares.`,
      entry.name,
    )
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) {
    throw new ZipError(
      'archive.checksumMismatch',
      `${entry.name} does not match its checksum: the archive is damaged.`,
      entry.name,
    )
  }
}

const endOfDirectorySignature = 0x06054b50
const zip64LocatorSignature = 0x07064b50
const centralHeaderSignature = 0x02014b50
/** "Made by" host 3 is Unix: only then do the high 16 bits of the attributes hold a mode. */
const unixHost = 3
const fileTypeMask = 0o170000
const symlinkType = 0o120000

/**
 * Names of entries stored as symbolic links (Unix mode in the external attributes). The shared
 * reader does not expose the attributes, and a link extracted by a careless tool could point
 * anywhere on the server, so they are looked for here. Run after `readArchiveDirectory`, which
 * has already checked the directory's structure.
 */
export async function findSymlinkEntries(source: ArchiveSource): Promise<string[]> {
  const tailLength = Math.min(source.sizeBytes, 22 + 0xffff + 20)
  const tailStart = source.sizeBytes - tailLength
  const tail = await source.read(tailStart, tailLength)
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  let recordAt = -1
  for (let at = tail.byteLength - 22; at >= 0; at--) {
    if (tailView.getUint32(at, true) === endOfDirectorySignature) {
      recordAt = at
      break
    }
  }
  if (recordAt < 0) return []
  let entryCount = tailView.getUint16(recordAt + 10, true)
  let directorySizeBytes = tailView.getUint32(recordAt + 12, true)
  let directoryOffsetBytes = tailView.getUint32(recordAt + 16, true)
  const locatorAt = recordAt - 20
  if (locatorAt >= 0 && tailView.getUint32(locatorAt, true) === zip64LocatorSignature) {
    const record = await source.read(Number(tailView.getBigUint64(locatorAt + 8, true)), 56)
    const view = new DataView(record.buffer, record.byteOffset, record.byteLength)
    entryCount = Number(view.getBigUint64(32, true))
    directorySizeBytes = Number(view.getBigUint64(40, true))
    directoryOffsetBytes = Number(view.getBigUint64(48, true))
  }
  const directory = await source.read(directoryOffsetBytes, directorySizeBytes)
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength)
  const links: string[] = []
  let cursor = 0
  for (let index = 0; index < entryCount && cursor + 46 <= directory.byteLength; index++) {
    if (view.getUint32(cursor, true) !== centralHeaderSignature) break
    const madeByHost = view.getUint16(cursor + 4, true) >> 8
    const nameLength = view.getUint16(cursor + 28, true)
    const extraLength = view.getUint16(cursor + 30, true)
    const commentLength = view.getUint16(cursor + 32, true)
    const mode = view.getUint32(cursor + 38, true) >>> 16
    if (madeByHost === unixHost && (mode & fileTypeMask) === symlinkType) {
      links.push(Buffer.from(directory.subarray(cursor + 46, cursor + 46 + nameLength)).toString())
    }
    cursor += 46 + nameLength + extraLength + commentLength
  }
  return links
}
