import { AppError } from '../../http/app-error'
import { refusalOf } from '../jobs/thread-refusal'
import { serveThreadTasks } from '../jobs/thread-task'
import { type PoiListBodyReply, type PoiListBodyTask, poiListChunkItems } from './poi-list-body-job'
import { parsePoiListBodyText, poiListKeys } from './poi-list-body'

/**
 * The body of a POI list body thread (started through poi-list-body-thread.mjs): parses and
 * validates one list call's body and answers the body without its list, and the list as JSON
 * text in chunks of {@link poiListChunkItems} items (transferred, not copied), which the request
 * thread parses one at a time between other requests; or the refusal as data.
 */
serveThreadTasks<PoiListBodyTask, PoiListBodyReply>(async ({ call, bytes }) => {
  let body: Record<string, unknown>
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
    body = parsePoiListBodyText(call, text) as Record<string, unknown>
  } catch (error) {
    if (error instanceof AppError) return { value: { ok: false, refusal: refusalOf(error) } }
    throw error
  }
  const key = poiListKeys[call]
  const list = body[key] as unknown[]
  const encoder = new TextEncoder()
  const chunks: ArrayBuffer[] = []
  for (let start = 0; start < list.length; start += poiListChunkItems) {
    const bytesOfChunk = encoder.encode(
      JSON.stringify(list.slice(start, start + poiListChunkItems)),
    )
    chunks.push(bytesOfChunk.buffer as ArrayBuffer)
  }
  const { [key]: _list, ...fields } = body
  return { value: { ok: true, fields, chunks }, transfer: chunks }
})
