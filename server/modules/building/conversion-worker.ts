import { parentPort } from 'node:worker_threads'
import { ConversionError } from '../convert/conversion-error'
import { convertModelToSbm } from '../convert/convert-model'
import { modelInputFromFiles } from '../convert/model-input'
import type { ConversionJob, ConversionReply } from './conversion-protocol'

/**
 * The body of a conversion worker thread (started through conversion-thread.mjs): converts one
 * job at a time and answers with the SBM bytes transferred, or the converter's refusal as data
 * (an Error's own fields do not survive the message channel).
 */
const port = parentPort
if (!port) throw new Error('conversion-worker.ts runs only as a worker thread')

port.on('message', async (job: ConversionJob) => {
  let reply: ConversionReply
  try {
    const files = new Map(job.files.map((file) => [file.path, file.bytes] as const))
    const { sbm, summary } = await convertModelToSbm(modelInputFromFiles(job.entryPath, files), {
      role: job.role,
      allowMissingTextures: job.allowMissingTextures,
    })
    reply = { jobId: job.jobId, ok: true, sbm, summary }
    port.postMessage(reply, [sbm.buffer])
    return
  } catch (error) {
    reply =
      error instanceof ConversionError
        ? {
            jobId: job.jobId,
            ok: false,
            refusal: { reason: error.reason, message: error.message, names: error.names },
          }
        : { jobId: job.jobId, ok: false, failure: String((error as Error)?.stack ?? error) }
  }
  port.postMessage(reply)
})
