import { Worker } from 'node:worker_threads'
import { GmlError, type GmlErrorCode, isGmlError } from '../../../workers/indoor-route/gml-errors'
import { loadIndoorGmlStream } from '../../../workers/indoor-route/load-indoor-gml'
import { graphInfo } from '../../../workers/indoor-route/navigation-graph'
import { defaultThreadLimits } from '../jobs/thread-runner'

/** What the server keeps of a checked GML file. */
export interface GmlSummary {
  stateCount: number
  /** Transition elements in the file (a directed pair counts twice). */
  transitionCount: number
}

/** Limits of one inspection. */
export interface GmlInspectionOptions {
  maxSizeBytes: number
  /** Expected size, for the parser's own bookkeeping. */
  totalSizeBytes?: number
}

/**
 * Parses an IndoorGML document with the same pure parser the browser's routing worker uses, so
 * the server refuses exactly what the browser could not load: not XML, a DOCTYPE (entity
 * expansion, "billion laughs"), too deep, too large, or no navigation network. Throws the
 * parser's GmlError with its code and reason.
 */
export async function inspectGml(
  source: AsyncIterable<Uint8Array | string>,
  options: GmlInspectionOptions,
): Promise<GmlSummary> {
  const built = await loadIndoorGmlStream(source, {
    maxSizeBytes: options.maxSizeBytes,
    ...(options.totalSizeBytes === undefined ? {} : { totalSize: options.totalSizeBytes }),
  })
  const info = graphInfo(built.graph)
  return { stateCount: info.states, transitionCount: info.transitions }
}

/** Messages from the main thread to an inspection thread. */
export type InspectionRequest =
  | { kind: 'start'; options: GmlInspectionOptions }
  | { kind: 'chunk'; bytes: Uint8Array }
  | { kind: 'end' }

/** Messages from an inspection thread. */
export type InspectionReply =
  | { kind: 'ack' }
  | { kind: 'done'; summary: GmlSummary }
  | { kind: 'refused'; code: GmlErrorCode; message: string }
  | { kind: 'failed'; message: string }

const threadEntry = new URL('./inspect-gml-thread.mjs', import.meta.url)

/** Chunks sent ahead of the thread's acknowledgements: enough to keep it busy, little memory. */
const chunksInFlight = 4

/**
 * {@link inspectGml} in a worker thread, for large files: the request thread only reads the
 * file and passes its chunks on (transferred, with backpressure), so other requests keep being
 * answered while a 200 MB document is parsed. The server runs it as a job
 * (`gmlInspectionJob`), so inspections take turns with conversions, fairly between users, and
 * `signal` (cancel, time limit) stops the thread.
 */
export async function inspectGmlInThread(
  source: AsyncIterable<Uint8Array | string>,
  options: GmlInspectionOptions,
  signal?: AbortSignal,
): Promise<GmlSummary> {
  signal?.throwIfAborted()
  // the same heap cap as every job thread: a hostile document stops its thread, not the server
  const worker = new Worker(threadEntry, { resourceLimits: defaultThreadLimits })
  let waitingForAck: (() => void) | undefined
  let inFlight = 0
  const outcome = new Promise<GmlSummary>((resolve, reject) => {
    worker.on('message', (reply: InspectionReply) => {
      if (reply.kind === 'ack') {
        inFlight -= 1
        waitingForAck?.()
        waitingForAck = undefined
      } else if (reply.kind === 'done') resolve(reply.summary)
      else if (reply.kind === 'refused') reject(new GmlError(reply.code, reply.message))
      else reject(new Error(`GML inspection thread failed: ${reply.message}`))
    })
    worker.on('error', reject)
    worker.on('exit', (code) => reject(new Error(`GML inspection thread exited (${code})`)))
    // cancelled or past its time limit: the thread is stopped, not left parsing
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
  // An early refusal (e.g. not XML) must stop the sending loop too.
  let isSettled = false
  outcome.then(
    () => {
      isSettled = true
    },
    () => {
      isSettled = true
      waitingForAck?.()
    },
  )
  try {
    worker.postMessage({ kind: 'start', options } satisfies InspectionRequest)
    for await (const chunk of source) {
      if (isSettled) break
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk
      // A copy the thread may own: stream chunks can share a larger pooled buffer.
      const owned = new Uint8Array(bytes)
      worker.postMessage({ kind: 'chunk', bytes: owned } satisfies InspectionRequest, [
        owned.buffer,
      ])
      inFlight += 1
      while (inFlight >= chunksInFlight && !isSettled) {
        await new Promise<void>((resolve) => {
          waitingForAck = resolve
        })
      }
    }
    if (!isSettled) worker.postMessage({ kind: 'end' } satisfies InspectionRequest)
    return await outcome
  } finally {
    await worker.terminate()
  }
}

/** The reply a thread sends for an error of the inspection. */
export function replyForError(error: unknown): InspectionReply {
  if (isGmlError(error)) return { kind: 'refused', code: error.code, message: error.message }
  return { kind: 'failed', message: String((error as Error)?.message ?? error) }
}
