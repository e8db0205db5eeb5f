import { setImmediate as nextTurn } from 'node:timers/promises'
import type { JobKind, JobQueue } from '../jobs/job-queue'
import { appErrorOf, type ThreadRefusal } from '../jobs/thread-refusal'
import { createThreadRunner, type ThreadRunner } from '../jobs/thread-runner'
import type { PoiBatchColumn } from './poi-batch-columns'
import type { PoiBatchContent, PoiBatchRow } from './poi-batch-file'

/**
 * A filled batch-POI file (XLSX up to 10 MB, or CSV; up to 5,000 rows of ~40 cells) is unzipped,
 * parsed and checked cell by cell in a worker thread, as a job of its editor in the job queue's
 * CPU lane: on the request thread that took hundreds of milliseconds for a full sheet, during
 * which no other request was answered (issue 13).
 */

/** Rows per chunk the thread answers; the request thread parses one chunk per turn. */
export const poiBatchChunkRows = 500

/** What the thread is asked: the file's bytes (moved, not copied) and what to check them by. */
export interface PoiBatchFileTask {
  format: 'xlsx' | 'csv'
  bytes: Uint8Array
  columns: readonly PoiBatchColumn[]
  keepRows: boolean
}

/** What the thread answers: the content, its rows as JSON chunks, or the refusal. */
export type PoiBatchFileReply =
  | { ok: true; content: PoiBatchContent; chunks: ArrayBuffer[] }
  | { ok: false; refusal: ThreadRefusal }

/** Reads filled batch-POI files off the request thread. */
export interface PoiBatchFileReader {
  /**
   * The file's content (and its rows with `keepRows`), or the refusal the sheet checks give
   * (not an XLSX / CSV, unsafe zip, wrong columns, bad cells listed). Runs as a job of `userId`.
   */
  read(
    userId: string,
    file: {
      bytes: Uint8Array
      columns: readonly PoiBatchColumn[]
      /** How to read it; by default an XLSX when it is a zip, else a CSV. */
      format?: 'xlsx' | 'csv'
      keepRows?: boolean
    },
  ): Promise<PoiBatchContent & { rows?: PoiBatchRow[] }>
  /** Ends the threads. */
  close(): Promise<void>
}

/** An XLSX is a zip; anything else is read as CSV (whose own checks refuse binary). */
export function batchFileFormatOf(bytes: Uint8Array): 'xlsx' | 'csv' {
  return bytes[0] === 0x50 && bytes[1] === 0x4b ? 'xlsx' : 'csv'
}

/** Builds the reader; its threads start on the first file and end when idle. */
export function createPoiBatchFileReader(dependencies: { jobs: JobQueue }): PoiBatchFileReader {
  let runner: ThreadRunner | undefined
  const job: JobKind<PoiBatchFileTask, PoiBatchFileReply> = {
    name: 'poi.readBatchFile',
    lane: 'cpu',
    // a full sheet reads in about a second; far longer means the machine is overloaded
    timeLimitMs: 2 * 60_000,
    run(task, { signal }) {
      runner ??= createThreadRunner({
        entry: new URL('./poi-batch-file-thread.mjs', import.meta.url),
      })
      return runner.run<PoiBatchFileReply>(task, {
        signal,
        transfer: [task.bytes.buffer as ArrayBuffer],
      })
    },
  }

  return {
    async read(userId, file) {
      // the thread gets a copy of its own: the caller's bytes may be stored after the check
      const bytes = Uint8Array.prototype.slice.call(file.bytes)
      const reply = await dependencies.jobs.submit(job, userId, {
        format: file.format ?? batchFileFormatOf(bytes),
        bytes,
        columns: file.columns,
        keepRows: file.keepRows ?? false,
      }).result
      if (!reply.ok) throw appErrorOf(reply.refusal)
      if (!file.keepRows) return reply.content
      const rows: PoiBatchRow[] = []
      const decoder = new TextDecoder()
      for (const chunk of reply.chunks) {
        // one chunk per turn of the event loop
        await nextTurn()
        for (const row of JSON.parse(decoder.decode(chunk)) as PoiBatchRow[]) rows.push(row)
      }
      return { ...reply.content, rows }
    },
    async close() {
      await runner?.close()
    },
  }
}
