import { type ArchiveLimits, resolveArchiveLimits } from './archive-limits'
import type { ArchiveSource } from './archive-source'
import { crc32 } from './crc32'
import { decodeEntryName, toSafeEntryName } from './entry-name'
import { ZipError } from './zip-errors'

/** How an entry's bytes are stored; only these two are used by real-world 3D uploads. */
export type CompressionMethod = 'stored' | 'deflate' | 'unsupported'

/** One file or folder of an archive, as its central directory declares it. */
export interface ArchiveEntry {
  /** Normalised, checked to stay inside the extraction folder; folders end with `/`. */
  name: string
  isDirectory: boolean
  isEncrypted: boolean
  compressionMethod: CompressionMethod
  /** The raw method number, to name unsupported ones (14 LZMA, 93 zstd, 99 AES…). */
  compressionMethodCode: number
  compressedSizeBytes: number
  uncompressedSizeBytes: number
  crc32: number
  /** Local date-time as the archiver wrote it (zip stores no time zone), ISO 8601 without zone. */
  modifiedAt: string
  localHeaderOffsetBytes: number
}

/** An archive's table of contents. */
export interface ArchiveListing {
  archiveSizeBytes: number
  entries: ArchiveEntry[]
  totalCompressedSizeBytes: number
  totalUncompressedSizeBytes: number
  comment: string
}

/** How to read a directory: the limits to enforce and how to decode legacy names. */
export interface ReadDirectoryOptions {
  limits?: Partial<ArchiveLimits>
  /** Encoding of names that are neither flagged nor valid UTF-8 (see decodeEntryName). */
  fallbackNameEncoding?: string
}

const signatures = {
  localHeader: 0x04034b50,
  centralHeader: 0x02014b50,
  endOfDirectory: 0x06054b50,
  zip64EndOfDirectory: 0x06064b50,
  zip64Locator: 0x07064b50,
} as const
const endOfDirectorySizeBytes = 22
const maxCommentSizeBytes = 0xffff
const zip64LocatorSizeBytes = 20
const centralHeaderSizeBytes = 46
/** Fixed part of a local file header; its name and extra field follow. */
export const localHeaderSizeBytes = 30

const flagEncrypted = 0x0001
const flagUtf8Name = 0x0800
const extraZip64 = 0x0001
const extraUnicodePath = 0x7075

const truncated = () =>
  new ZipError('archive.truncated', 'The archive ends early: it was cut off before its end.')
const corrupt = (why: string, detail?: string) =>
  new ZipError('archive.corrupt', `The archive is damaged: ${why}.`, detail)

interface EndOfDirectory {
  entryCount: number
  directorySizeBytes: number
  directoryOffsetBytes: number
  /** Where the directory must end: the first end-of-directory record. */
  directoryLimitBytes: number
  comment: string
}

/**
 * Reads the central directory (at the end of the archive, so only the tail is read, never the
 * whole file) and checks every entry's name and declared sizes against the limits before any
 * byte is inflated.
 */
