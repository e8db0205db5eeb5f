import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { PassThrough, Readable, Transform } from 'node:stream'
import { createGunzip, type Gunzip } from 'node:zlib'
import { pipeline } from 'node:stream/promises'
import { ZipFile } from 'yazl'
import { type FileStorage, type NamedFiles, renameDurably } from '../../plugins/storage'
import { isGzip } from '../tilesets/tileset-json'
import {
  deflatePiece,
  finalBlock,
  type PieceSum,
  sumOfPieces,
  zipDeflateLevel,
} from './deflated-pieces'
import type { PackagePlan, PackageSource } from './offline-package-contents'
import { type PoiListsReadOnce, readEachPoiListOnce } from './offline-package-poi-spool'
import type { PoiListReader, PoiListTally } from './offline-package-pois'
import { swapYazlCrc32ForNative } from './yazl-native-crc32'

swapYazlCrc32ForNative()

/** What a finished package is: its size and SHA-256 as written, and how many files it holds. */
export interface WrittenPackage {
  sizeBytes: number
  sha256: string
  entryCount: number
  /** Each POI list written (a `pois` source), in the order written: what it held. */
  poiLists: PoiListTally[]
}

/** Where entries' bytes are read from: the file store, and the database for POI lists. */
export interface PackageReaders {
  storage: FileStorage
  /** Absent: a plan with a `pois` source fails (no database to read it from). */
  poiLists?: Pick<PoiListReader, 'open'>
}

/**
 * The bytes of one package entry's source, as written into the zip; `tally` hears what each POI
 * list held once it has been read to its end.
 */
export async function openSource(
  source: PackageSource,
  readers: PackageReaders,
  tally: (read: PoiListTally) => void = () => {},
): Promise<Readable> {
  switch (source.kind) {
    case 'script':
      return scriptOf(source.path, await openSource(source.of, readers, tally))
    case 'bytes':
      return Readable.from([source.bytes])
    case 'parts':
      // a byte stream, not objects: it reads ahead by a chunk, not by 16 of them
      return Readable.from(partsOf(source.parts, readers, tally), { objectMode: false })
    case 'stored':
      return readers.storage.open(source.sha256)
    case 'pois':
      if (!readers.poiLists) throw new Error('a POI list needs a database to be read from')
      return readers.poiLists.open(source.projectId, tally)
    case 'file': {
      const file = createReadStream(source.path, { highWaterMark: 256 * 1024 })
      return source.inflatesGzip === true ? inflatedWhenGzip(file) : file
    }
    case 'named': {
      const file = await readers.storage.named(source.area).open(source.name)
      return source.inflatesGzip ? inflatedWhenGzip(file) : file
    }
  }
}

/** The bytes of `parts`, one source after the other, each opened only when the last has ended. */
async function* partsOf(
  parts: readonly PackageSource[],
  readers: PackageReaders,
  tally: (read: PoiListTally) => void,
) {
  for (const part of parts) yield* await openSource(part, readers, tally)
}

/**
 * A file inflated past this fails the build: no real tile or tileset JSON comes near it, a gzip
 * bomb (a thousand times its size) would fill the disk.
 */
const maxInflatedBytes = 1024 * 1024 * 1024

/**
 * The bytes of `source`, inflated when they start with gzip's magic (1f 8b), else as they are:
 * a tileset stored gzip-compressed on disk goes into the package as plain files the viewer and
 * any other tool can read without a server's `Content-Encoding: gzip`.
 */
function inflatedWhenGzip(source: Readable): Readable {
  let gunzip: Gunzip | null | undefined
  let inflatedBytes = 0
  const output = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      if (gunzip === undefined) {
        gunzip = isGzip(chunk) ? createGunzip() : null
        gunzip?.on('data', (data: Buffer) => {
          inflatedBytes += data.byteLength
          if (inflatedBytes > maxInflatedBytes) {
            output.destroy(
              new Error(`a gzip-compressed file inflates past ${maxInflatedBytes} bytes`),
            )
          } else output.push(data)
        })
        gunzip?.on('error', (error) => output.destroy(error))
      }
      if (gunzip) gunzip.write(chunk, () => next())
      else next(null, chunk)
    },
    flush(next) {
      if (!gunzip) return next()
      gunzip.once('end', () => next())
      gunzip.end()
    },
  })
  source.on('error', (error) => output.destroy(error))
  return source.pipe(output)
}

/**
 * The bytes of `source` as `twinscapeFile("<path>","<base64>")`, the classic script the offline
 * viewer loads under `file://` (see offline-package-viewer.ts). Base64 is made in whole groups
 * of three bytes, the remainder carried to the next chunk, so the text is one valid string.
 */
function scriptOf(path: string, source: Readable): Readable {
  let carry: Buffer = Buffer.alloc(0)
  const script = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      const bytes: Buffer = carry.length === 0 ? chunk : Buffer.concat([carry, chunk])
      const whole = bytes.length - (bytes.length % 3)
      carry = bytes.subarray(whole)
      next(null, bytes.subarray(0, whole).toString('base64'))
    },
    flush(next) {
      next(null, `${carry.toString('base64')}")\n`)
    },
  })
  script.push(`twinscapeFile(${JSON.stringify(path)},"`)
  source.on('error', (error) => script.destroy(error))
  return source.pipe(script)
}

