import type { DatabaseConfig } from '../../config'
import { openFileStorage } from '../../plugins/open-storage'
import type { FileStorage } from '../../plugins/storage'
import { serveThreadTasks } from '../jobs/thread-task'
import type { PackageSource } from './offline-package-entry'
import { openPoiListReader, type PoiListReader } from './offline-package-pois'
import type { PackageThreadReply, PackageThreadTask, ThreadMemory } from './offline-package-writer'
import { writePackageZip } from './offline-package-zip'

/**
 * The body of an offline package thread (started through offline-package-thread.mjs): writes
 * one plan's zip with {@link writePackageZip}, reporting progress, and answers what it wrote.
 * The plan's in-memory texts arrive as Uint8Arrays (Buffers are cloned as such) and are read
 * as Buffers again; stored files are read from the same file store the server writes (the same
 * folder, or the same bucket), and POI lists from the same database over this thread's own
 * connection, all of a build's lists from one snapshot.
 */

/** The file store of each location a task named (folder or bucket), opened once per thread. */
const stores = new Map<string, Promise<FileStorage>>()

/** The POI list reader of each database a task named, connected once per thread. */
const poiListReaders = new Map<string, PoiListReader>()

function poiListReaderOf(config: DatabaseConfig): PoiListReader {
  const key = JSON.stringify(config)
  let reader = poiListReaders.get(key)
  if (reader === undefined) {
    reader = openPoiListReader(config)
    poiListReaders.set(key, reader)
  }
  return reader
}

/** `source` with its bytes as Buffers (yazl takes Buffers only). */
function withBuffers(source: PackageSource): PackageSource {
  switch (source.kind) {
    case 'bytes': {
      // a Buffer crosses threads as a plain Uint8Array
      const bytes: Uint8Array = source.bytes
      return {
        kind: 'bytes',
        bytes: Buffer.isBuffer(bytes)
          ? bytes
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      }
    }
    case 'script':
      return { ...source, of: withBuffers(source.of) }
    case 'parts':
      return { kind: 'parts', parts: source.parts.map(withBuffers) }
    default:
      return source
  }
}

/** Stopped by terminating the thread: a signal that never aborts. */
const neverAborted = new AbortController().signal

serveThreadTasks<PackageThreadTask, PackageThreadReply>(async (task, { reportProgress }) => {
  const key = JSON.stringify(task.storage)
  let storage = stores.get(key)
  if (storage === undefined) {
    storage = openFileStorage(task.storage)
    stores.set(key, storage)
  }
  const start = process.memoryUsage()
  const memory: ThreadMemory = {
    heapStartBytes: start.heapUsed,
    heapPeakBytes: start.heapUsed,
    buffersStartBytes: start.external,
    buffersPeakBytes: start.external,
  }
  const poiLists = task.database === undefined ? undefined : poiListReaderOf(task.database)
  const store = await storage
  await poiLists?.begin()
  const written = await writePackageZip(
    {
      entries: task.entries.map((entry) => ({ ...entry, source: withBuffers(entry.source) })),
      totalBytes: task.totalBytes,
    },
    { storage: store, poiLists },
    task.path,
    {
      signal: neverAborted,
      forceZip64: task.forceZip64,
      ...(task.storedAs === undefined
        ? {}
        : { storedAs: { files: store.named('offline-packages'), name: task.storedAs } }),
      onProgress(fraction) {
        // this thread's isolate only (the RSS is the whole process's)
        const usage = process.memoryUsage()
        memory.heapPeakBytes = Math.max(memory.heapPeakBytes, usage.heapUsed)
        memory.buffersPeakBytes = Math.max(memory.buffersPeakBytes, usage.external)
        reportProgress(fraction)
      },
    },
  ).finally(() => poiLists?.end())
  // only where the process exposes the collector (the build benchmark): what is garbage goes
  // just after the answer (not in the build's time), so the RSS measured then is what it holds
  const collect = (globalThis as { gc?: () => void }).gc
  if (collect) setTimeout(collect, 50)
  return { value: { ...written, threadMemory: memory } }
})
