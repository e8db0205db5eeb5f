import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { createDeflateRaw, type DeflateRaw } from 'node:zlib'
import { Zip, ZipPassThrough } from 'fflate'
import type { FileStorage } from '../../plugins/storage'
import type { PackagePlan, PackageSource } from './offline-package-contents'

/** What a finished package is: its size and SHA-256 as written, and how many files it holds. */
export interface WrittenPackage {
  sizeBytes: number
  sha256: string
  entryCount: number
}

/** fflate's zip writer keeps entry sizes in 32 bits (no ZIP64): larger packages are refused. */
export const maxPackageBytes = 0xffff_ffff - 64 * 1024 * 1024

/**
 * A deflated zip entry compressed by Node's zlib (native, several times faster than fflate's
 * JavaScript deflate on the large JSON of a project with many POIs). fflate's pass-through
 * entry keeps the CRC and size of the bytes pushed; this one hands zlib's output on, which
 * fflate's writer accepts asynchronously (as for its own async entries).
 */
class NativeDeflateEntry extends ZipPassThrough {
  private readonly deflater: DeflateRaw

  constructor(filename: string) {
    super(filename)
    this.compression = 8
    this.deflater = createDeflateRaw({ level: 6 })
    this.deflater.on('data', (data: Buffer) =>
      this.ondata(
        null,
        new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.length),
        false,
      ),
    )
    this.deflater.on('end', () => this.ondata(null, new Uint8Array(0), true))
    // fflate's errors carry a numeric code; zlib's are reported as fflate's "unknown" (0)
    this.deflater.on('error', (error: Error) =>
      this.ondata(Object.assign(error, { code: 0 }), new Uint8Array(0), true),
    )
  }

  protected override process(chunk: Uint8Array<ArrayBuffer>, final: boolean): void {
    this.deflater.write(chunk)
    if (final) this.deflater.end()
  }

  /** Resolves once zlib can take more input (its buffer drained). */
  async paced(signal: AbortSignal): Promise<void> {
    if (this.deflater.writableNeedDrain) await once(this.deflater, 'drain', { signal })
  }
}

async function* chunksOf(source: PackageSource, storage: FileStorage): AsyncGenerator<Uint8Array> {
  if (source.kind === 'text') {
    yield Buffer.from(source.text)
    return
  }
  const stream: Readable =
    source.kind === 'stored'
      ? await storage.open(source.sha256)
      : createReadStream(source.path, { highWaterMark: 256 * 1024 })
  try {
    for await (const chunk of stream) yield chunk as Uint8Array
  } finally {
    stream.destroy()
  }
}

/**
 * Streams the plan's entries into a zip at `path` with fflate, never holding more than a chunk
 * of any file in memory (the disk's pace sets the pace: writes wait for `drain`). The zip is
 * written as `<path>.part`, fsync'd, then renamed to `path`, so `path` only ever names a
 * complete package; on any failure (or `signal`) the part file is removed.
 */
export async function writePackageZip(
  plan: PackagePlan,
  storage: FileStorage,
  path: string,
  options: { signal: AbortSignal; onProgress(fraction: number): void },
): Promise<WrittenPackage> {
  const partPath = `${path}.part`
  const output = createWriteStream(partPath, { flags: 'w' })
  const hash = createHash('sha256')
  let written = 0
  let zipError: Error | null = null
  let markEnded: () => void = () => {}
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve
  })
  const zip = new Zip((error, data, final) => {
    if (error) {
      zipError = error
      markEnded()
      return
    }
    hash.update(data)
    written += data.byteLength
    output.write(data)
    if (final) markEnded()
  })
  const keepPace = async () => {
    if (zipError) throw zipError
    if (written > maxPackageBytes) throw new PackageTooLargeError()
    options.signal.throwIfAborted()
    if (output.writableNeedDrain) await once(output, 'drain', { signal: options.signal })
  }
  try {
    let done = 0
    let lastReported = -1
    for (const entry of plan.entries) {
      const file = entry.isDeflated
        ? new NativeDeflateEntry(entry.path)
        : new ZipPassThrough(entry.path)
      zip.add(file)
      const pace = async () => {
        if (file instanceof NativeDeflateEntry) await file.paced(options.signal)
        await keepPace()
      }
      let pending: Uint8Array | undefined
      // one chunk held back, so the last one can be pushed as final
      for await (const chunk of chunksOf(entry.source, storage)) {
        if (pending) {
          file.push(pending)
          await pace()
        }
        pending = chunk
        done += chunk.byteLength
      }
      file.push(pending ?? new Uint8Array(0), true)
      await pace()
      const fraction = plan.totalBytes === 0 ? 1 : Math.min(1, done / plan.totalBytes)
      // progress in whole percents: listeners hear of real steps only
      if (Math.floor(fraction * 100) !== lastReported) {
        lastReported = Math.floor(fraction * 100)
        options.onProgress(fraction * 0.99)
      }
    }
    zip.end()
    // zlib hands the last entries' bytes on asynchronously: the archive ends after them
    await ended
    if (zipError) throw zipError
    output.end()
    await once(output, 'finish')
    // on disk before the rename makes it the package, and before the row says it is ready
    const handle = await open(partPath, 'r+')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(partPath, path)
    options.onProgress(1)
    return { sizeBytes: written, sha256: hash.digest('hex'), entryCount: plan.entries.length }
  } catch (error) {
    zip.terminate()
    output.destroy()
    await rm(partPath, { force: true })
    throw error
  }
}

/** The package would pass what the zip format without ZIP64 can hold. */
export class PackageTooLargeError extends Error {
  constructor() {
    super('the offline package would be larger than 4 GiB')
    this.name = 'PackageTooLargeError'
  }
}