/**
 * Streams the plan's entries into a zip at `path` with yazl, never holding more than a chunk
 * of any file in memory (the disk's pace sets the pace through the pipeline's back-pressure;
 * each source is opened only when its entry's turn comes); texts the plan holds are deflated
 * side by side. yazl writes ZIP64 records wherever
 * a size or offset passes 32 bits, so packages over 4 GiB are valid zips; `forceZip64` writes
 * them for every entry (tests read such a zip back with Info-ZIP without needing 4 GiB).
 * The zip is written as `<path>.part`, fsync'd, then renamed to `path`, so `path` only ever
 * names a complete package; on any failure (or `signal`) the part file is removed. With
 * `storedAs` it goes to that named file of the store instead (a durable write: on a folder the
 * same part file and rename, in a bucket a multipart upload streamed as the zip is made, so a
 * package never needs this machine's disk), and `path` only places the spool files. A POI list
 * several entries hold is made by the database once (offline-package-poi-spool.ts) and, in
 * deflated entries, deflated once: each such entry is deflated in pieces (deflated-pieces.ts),
 * the list's piece copied; its spool file beside the part file goes when the zip is written or
 * has failed.
 */
export async function writePackageZip(
  plan: Pick<PackagePlan, 'entries' | 'totalBytes'>,
  readers: PackageReaders,
  path: string,
  options: {
    signal: AbortSignal
    onProgress(fraction: number): void
    forceZip64?: boolean
    storedAs?: { files: NamedFiles; name: string }
  },
): Promise<WrittenPackage> {
  const partPath = `${path}.part`
  const { storedAs } = options
  const hash = createHash('sha256')
  const zip = new ZipFile()
  const mtime = new Date()
  let written = 0
  let done = 0
  let lastReported = -1
  const opened = new Set<Readable>()
  const poiLists: PoiListTally[] = []
  const tally = (read: PoiListTally) => poiLists.push(read)
  // pois.json and the viewer's data.js hold the same list: the database makes its JSON once
  const listsReadOnce =
    readers.poiLists === undefined ? undefined : readEachPoiListOnce(readers.poiLists, path)
  const entryReaders: PackageReaders = { storage: readers.storage, poiLists: listsReadOnce }
  // progress in whole percents: listeners hear of real steps only
  const reportRead = (bytes: number) => {
    done += bytes
    const fraction = plan.totalBytes === 0 ? 1 : Math.min(1, done / plan.totalBytes)
    if (Math.floor(fraction * 100) !== lastReported) {
      lastReported = Math.floor(fraction * 100)
      options.onProgress(fraction * 0.99)
    }
  }
  for (const entry of plan.entries) {
    // JSON and GML shrink a lot; models, tiles and PMTiles barely do and are stored as is
    const entryOptions = {
      mtime,
      compressionLevel: entry.isDeflated ? zipDeflateLevel : 0,
      forceZip64Format: options.forceZip64 === true,
    }
    if (entry.isDeflated && listsReadOnce !== undefined && holdsPoiList(entry.source)) {
      // the list is deflated once and its deflated bytes copied into every entry holding it
      const source = entry.source
      addDeflatedEntry(zip, entry.path, entryOptions, opened, () =>
        deflatedPiecesOf(source, entryReaders, listsReadOnce, tally, reportRead),
      )
      continue
    }
    if (entry.source.kind === 'bytes') {
      // in memory already: yazl deflates each buffer as it is added, on libuv's thread pool,
      // so the large JSON (the POI list in pois.json and in the viewer's data.js) compresses
      // on both cores at once while the files stream, instead of one entry after the other
      const { bytes } = entry.source
      reportRead(bytes.byteLength)
      zip.addBuffer(bytes, entry.path, entryOptions)
      continue
    }
    zip.addReadStreamLazy(entry.path, entryOptions, (callback) => {
      openSource(entry.source, entryReaders, tally).then(
        (source) => {
          opened.add(source)
          const counted = new Transform({
            transform(chunk: Buffer, _encoding, next) {
              reportRead(chunk.byteLength)
              next(null, chunk)
            },
          })
          source.on('error', (error) => counted.destroy(error))
          // yazl does not listen to a source's stream: one failing mid-entry fails the zip the
          // way yazl reports a source that could not be opened
          counted.on('error', (error) => zip.emit('error', error))
          source.on('close', () => opened.delete(source))
          callback(null, source.pipe(counted))
        },
        (error: unknown) => callback(error, Readable.from([])),
      )
    })
  }
  zip.end({ forceZip64Format: options.forceZip64 === true, comment: '' })
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      hash.update(chunk)
      written += chunk.byteLength
      next(null, chunk)
    },
  })
  // yazl reports a source's failure on the zip file, not on its output stream
  const zipFailed = new Promise<never>((_resolve, reject) => zip.once('error', reject))
  zipFailed.catch(() => {})
  const output = storedAs === undefined ? createWriteStream(partPath) : new PassThrough()
  const piped = pipeline(zip.outputStream as Readable, hashing, output, {
    signal: options.signal,
  })
  // when the zip fails first, the pipeline fails after it as its output is destroyed below
  piped.catch(() => {})
  // the store reads the zip as it is made; it resolves once the file is whole and durable
  const stored = storedAs?.files.write(storedAs.name, output as PassThrough, { durable: true })
  stored?.catch(() => {})
  try {
    await Promise.race([Promise.all([piped, stored]), zipFailed])
    if (storedAs === undefined) {
      // on disk before the rename makes it the package, and before the row says it is ready
      await renameDurably(partPath, path)
    }
    options.onProgress(1)
    return {
      sizeBytes: written,
      sha256: hash.digest('hex'),
      entryCount: plan.entries.length,
      poiLists,
    }
  } catch (error) {
    for (const source of opened) source.destroy()
    ;(zip.outputStream as Readable).destroy()
    // the store's write removes what it wrote (its part file, its multipart upload) as it fails
    output.destroy()
    await stored?.catch(() => {})
    await rm(partPath, { force: true })
    throw error
  } finally {
    await listsReadOnce?.remove()
  }
}

