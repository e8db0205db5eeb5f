import { createHash, randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { link, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { AppError } from '../http/app-error'
import { folderSweep, type SweepTask } from '../modules/files/folder-sweeper'
import type { S3StorageSettings } from './storage-settings'

/** What `put` stored: the content's SHA-256 (its id) and its size. */
export interface StoredFile {
  sha256: string
  sizeBytes: number
  /** False when the same bytes were already stored (the existing file was kept). */
  isNew: boolean
}

/** What the store knows of a stored file besides its bytes. */
export interface StoredFileInfo {
  sizeBytes: number
  /** When the bytes were first stored (milliseconds since the epoch). */
  modifiedMs: number
}

/** What `put` stores from: a stream, chunks, or bytes in memory. */
export type FileSource = Readable | AsyncIterable<Uint8Array> | Uint8Array

/** Bytes `start` to `end` of a file, both included (an HTTP byte range). */
export interface ByteSpan {
  start: number
  end: number
}

/** The answer headers a signed address of the store sends with the file. */
export interface SignedAnswer {
  contentType: string
  cacheControl: string
  contentDisposition?: string | undefined
}

/** A stored file a route sends: which bytes, as what, and under which name when saved. */
export interface ServedStoredFile {
  sha256: string
  contentType: string
  /** Saved under this name (`Content-Disposition`), e.g. a conversion's source name. */
  downloadName?: string
}

/** What the store knows of a named file (see {@link NamedFiles}). */
export interface NamedFileInfo extends StoredFileInfo {
  /** 'gzip' for a file stored gzip-compressed: it is answered as stored, the client inflates it. */
  contentEncoding: 'gzip' | undefined
}

/**
 * The areas of the store whose files keep the names they were given, beside the content-named
 * files: on a folder store `DATA_DIR/<area>/`, in a bucket `<prefix><area>/`. `tilesets`: a
 * tileset version's files; `offline-packages`: the built package zips (`<project>/<id>.zip`);
 * `job-files`: bytes of shared-queue jobs; `basemaps`: PMTiles archives (`<file key>.pmtiles`);
 * `template-models`: a 3D template model's SBM, preview and XML (`<folder>/model.sbm` …);
 * `model-merges`: finished structure merges' ZIPs (`<id>.zip`); `poi-batch-files`: filled
 * batch-POI files (`<id>.xlsx`).
 */
export type StorageArea =
  | 'tilesets'
  | 'offline-packages'
  | 'job-files'
  | 'basemaps'
  | 'template-models'
  | 'model-merges'
  | 'poi-batch-files'

/** How a named file is written. */
export interface NamedWriteOptions {
  /**
   * Resolves only once the file is whole and durable, and its name never names less: on a
   * folder it is written as `<name>.part`, flushed and renamed (a cut-short write leaves only
   * the part file); a bucket's object appears only whole anyway. It replaces a file of that
   * name. For a file nothing else gates, such as a package zip (tileset files are gated by their
   * version's row and skip the cost).
   */
  durable?: boolean
}

/**
 * Files kept under names of their own (`<folder>/<path inside it>`), for files that belong
 * together and are addressed by their place in a tree: a tileset version's tiles, whose
 * tileset JSON refers to them by relative path. Names are checked by the caller (no `..`, no
 * empty segment). A file stored gzip-compressed (its bytes start 1f 8b) is answered with
 * `Content-Encoding: gzip`, as tileset exporters intend.
 */
export interface NamedFiles {
  /** Stores a file under `name`; replacing nothing unless `durable` (a name is written once). */
  write(name: string, source: FileSource, options?: NamedWriteOptions): Promise<void>
  /**
   * Takes a finished local file (an upload received on this machine) under `name`, whole and
   * durable, without reading it through this process where the store allows: on a folder it
   * becomes a second name of the same bytes (a hard link; copied only across file systems),
   * in a bucket it is sent from the file (multipart). The caller still owns and removes `path`.
   */
  adopt(name: string, path: string): Promise<void>
  /** Size, time written and encoding of a file, or undefined if there is none by that name. */
  statOf(name: string): Promise<NamedFileInfo | undefined>
  /** Reads a file, or the span of it. Throws a `notFound` AppError when it does not exist. */
  open(name: string, span?: ByteSpan): Promise<Readable>
  /**
   * Every file under `folder` ('' for the whole area), by name relative to it ('/'-separated),
   * sorted.
   */
  list(folder: string): Promise<Array<{ name: string; sizeBytes: number; modifiedMs: number }>>
  /** Deletes one file; a missing one is fine. */
  remove(name: string): Promise<void>
  /** Deletes `folder` and every file under it; a missing folder is fine. */
  removeFolder(folder: string): Promise<void>
  /** Like {@link FileStorage.signedReadUrl}, for a named file. */
  signedReadUrl(name: string, answer: SignedAnswer): Promise<string | undefined>
}

/**
 * Where a file store is, as a worker thread can be told it (structured-clone safe): a folder, or
 * an S3-compatible bucket with the folder its writes are spooled in.
 */
export type StorageLocation =
  | { kind: 'folder'; directory: string }
  | { kind: 's3'; settings: S3StorageSettings; spoolDirectory: string }

/**
 * The file store (architecture.md §5): every uploaded file lives here, named by the SHA-256 of
 * its content, so the same bytes are stored once and a name can never point outside the store.
 * Two back-ends keep this contract (storage-contract.test.ts runs both): a local folder
 * (`createFileStorage`, the default) and an S3-compatible bucket (`createS3FileStorage`).
 */
export interface FileStorage {
  /** Where the store is: a worker thread opens the same store from it (open-storage.ts). */
  readonly location: StorageLocation
  /** Stores bytes; resolves once they are durable, so an acknowledged file survives a crash. */
  put(source: FileSource, options?: { maxSizeBytes?: number }): Promise<StoredFile>
  /** Reads a stored file, or the span of it. Throws a `notFound` AppError when it does not exist. */
  open(sha256: string, span?: ByteSpan): Promise<Readable>
  exists(sha256: string): Promise<boolean>
  /** Size of a stored file, or undefined if it does not exist. */
  sizeOf(sha256: string): Promise<number | undefined>
  /** Size and time stored (`Last-Modified`) of a stored file, or undefined if it does not exist. */
  statOf(sha256: string): Promise<StoredFileInfo | undefined>
  /** Deletes a stored file; resolves to whether it existed. */
  remove(sha256: string): Promise<boolean>
  /**
   * An address of the store itself that answers the file with these headers for a while (a
   * signed S3 address), or undefined when this server sends its files itself (a local folder,
   * or a store private to the servers).
   */
  signedReadUrl(sha256: string, answer: SignedAnswer): Promise<string | undefined>
  /** The files of an area that keep their names (tileset versions). */
  named(area: StorageArea): NamedFiles
  /** Lets go of the store's connections (when the app closes). */
  close(): void
}

/**
 * Bytes per read of a stored file being sent. Node's default (64 KiB) made a 28 MB model 430
 * reads, each a thread-pool round trip and an event-loop turn before its socket write; on a
 * busy 2-core machine each of those waited for a core, and the model arrived at a fraction of
 * what localhost carries (issue 23.2). 1 MiB reads cut that 16-fold for 1 MiB of buffer per
 * download in flight.
 */
export const STORED_FILE_READ_BYTES = 1024 * 1024

/**
 * A stream of a file of `sizeBytes` (or of its span) whose reads are no larger than what is
 * left to read. A stream not told where the file ends allocates a whole `highWaterMark` for
 * every read, the last one too, which finds the end: a 27 KB tile cost two 1 MiB buffers, and
 * at a thousand tiles a second the collector took a third of the server's time (the swings of
 * bench/two-processes.ts, the local side of bench/s3-tiles.ts).
 */
export function createBoundedReadStream(
  path: string,
  sizeBytes: number,
  span?: ByteSpan,
): Readable {
  const start = span?.start ?? 0
  const end = span?.end ?? sizeBytes - 1
  // nothing to read (an empty file): a stream's range cannot be empty
  if (end < start) return Readable.from([], { objectMode: false })
  const highWaterMark = Math.min(STORED_FILE_READ_BYTES, end - start + 1)
  return createReadStream(path, { start, end, highWaterMark })
}

const sha256Pattern = /^[0-9a-f]{64}$/
/** Names of files being written (or spooled for an object store), swept when left behind. */
export const temporaryPrefix = 'incoming-'
/** Leftovers of cut-short writes are removed by periodic sweeps when older than this. */
const staleTemporaryAgeMs = 24 * 3_600_000

/** True for a well-formed file id: 64 lower-case hex digits. */
export function isSha256(value: string): boolean {
  return sha256Pattern.test(value)
}

/** The id itself when well-formed; a `validation` AppError before any store is touched otherwise. */
export function requireSha256(value: string): string {
  if (!isSha256(value)) throw new AppError('validation', 'file.invalidId')
  return value
}

/**
 * Writes `source` to a new file at `path` while hashing it, refusing it past `maxSizeBytes`, and
 * flushes it to disk when `sync` says so. The caller renames or removes the file, failed or not.
 */
export async function writeHashed(
  source: FileSource,
  path: string,
  options: { maxSizeBytes?: number | undefined; sync: boolean },
): Promise<{ sha256: string; sizeBytes: number }> {
  const maxSizeBytes = options.maxSizeBytes ?? Number.POSITIVE_INFINITY
  const hash = createHash('sha256')
  let sizeBytes = 0
  const handle = await open(path, 'wx')
  try {
    const chunks = source instanceof Uint8Array ? [source] : source
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      sizeBytes += bytes.byteLength
      if (sizeBytes > maxSizeBytes) {
        throw new AppError('tooLarge', 'file.tooLarge', { maxBytes: maxSizeBytes })
      }
      hash.update(bytes)
      await handle.write(bytes)
    }
    if (options.sync) await handle.sync()
  } finally {
    await handle.close()
  }
  return { sha256: hash.digest('hex'), sizeBytes }
}

/**
 * Opens the store in `directory` (created if missing). Files sit in 256 sub-folders named by the
 * first two hex digits, so no folder grows huge. A write goes to a temporary file in the same
 * folder tree (same file system, so the final `rename` is atomic), is fsync'd, then renamed.
 */
export async function createFileStorage(directory: string): Promise<FileStorage> {
  await mkdir(directory, { recursive: true })

  const pathOf = (sha256: string): string =>
    join(directory, requireSha256(sha256).slice(0, 2), sha256)

  const statOf = async (sha256: string): Promise<StoredFileInfo | undefined> => {
    try {
      const info = await stat(pathOf(sha256))
      return { sizeBytes: info.size, modifiedMs: info.mtimeMs }
    } catch (error) {
      if (isMissing(error)) return undefined
      throw error
    }
  }

  return {
    location: { kind: 'folder', directory },

    async put(source, options = {}) {
      const temporaryPath = join(directory, `${temporaryPrefix}${randomUUID()}`)
      try {
        const { sha256, sizeBytes } = await writeHashed(source, temporaryPath, {
          maxSizeBytes: options.maxSizeBytes,
          sync: true,
        })
        const finalPath = pathOf(sha256)
        const shardDirectory = join(directory, sha256.slice(0, 2))
        await mkdir(shardDirectory, { recursive: true })
        // Same content already stored: keep the existing file, drop the copy.
        const isNew = !(await fileExists(finalPath))
        if (isNew) {
          await rename(temporaryPath, finalPath)
          await flushToDisk(shardDirectory)
        } else {
          await unlink(temporaryPath)
        }
        return { sha256, sizeBytes, isNew }
      } catch (error) {
        await rm(temporaryPath, { force: true })
        throw error
      }
    },

    async open(sha256, span) {
      const path = pathOf(sha256)
      const sizeBytes = await fileSizeOf(path)
      if (sizeBytes === undefined) throw new AppError('notFound', 'file.notFound')
      return createBoundedReadStream(path, sizeBytes, span)
    },

    async exists(sha256) {
      return fileExists(pathOf(sha256))
    },

    sizeOf: async (sha256) => (await statOf(sha256))?.sizeBytes,
    statOf,

    async remove(sha256) {
      try {
        await unlink(pathOf(sha256))
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw error
      }
    },

    // the folder is this server's own: it sends its files itself
    signedReadUrl: async () => undefined,
    named: (area) => namedFilesInFolder(join(dirname(directory), area)),
    close: () => undefined,
  }
}

/** True when bytes start with gzip's magic (1f 8b). */
export function startsGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b
}

