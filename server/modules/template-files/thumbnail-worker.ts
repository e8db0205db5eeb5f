import { readFile } from 'node:fs/promises'
import { decodeSbm } from '../../../workers/sbm/decode-sbm'
import { serveThreadTasks } from '../jobs/thread-task'
import { renderModelThumbnail } from './model-thumbnail'

/**
 * The body of a thumbnail thread (started through thumbnail-thread.mjs): reads one SBM from its
 * (staging) file, decodes it and renders its preview PNG, transferred back. Reading, decoding and
 * rasterising a large model take up to seconds, which must not stall the request thread.
 */
serveThreadTasks<{ sbmPath: string }, { png: Uint8Array }>(async ({ sbmPath }) => {
  const png = renderModelThumbnail(await decodeSbm(await readFile(sbmPath)))
  return { value: { png }, transfer: [png.buffer as ArrayBuffer] }
})
