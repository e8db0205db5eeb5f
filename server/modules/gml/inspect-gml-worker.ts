import { parentPort } from 'node:worker_threads'
import {
  type GmlInspectionOptions,
  type InspectionReply,
  type InspectionRequest,
  inspectGml,
  replyForError,
} from './inspect-gml'

/**
 * The body of a GML inspection thread (started through inspect-gml-thread.mjs): receives the
 * file in chunks, acknowledges each once parsed (the sender's backpressure), and answers with
 * the summary or the parser's refusal as data (an Error's own fields do not cross the channel).
 */
const port = parentPort
if (!port) throw new Error('inspect-gml-worker.ts runs only as a worker thread')

const pending: Uint8Array[] = []
let isEnded = false
let wake: (() => void) | undefined

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    const next = pending.shift()
    if (next !== undefined) {
      yield next
      port?.postMessage({ kind: 'ack' } satisfies InspectionReply)
      continue
    }
    if (isEnded) return
    await new Promise<void>((resolve) => {
      wake = resolve
    })
  }
}

const start = (options: GmlInspectionOptions) => {
  inspectGml(chunks(), options).then(
    (summary) => port.postMessage({ kind: 'done', summary } satisfies InspectionReply),
    (error: unknown) => port.postMessage(replyForError(error)),
  )
}

port.on('message', (request: InspectionRequest) => {
  if (request.kind === 'start') start(request.options)
  else if (request.kind === 'chunk') pending.push(request.bytes)
  else isEnded = true
  wake?.()
  wake = undefined
})