/**
 * Named files in the folder `root`, one file per name, as they always were on disk (so a
 * `DATA_DIR` of an earlier version is read as it is). A file is written straight under its name:
 * it is read only once a database row names its folder, after every write has ended.
 */
function namedFilesInFolder(root: string): NamedFiles {
  const pathOf = (name: string) => join(root, ...name.split('/'))
  return {
    async write(name, source, options = {}) {
      const path = pathOf(name)
      await mkdir(dirname(path), { recursive: true })
      if (options.durable === true) {
        await writeDurably(path, source)
        return
      }
      if (source instanceof Uint8Array) await writeFile(path, source, { flag: 'wx' })
      else {
        const output = createWriteStream(path, { flags: 'wx', highWaterMark: 1024 * 1024 })
        await pipeline(source, output)
      }
    },
    async adopt(name, sourcePath) {
      const path = pathOf(name)
      await mkdir(dirname(path), { recursive: true })
      // the bytes reach the disk before any name of the store names them
      await flushToDisk(sourcePath)
      try {
        // a second name for the same bytes: a multi-gigabyte upload is not copied
        await link(sourcePath, path)
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EXDEV') throw error
        await writeDurably(path, createReadStream(sourcePath, { highWaterMark: 1024 * 1024 }))
        return
      }
      await flushToDisk(dirname(path))
    },
    async statOf(name) {
      const path = pathOf(name)
      try {
        const info = await stat(path)
        if (!info.isFile()) return undefined
        return {
          sizeBytes: info.size,
          modifiedMs: info.mtimeMs,
          contentEncoding: startsGzip(await readHead(path, 2)) ? 'gzip' : undefined,
        }
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },
    async open(name, span) {
      const path = pathOf(name)
      const sizeBytes = await fileSizeOf(path)
      if (sizeBytes === undefined) throw new AppError('notFound', 'file.notFound')
      return createBoundedReadStream(path, sizeBytes, span)
    },
    async list(folder) {
      const base = pathOf(folder)
      const found: Array<{ name: string; sizeBytes: number; modifiedMs: number }> = []
      const walk = async (path: string) => {
        const children = await readdir(path, { withFileTypes: true }).catch(() => [])
        for (const child of children) {
          const childPath = join(path, child.name)
          if (child.isDirectory()) await walk(childPath)
          else if (child.isFile()) {
            const name = relative(base, childPath).split(sep).join('/')
            // a file removed since the folder was read (a job's folder going as it is listed)
            // is simply no longer there, as in a bucket's listing
            const info = await stat(childPath).catch((error: unknown) => {
              if (isMissing(error)) return undefined
              throw error
            })
            if (info) found.push({ name, sizeBytes: info.size, modifiedMs: info.mtimeMs })
          }
        }
      }
      await walk(base)
      return found.sort((a, b) => a.name.localeCompare(b.name))
    },
    async remove(name) {
      await rm(pathOf(name), { force: true })
    },
    async removeFolder(folder) {
      await rm(pathOf(folder), { recursive: true, force: true })
    },
    signedReadUrl: async () => undefined,
  }
}

/**
 * Writes `source` as `<path>.part`, flushes it and renames it to `path` (flushing the folder
 * too), so `path` only ever names a whole, durable file; a failed write removes its part file.
 */
async function writeDurably(path: string, source: FileSource): Promise<void> {
  const partPath = `${path}.part`
  try {
    const output = createWriteStream(partPath, { flags: 'wx', highWaterMark: 1024 * 1024 })
    await pipeline(source instanceof Uint8Array ? [source] : source, output)
    await renameDurably(partPath, path)
  } catch (error) {
    await rm(partPath, { force: true })
    throw error
  }
}

/** Reads the first bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, lengthBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(lengthBytes)
    const { bytesRead } = await handle.read(buffer, 0, lengthBytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

async function fileExists(path: string): Promise<boolean> {
  return (await fileSizeOf(path)) !== undefined
}

/** The size of a regular file, or undefined when there is none at `path`. */
async function fileSizeOf(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path)
    return info.isFile() ? info.size : undefined
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ENOENT'
}

/** Flushes a file's bytes, or a folder's entries (which makes a rename in it durable), to disk. */
async function flushToDisk(path: string): Promise<void> {
  const handle = await open(path, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Gives a written file its final name durably: its bytes flushed, renamed, the rename flushed. */
export async function renameDurably(partPath: string, path: string): Promise<void> {
  await flushToDisk(partPath)
  await rename(partPath, path)
  await flushToDisk(dirname(path))
}

/**
 * Writes cut short by a crash or a dropped request leave `incoming-*` files. At start-up none
 * belongs to a live write, so all go; afterwards only those a day old (a slow upload may still
 * be writing one).
 */
export function storageSweep(directory: string): SweepTask {
  return folderSweep({
    label: 'unfinished stored files',
    directory,
    owns: (name) => name.startsWith(temporaryPrefix),
    minimumAgeMs: staleTemporaryAgeMs,
    isCrashLeftover: true,
  })
}
