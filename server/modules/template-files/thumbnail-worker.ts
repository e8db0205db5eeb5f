import { decodeSbm } from '../../../workers/sbm/decode-sbm'
import { serveThreadTasks } from '../jobs/thread-task'
import { renderModelThumbnail } from './model-thumbnail'

/**
 * The body of a thumbnail thread (started through thumbnail-thread.mjs): decodes one SBM and
 * renders its preview PNG, transferred back. Decoding and rasterising take up to a second for a
 * large model, which must not stall the request thread.
 */
serveThreadTasks<{ sbm: Uint8Array }, { png: Uint8Array }>(async ({ sbm }) => {
  const png = renderModelThumbnail(await decodeSbm(sbm))
  return { value: { png }, transfer: [png.buffer as ArrayBuffer] }
})
