import { rm } from 'node:fs/promises'
import type { ResourceLimits } from 'node:worker_threads'
import type { DatabaseConfig } from '../../config'
import type { StorageLocation } from '../../plugins/storage'
import { createThreadRunner, type ThreadRunner } from '../jobs/thread-runner'
import type { PackagePlan } from './offline-package-contents'
import { removePoiSpools } from './offline-package-poi-spool'
import type { WrittenPackage } from './offline-package-zip'

/** What the package thread is asked: the plan's entries (plain data) and where to write. */
export interface PackageThreadTask {
  entries: PackagePlan['entries']
  totalBytes: number
  /** Where the file store is (stored entries are read from it). */
  storage: StorageLocation
  /** The database POI lists (`pois` sources) are read from; absent: a plan has none. */
  database?: DatabaseConfig
  /** Where the POI lists' spool files go, and the zip itself without `storedAs`. */
  path: string
  /** The zip's name in the store's `offline-packages` area (absent: written at `path`). */
  storedAs?: string
  forceZip64: boolean
}

/** What the package thread answers: the written package and the thread's own memory. */
export interface PackageThreadReply extends WrittenPackage {
  /**
   * The thread's memory when it started writing and at most while it wrote, sampled at each
   * progress report (whole percents): the build's share of the process's RSS, which the
   * request thread's memory does not show. `heap` is V8's heap in use, `buffers` the memory
   * outside it (the chunks being read and written, until the collector frees them).
   */
  threadMemory: ThreadMemory
}

/** A thread's memory, in bytes. */
export interface ThreadMemory {
  heapStartBytes: number
  heapPeakBytes: number
  buffersStartBytes: number
  buffersPeakBytes: number
}

/** Writes package zips in a worker thread. */
export interface PackageWriter {
  /**
   * Writes `plan` as a zip at `path` (as {@link writePackageZip} does) in a worker thread, so
   * its reading, hashing, CRC and deflate bookkeeping never hold up a request. Aborting
   * `signal` terminates the thread (the process closes its files) and the part file and the
   * POI lists' spool files are removed here; progress comes from the thread.
   */
  write(
    plan: Pick<PackagePlan, 'entries' | 'totalBytes'>,
    path: string,
    options: {
      signal: AbortSignal
      onProgress(fraction: number): void
      forceZip64?: boolean
      /** The zip's name in the store's `offline-packages` area; absent: written at `path`. */
      storedAs?: string
    },
  ): Promise<PackageThreadReply>
  /** Ends the threads. */
  close(): Promise<void>
}

const threadEntry = new URL('./offline-package-thread.mjs', import.meta.url)

/**
 * A package thread's memory: streams hold a few chunks at a time, so 256 MiB of heap is far
 * more than a build needs. What a build's thread does grow is outside its heap: the chunks it
 * has read and written, freed when the collector next runs (the young generation's size, 4 or
 * 16 MiB, made no difference to it; see docs/orders-and-points.md).
 */
const packageThreadLimits: ResourceLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 16,
  codeRangeSizeMb: 64,
  stackSizeMb: 4,
}

/**
 * The writer of the files of the file store at `storage` (a folder or a bucket). Its threads start
 * with the first build and end after ten idle minutes: starting one costs the TypeScript
 * loader, a build every few minutes should not pay it each time.
 */
export function createPackageWriter(options: {
  storage: StorageLocation
  /** Where the threads read POI lists from (their own connections); none without it. */
  database?: DatabaseConfig
  resourceLimits?: ResourceLimits
}): PackageWriter {
  let runner: ThreadRunner | undefined
  return {
    async write(plan, path, { signal, onProgress, forceZip64 = false, storedAs }) {
      runner ??= createThreadRunner({
        entry: threadEntry,
        resourceLimits: options.resourceLimits ?? packageThreadLimits,
        idleMs: 10 * 60_000,
      })
      const task: PackageThreadTask = {
        entries: plan.entries,
        totalBytes: plan.totalBytes,
        storage: options.storage,
        database: options.database,
        path,
        ...(storedAs === undefined ? {} : { storedAs }),
        forceZip64,
      }
      try {
        return await runner.run<PackageThreadReply>(task, { signal, onProgress })
      } catch (error) {
        // a terminated thread removed nothing: its part file and POI spools go here (a bucket's
        // multipart upload cut short is left to its lifecycle rule; no object appeared)
        await rm(`${path}.part`, { force: true })
        await removePoiSpools(path)
        throw error
      }
    },
    async close() {
      await runner?.close()
    },
  }
}
