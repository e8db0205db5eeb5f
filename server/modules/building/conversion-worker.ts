import { ConversionError } from '../convert/conversion-error'
import { convertModelToSbm } from '../convert/convert-model'
import { modelInputFromFiles } from '../convert/model-input'
import { serveThreadTasks } from '../jobs/thread-task'
import { loadModelCodecs } from '../convert/codecs'
import { renderPreviewPng } from '../convert/preview-image'
import type {
  ConversionReply,
  ConversionThreadInput,
  PreviewJob,
  PreviewReply,
} from './conversion-protocol'

/** Draws an SBM's thumbnail; an SBM the reader cannot draw gets none (the upload still counts). */
async function previewOf(job: PreviewJob): Promise<PreviewReply> {
  try {
    const { io } = await loadModelCodecs()
    // an SBM is a GLB 2.0 file; its extra BVH chunk is not read
    return { preview: renderPreviewPng(await io.readBinary(job.sbm)) }
  } catch {
    return { preview: null }
  }
}

/**
 * The body of a conversion thread (started through conversion-thread.mjs): converts one job at a
 * time and answers with the SBM bytes transferred, or the converter's refusal as data (an
 * Error's own fields do not survive the message channel).
 */
serveThreadTasks<ConversionThreadInput, ConversionReply | PreviewReply>(async (job) => {
  if ('kind' in job) {
    const reply = await previewOf(job)
    return { value: reply, transfer: reply.preview ? [reply.preview.buffer as ArrayBuffer] : [] }
  }
  try {
    const files = new Map(job.files.map((file) => [file.path, file.bytes] as const))
    const { sbm, preview, summary } = await convertModelToSbm(
      modelInputFromFiles(job.entryPath, files),
      {
        role: job.role,
        ...(job.floors ? { floors: job.floors } : {}),
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
