import { setImmediate as nextTurn } from 'node:timers/promises'
import type { JobKind, JobQueue } from '../jobs/job-queue'
import { appErrorOf, type ThreadRefusal } from '../jobs/thread-refusal'
import { createThreadRunner, type ThreadRunner } from '../jobs/thread-runner'
import {
  type PoiListBody,
  type PoiListCall,
  parsePoiListBodyText,
  poiListKeys,
} from './poi-list-body'

/**
 * Bodies up to this size are parsed on the request thread (the copy of a few dozen POIs the
 * editors send: validating ~300 POIs with the contract takes a few milliseconds); larger ones
 * in a worker thread, where a 64 MiB list's seconds of parsing delay no other request. (At
 * 256 KiB a 2,000-POI list, ~200 KB, was validated here in one go: ~40 ms, issue 13.)
 */
export const poiListThreadMinBytes = 32 * 1024

/**
 * Items per chunk the thread answers: the request thread parses one chunk (~300 KB of JSON,
 * about 2 ms) per turn of its event loop, so other requests are served in between.
 */
export const poiListChunkItems = 500

/** What the thread is asked: the call and its body's bytes (moved, not copied). */
export interface PoiListBodyTask {
  call: PoiListCall
  bytes: Uint8Array
}

/** What the thread answers: the body without its list and the list in JSON chunks, or a refusal. */
export type PoiListBodyReply =
  | { ok: true; fields: Record<string, unknown>; chunks: ArrayBuffer[] }
  | { ok: false; refusal: ThreadRefusal }

/** Parses the bodies of the POI list calls, large ones off the request thread. */
export interface PoiListBodies {
  /**
   * The validated body of `call` from its raw JSON bytes, or the refusal any JSON body of the
   * API gets (malformed, too deep, too many keys or values) or the contract's (fields named).
   * A large body is parsed as a job of `userId` in the job queue's CPU lane.
   */
  parse<Call extends PoiListCall>(
    userId: string,
    call: Call,
    bytes: Buffer,
  ): Promise<PoiListBody<Call>>
  /** Ends the threads. */
  close(): Promise<void>
}

/** Builds the parser; its threads start on the first large body and end when idle. */
export function createPoiListBodies(dependencies: { jobs: JobQueue }): PoiListBodies {
  let runner: ThreadRunner | undefined
  const job: JobKind<PoiListBodyTask, PoiListBodyReply> = {
    name: 'poi.parseListBody',
    lane: 'cpu',
    // 64 MiB parses in a few seconds; far longer means the machine is overloaded
    timeLimitMs: 2 * 60_000,
    run(task, { signal }) {
      runner ??= createThreadRunner({
        entry: new URL('./poi-list-body-thread.mjs', import.meta.url),
      })
      return runner.run<PoiListBodyReply>(task, {
        signal,
        transfer: [task.bytes.buffer as ArrayBuffer],
      })
    },
  }

  return {
    async parse(userId, call, bytes) {
      if (bytes.byteLength <= poiListThreadMinBytes) {
        return parsePoiListBodyText(call, bytes.toString('utf8'))
      }
      // the body's own memory moves to the thread: a Buffer sharing a larger one is copied first
      const owned =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? bytes
          : Uint8Array.prototype.slice.call(bytes)
      const reply = await dependencies.jobs.submit(job, userId, {
        call,
        bytes: new Uint8Array(owned.buffer, owned.byteOffset, owned.byteLength),
      }).result
      if (!reply.ok) throw appErrorOf(reply.refusal)
      const list: unknown[] = []
      const decoder = new TextDecoder()
      for (const chunk of reply.chunks) {
        // one chunk per turn of the event loop
        await nextTurn()
        for (const item of JSON.parse(decoder.decode(chunk)) as unknown[]) list.push(item)
      }
      return { ...reply.fields, [poiListKeys[call]]: list } as never
    },
    async close() {
      await runner?.close()
    },
  }
}
