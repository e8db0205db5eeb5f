import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { finished } from 'node:stream/promises'
import { deflatePiece, type PieceSum } from './deflated-pieces'
import type { PoiListReader, PoiListTally } from './offline-package-pois'

/** The POI lists of one build, each read from the database once (see {@link readEachPoiListOnce}). */
export interface PoiListsReadOnce extends Pick<PoiListReader, 'open'> {
  /**
   * The project's list deflated as one piece (deflated-pieces.ts), deflated once however many
   * deflated entries hold it: the first call reads the database and deflates, keeping the
   * deflated bytes in a spool file; later calls read that file.
   */
  openDeflated(
    projectId: string,
    tally: (read: PoiListTally) => void,
  ): { deflated: Readable; sum: Promise<PieceSum> }
  /** Removes the spool files (the build has written every entry, or failed). */
  remove(): Promise<void>
}

/**
 * The spool file of a build's `index`th POI list: beside the package's part file, named after
 * it, so whatever removes a cut build's files (the writer on a stop, recovery at start) finds it.
 */
const spoolPathOf = (packagePath: string, index: number | string) =>
  `${packagePath}.pois-${index}.part`

/** Removes every spool file a build writing `packagePath` may have left (its thread was stopped). */
export async function removePoiSpools(packagePath: string): Promise<void> {
  const folder = dirname(packagePath)
  const prefix = `${basename(packagePath)}.pois-`
  const names = await readdir(folder).catch(() => [])
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map((name) => rm(join(folder, name), { force: true })),
  )
}

/**
 * A build's POI lists read once each, however many entries hold one: a package has the list
 * twice, as `pois.json` and inside the viewer's `data.js`, and making its JSON is the database's
 * biggest piece of a build's work (with 10,000 POIs, more than deflating both copies). The
 * first entry to open a list streams it from `reader` and copies each chunk into a spool file
 * beside the package as it passes; every later entry reads that file (the page cache, in
 * practice). Neither copy is held in memory, and both hold the same bytes. The list's tally is
 * heard once, from the database read. Deflated entries (both, in a package) read it through
 * `openDeflated`: then it is deflated once too, and the spool holds the deflated bytes.
 */
export function readEachPoiListOnce(
  reader: Pick<PoiListReader, 'open'>,
  packagePath: string,
): PoiListsReadOnce {
  /** Per project: its spool file, and the file's path once it is complete. */
  const spools = new Map<string, { path: string; file: WriteStream; complete: Promise<string> }>()
  /** Per project: its deflated piece's spool, and what the piece holds. */
  const deflatedSpools = new Map<string, { spool: Readable; sum: Promise<PieceSum> }>()
  /**
   * `source` copied into a new spool file as it passes; `complete` names the file once it is
   * whole (and fails with the source).
   */
  const spoolOf = (key: string, source: Readable, name: number | string) => {
    const path = spoolPathOf(packagePath, name)
    const file = createWriteStream(path)
    const copying = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        if (file.write(chunk)) next(null, chunk)
        else file.once('drain', () => next(null, chunk))
      },
      flush(next) {
        file.end()
        finished(file).then(() => next(), next)
      },
    })
    const complete = finished(copying, { readable: false }).then(() => path)
    // a list no later entry reads fails with its own entry; nobody else awaits it
    complete.catch(() => {})
    spools.set(key, { path, file, complete })
    source.on('error', (error) => copying.destroy(error))
    return { copied: source.pipe(copying), complete }
  }
  return {
    open(projectId: string, tally: (read: PoiListTally) => void): Readable {
      const spooled = spools.get(projectId)
      if (spooled !== undefined) {
        return Readable.from(spoolBytes(spooled.complete), { objectMode: false })
      }
      return spoolOf(projectId, reader.open(projectId, tally), spools.size).copied
    },
    openDeflated(projectId: string, tally: (read: PoiListTally) => void) {
      const spooled = deflatedSpools.get(projectId)
      if (spooled !== undefined) {
        return { deflated: spooled.spool, sum: spooled.sum }
      }
      const piece = deflatePiece(reader.open(projectId, tally))
      const { copied, complete } = spoolOf(
        `deflated ${projectId}`,
        piece.deflated,
        `${spools.size}.deflated`,
      )
      // every later entry reads the spool, each from the start
      const later = {
        get spool() {
          return Readable.from(spoolBytes(complete), { objectMode: false })
        },
        sum: piece.sum,
      }
      deflatedSpools.set(projectId, later)
      return { deflated: copied, sum: piece.sum }
    },
    async remove() {
      for (const { path, file } of spools.values()) {
        // a build that failed mid-list: its spool is closed before it is removed
        if (!file.closed) {
          file.destroy()
          await finished(file).catch(() => {})
        }
        await rm(path, { force: true })
      }
    },
  }
}

/** The spool's bytes once it is complete (a failed first read fails this one too). */
async function* spoolBytes(spooled: Promise<string>) {
  yield* createReadStream(await spooled, { highWaterMark: 256 * 1024 })
}
