import { ConversionError } from '../convert/conversion-error'
import { convertModelToSbm } from '../convert/convert-model'
import { modelInputFromFiles } from '../convert/model-input'
import { serveThreadTasks } from '../jobs/thread-task'
import type { ConversionJob, ConversionReply } from './conversion-protocol'

/**
 * The body of a conversion thread (started through conversion-thread.mjs): converts one job at a
 * time and answers with the SBM bytes transferred, or the converter's refusal as data (an
 * Error's own fields do not survive the message channel).
 */
serveThreadTasks<ConversionJob, ConversionReply>(async (job) => {
  try {
    const files = new Map(job.files.map((file) => [file.path, file.bytes] as const))
    const { sbm, preview, summary } = await convertModelToSbm(
      modelInputFromFiles(job.entryPath, files),
      {
        role: job.role,
        allowMissingTextures: job.allowMissingTextures,
      },
    )
    const transfer: ArrayBuffer[] = [sbm.buffer]
    if (preview) transfer.push(preview.buffer as ArrayBuffer)
    return { value: { ok: true, sbm, preview, summary }, transfer }
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error
    const refusal = { reason: error.reason, message: error.message, names: error.names }
    return { value: { ok: false, refusal } }
  }
})
