import { AppError } from '../../http/app-error'
import { refusalOf } from '../jobs/thread-refusal'
import { serveThreadTasks } from '../jobs/thread-task'
import { validatePoiBatchCsv, validatePoiBatchFile } from './poi-batch-file'
import {
  type PoiBatchFileReply,
  type PoiBatchFileTask,
  poiBatchChunkRows,
} from './poi-batch-file-job'

/**
 * The body of a batch-POI file thread (started through poi-batch-file-thread.mjs): reads and
 * checks one filled file and answers its content, its rows as JSON text in chunks of
 * {@link poiBatchChunkRows} (transferred, not copied), or the refusal as data.
 */
serveThreadTasks<PoiBatchFileTask, PoiBatchFileReply>(
  async ({ format, bytes, columns, keepRows }) => {
    let content: Awaited<ReturnType<typeof validatePoiBatchFile>>
    try {
      content =
        format === 'xlsx'
          ? await validatePoiBatchFile(bytes, columns, { keepRows })
          : await validatePoiBatchCsv(bytes, columns, { keepRows })
    } catch (error) {
      if (error instanceof AppError) return { value: { ok: false, refusal: refusalOf(error) } }
      throw error
    }
    const { rows = [], ...rest } = content
    const encoder = new TextEncoder()
    const chunks: ArrayBuffer[] = []
    for (let start = 0; start < rows.length; start += poiBatchChunkRows) {
      const chunk = encoder.encode(JSON.stringify(rows.slice(start, start + poiBatchChunkRows)))
      chunks.push(chunk.buffer as ArrayBuffer)
    }
    return { value: { ok: true, content: rest, chunks }, transfer: chunks }
  },
)