/** Whether `source` holds a POI list as it is (not inside a script), alone or as a part. */
const holdsPoiList = (source: PackageSource): boolean =>
  source.kind === 'pois' || (source.kind === 'parts' && source.parts.some(holdsPoiList))

/**
 * `source` deflated piece by piece (deflated-pieces.ts): each part its own piece, a POI list's
 * piece deflated once per build and copied from its spool into every later entry holding it.
 * Yields the deflated bytes, then the final block; returns what the entry holds.
 */
async function* deflatedPiecesOf(
  source: PackageSource,
  readers: PackageReaders,
  lists: PoiListsReadOnce,
  tally: (read: PoiListTally) => void,
  reportRead: (bytes: number) => void,
): AsyncGenerator<Buffer, PieceSum> {
  const sums: PieceSum[] = []
  for (const part of source.kind === 'parts' ? source.parts : [source]) {
    const piece =
      part.kind === 'pois'
        ? lists.openDeflated(part.projectId, tally)
        : deflatePiece(await openSource(part, readers, tally))
    yield* piece.deflated
    const sum = await piece.sum
    reportRead(sum.size)
    sums.push(sum)
  }
  yield finalBlock
  return sumOfPieces(sums)
}

/** The part of yazl 3's entry that {@link addDeflatedEntry} adjusts (not in its types). */
interface YazlEntry {
  crc32: number | null
  uncompressedSize: number | null
  compressionLevel: number
  getCompressionMethod(): number
  getDataDescriptor(): Buffer
}

/**
 * Adds an entry whose bytes `deflated` yields deflated already, returning what they hold. yazl
 * takes no deflated bytes: the entry is added as deflated (its headers say method 8), then, as
 * its bytes start, set to compression level 0, so yazl copies them as they come and counts them
 * as its compressed size; its checksum and size are set from the pieces' own just before yazl
 * writes its data descriptor (the central directory reads the same fields after). Relies on
 * yazl 3.3's entry fields (checked here; Info-ZIP reads the zips back in the tests).
 */
function addDeflatedEntry(
  zip: ZipFile,
  path: string,
  options: { mtime: Date; forceZip64Format: boolean },
  opened: Set<Readable>,
  deflated: () => AsyncGenerator<Buffer, PieceSum>,
): void {
  const entries = (zip as unknown as { entries: YazlEntry[] }).entries
  const index = entries.length
  let held: PieceSum | undefined
  const options6 = { ...options, compressionLevel: zipDeflateLevel }
  // yazl may ask for the bytes at once (the first entry not written yet): the entry is found
  // by its place in the list
  zip.addReadStreamLazy(path, options6, (callback) => {
    const entry = entries[index]
    if (entry === undefined) throw new Error('yazl changed: a deflated entry cannot be added')
    async function* bytes() {
      const pieces = deflated()
      for (;;) {
        const next = await pieces.next()
        if (next.done === true) {
          held = next.value
          return
        }
        yield next.value
      }
    }
    const source = Readable.from(bytes(), { objectMode: false })
    opened.add(source)
    source.on('close', () => opened.delete(source))
    // yazl does not listen to its source: a failing read fails the zip
    source.on('error', (error) => zip.emit('error', error))
    // copied as they are: already deflated
    entry.compressionLevel = 0
    // …which makes yazl name the entry stored: its records still say deflate (method 8)
    entry.getCompressionMethod = () => 8
    const descriptorOf = entry.getDataDescriptor.bind(entry)
    entry.getDataDescriptor = () => {
      if (held === undefined) zip.emit('error', new Error(`${path}: its bytes ended early`))
      else {
        entry.crc32 = held.crc32
        entry.uncompressedSize = held.size
      }
      return descriptorOf()
    }
    callback(null, source)
  })
}