export async function readArchiveDirectory(
  source: ArchiveSource,
  options: ReadDirectoryOptions = {},
): Promise<ArchiveListing> {
  const limits = resolveArchiveLimits(options.limits)
  const fallbackEncoding = options.fallbackNameEncoding ?? 'gb18030'
  const end = await readEndOfDirectory(source)
  if (end.entryCount > limits.maxEntryCount) {
    throw new ZipError(
      'archive.tooManyEntries',
      `The archive has ${end.entryCount} entries; at most ${limits.maxEntryCount} are accepted.`,
      String(end.entryCount),
    )
  }
  if (end.directoryOffsetBytes + end.directorySizeBytes > end.directoryLimitBytes) {
    throw corrupt('the central directory overlaps its end record')
  }
  const directory = await source.read(end.directoryOffsetBytes, end.directorySizeBytes)
  if (directory.byteLength < end.directorySizeBytes) throw truncated()
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength)

  const entries: ArchiveEntry[] = []
  const seenNames = new Set<string>()
  let cursor = 0
  for (let index = 0; index < end.entryCount; index++) {
    if (cursor + centralHeaderSizeBytes > directory.byteLength) {
      throw corrupt('the central directory lists fewer entries than it declares')
    }
    if (view.getUint32(cursor, true) !== signatures.centralHeader) {
      throw corrupt('a central directory record has a wrong signature')
    }
    const flags = view.getUint16(cursor + 8, true)
    const methodCode = view.getUint16(cursor + 10, true)
    const dosTime = view.getUint16(cursor + 12, true)
    const dosDate = view.getUint16(cursor + 14, true)
    const checksum = view.getUint32(cursor + 16, true)
    let compressedSizeBytes = view.getUint32(cursor + 20, true)
    let uncompressedSizeBytes = view.getUint32(cursor + 24, true)
    const nameLength = view.getUint16(cursor + 28, true)
    const extraLength = view.getUint16(cursor + 30, true)
    const commentLength = view.getUint16(cursor + 32, true)
    const externalAttributes = view.getUint32(cursor + 38, true)
    let localHeaderOffsetBytes = view.getUint32(cursor + 42, true)
    const nameStart = cursor + centralHeaderSizeBytes
    const extraStart = nameStart + nameLength
    const recordEnd = extraStart + extraLength + commentLength
    if (recordEnd > directory.byteLength) throw corrupt('a central directory record overruns it')
    const rawName = directory.subarray(nameStart, extraStart)
    let decodedName = decodeEntryName(rawName, (flags & flagUtf8Name) !== 0, fallbackEncoding)

    for (let extra = extraStart; extra + 4 <= extraStart + extraLength; ) {
      const tag = view.getUint16(extra, true)
      const size = view.getUint16(extra + 2, true)
      const dataStart = extra + 4
      if (dataStart + size > extraStart + extraLength) throw corrupt('an extra field overruns it')
      if (tag === extraZip64) {
        // Only the fields whose 32-bit slot is saturated are present, in this order.
        let field = dataStart
        const take = () => {
          if (field + 8 > dataStart + size) throw corrupt('a zip64 extra field is too short')
          const value = view.getBigUint64(field, true)
          field += 8
          if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('a zip64 size is too large')
          return Number(value)
        }
        if (uncompressedSizeBytes === 0xffffffff) uncompressedSizeBytes = take()
        if (compressedSizeBytes === 0xffffffff) compressedSizeBytes = take()
        if (localHeaderOffsetBytes === 0xffffffff) localHeaderOffsetBytes = take()
      } else if (tag === extraUnicodePath && size > 5 && directory[dataStart] === 1) {
        // Info-ZIP's UTF-8 name (7-Zip, WinRAR); valid only while it matches the raw name.
        if (view.getUint32(dataStart + 1, true) === crc32(rawName)) {
          decodedName = new TextDecoder('utf-8').decode(
            directory.subarray(dataStart + 5, dataStart + size),
          )
        }
      }
      extra = dataStart + size
    }

    const name = toSafeEntryName(decodedName)
    if (seenNames.has(name)) {
      throw new ZipError('archive.duplicateEntry', `The entry ${name} appears twice.`, name)
    }
    seenNames.add(name)
    const compressionMethod: CompressionMethod =
      methodCode === 0 ? 'stored' : methodCode === 8 ? 'deflate' : 'unsupported'
    // MS-DOS folder attribute, for archivers that do not end folder names with '/'.
    const isDirectory = name.endsWith('/') || (externalAttributes & 0x10) !== 0
    if (localHeaderOffsetBytes + compressedSizeBytes > end.directoryOffsetBytes) {
      throw corrupt('an entry claims bytes beyond the file data', name)
    }
    entries.push({
      name: isDirectory && !name.endsWith('/') ? `${name}/` : name,
      isDirectory,
      isEncrypted: (flags & flagEncrypted) !== 0,
      compressionMethod,
      compressionMethodCode: methodCode,
      compressedSizeBytes,
      uncompressedSizeBytes,
      crc32: checksum,
      modifiedAt: dosDateTimeToIso(dosDate, dosTime),
      localHeaderOffsetBytes,
    })
    cursor = recordEnd
  }

  checkDeclaredSizes(entries, limits)
  let totalCompressedSizeBytes = 0
  let totalUncompressedSizeBytes = 0
  for (const entry of entries) {
    totalCompressedSizeBytes += entry.compressedSizeBytes
    totalUncompressedSizeBytes += entry.uncompressedSizeBytes
  }
  return {
    archiveSizeBytes: source.sizeBytes,
    entries,
    totalCompressedSizeBytes,
    totalUncompressedSizeBytes,
    comment: end.comment,
  }
}

/**
 * Refuses entries whose declared sizes break the limits. Run on the whole listing and again on
 * the selection being extracted; the extractor also checks the bytes it actually produces.
 */
export function checkDeclaredSizes(entries: readonly ArchiveEntry[], limits: ArchiveLimits): void {
  if (entries.length > limits.maxEntryCount) {
    throw new ZipError(
      'archive.tooManyEntries',
      `The archive has ${entries.length} entries; at most ${limits.maxEntryCount} are accepted.`,
      String(entries.length),
    )
  }
  let totalBytes = 0
  for (const entry of entries) {
    if (entry.uncompressedSizeBytes > limits.maxEntryUncompressedSizeBytes) {
      throw new ZipError(
        'archive.entryTooLarge',
        `${entry.name} expands to ${entry.uncompressedSizeBytes} bytes; the limit is ${limits.maxEntryUncompressedSizeBytes}.`,
        entry.name,
      )
    }
    if (entry.compressionMethod === 'stored' && !entry.isEncrypted) {
      if (entry.compressedSizeBytes !== entry.uncompressedSizeBytes) {
        throw corrupt('a stored entry declares two different sizes', entry.name)
      }
    } else if (
      entry.uncompressedSizeBytes >= limits.compressionRatioCheckMinimumBytes &&
      entry.uncompressedSizeBytes > entry.compressedSizeBytes * limits.maxCompressionRatio
    ) {
      throw new ZipError(
        'archive.suspiciousCompression',
        `${entry.name} would expand ${Math.round(entry.uncompressedSizeBytes / Math.max(1, entry.compressedSizeBytes))}-fold; more than ${limits.maxCompressionRatio}-fold is refused as a zip bomb.`,
        entry.name,
      )
    }
    totalBytes += entry.uncompressedSizeBytes
  }
  if (totalBytes > limits.maxTotalUncompressedSizeBytes) {
    throw new ZipError(
      'archive.tooLarge',
      `The archive expands to ${totalBytes} bytes; the limit is ${limits.maxTotalUncompressedSizeBytes}.`,
      String(totalBytes),
    )
  }
}

async function readEndOfDirectory(source: ArchiveSource): Promise<EndOfDirectory> {
  const tailLength = Math.min(
    source.sizeBytes,
    endOfDirectorySizeBytes + maxCommentSizeBytes + zip64LocatorSizeBytes,
  )
  const tailStart = source.sizeBytes - tailLength
  const tail = await source.read(tailStart, tailLength)
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  let recordAt = -1
  // Search backwards: the record sits at the very end unless the archive has a comment.
  for (let at = tail.byteLength - endOfDirectorySizeBytes; at >= 0; at--) {
    if (
      view.getUint32(at, true) === signatures.endOfDirectory &&
      at + endOfDirectorySizeBytes + view.getUint16(at + 20, true) <= tail.byteLength
    ) {
      recordAt = at
      break
    }
  }
  if (recordAt < 0) throw await missingEndError(source)

  const diskNumber = view.getUint16(recordAt + 4, true)
  const directoryDisk = view.getUint16(recordAt + 6, true)
  if (diskNumber !== 0 || directoryDisk !== 0) {
    throw corrupt('it is one part of a split archive; join the parts first')
  }
  const commentLength = view.getUint16(recordAt + 20, true)
  const result: EndOfDirectory = {
    entryCount: view.getUint16(recordAt + 10, true),
    directorySizeBytes: view.getUint32(recordAt + 12, true),
    directoryOffsetBytes: view.getUint32(recordAt + 16, true),
    directoryLimitBytes: tailStart + recordAt,
    comment: new TextDecoder().decode(
      tail.subarray(
        recordAt + endOfDirectorySizeBytes,
        recordAt + endOfDirectorySizeBytes + commentLength,
      ),
    ),
  }

  const locatorAt = recordAt - zip64LocatorSizeBytes
  if (locatorAt >= 0 && view.getUint32(locatorAt, true) === signatures.zip64Locator) {
    const zip64RecordOffset = Number(view.getBigUint64(locatorAt + 8, true))
    const zip64Record = await source.read(zip64RecordOffset, 56)
    if (zip64Record.byteLength < 56) throw truncated()
    const zip64View = new DataView(zip64Record.buffer, zip64Record.byteOffset, 56)
    if (zip64View.getUint32(0, true) !== signatures.zip64EndOfDirectory) {
      throw corrupt('the zip64 end record is missing')
    }
    const big = (offset: number) => {
      const value = zip64View.getBigUint64(offset, true)
      if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('a zip64 size is too large')
      return Number(value)
    }
    result.entryCount = big(32)
    result.directorySizeBytes = big(40)
    result.directoryOffsetBytes = big(48)
    result.directoryLimitBytes = zip64RecordOffset
  }
  return result
}

/** No end record: an archive cut short still starts like one; anything else is not a zip. */
async function missingEndError(source: ArchiveSource): Promise<ZipError> {
  const head = await source.read(0, 4)
  const startsLikeZip =
    head.byteLength === 4 &&
    new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true) === signatures.localHeader
  return startsLikeZip
    ? truncated()
    : new ZipError('archive.notZip', 'The file is not a zip archive.')
}

function dosDateTimeToIso(dosDate: number, dosTime: number): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  const year = 1980 + (dosDate >> 9)
  const month = Math.max(1, (dosDate >> 5) & 0xf)
  const day = Math.max(1, dosDate & 0x1f)
  const hours = dosTime >> 11
  const minutes = (dosTime >> 5) & 0x3f
  const seconds = (dosTime & 0x1f) * 2
  return `${year}-${pad(month)}-${pad(day)}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}`
}

/** Where an entry's data begins, read from its local header (whose extra field may differ). */
export function localDataOffset(header: Uint8Array, entry: ArchiveEntry): number {
  if (header.byteLength < localHeaderSizeBytes) throw truncated()
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
  if (view.getUint32(0, true) !== signatures.localHeader) {
    throw corrupt('an entry does not start where the directory says', entry.name)
  }
  const nameLength = view.getUint16(26, true)
  const extraLength = view.getUint16(28, true)
  return entry.localHeaderOffsetBytes + localHeaderSizeBytes + nameLength + extraLength
}
