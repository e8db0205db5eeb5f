import * as Comlink from 'comlink'
import { type DecodeSbmOptions, decodeSbm } from './decode-sbm'
import { copyForPicking, type DecodedSbm, transferablesOf } from './decoded-sbm'
import { fetchModelBytes, type SbmErrorData, toSbmErrorData } from './sbm-error'
import type { WorkerOutcome } from '../protocol/outcome'

/** A decode's answer: the model (buffers transferred), or why it could not be loaded. */
export type DecodeSbmOutcome = WorkerOutcome<DecodedModel, SbmErrorData>

/** A decoded model as the decode worker answers it. */
export interface DecodedModel {
  model: DecodedSbm
  /** Images already decoded here (same order as `model.images`), null where not possible. */
  imageBitmaps: (ImageBitmap | null)[]
  /** With `forPicking`: a copy for the picking worker's `addDecoded` (transfer it on). */
  pickingCopy: DecodedSbm | null
}

/** Options of a decode: what to decode, and whether to make a copy for the picking worker. */
export interface DecodeRequestOptions extends DecodeSbmOptions {
  forPicking?: boolean
}

/** Decodes the embedded images off the main thread, as glTF wants them (no flip, no premultiply). */
async function decodeImages(model: DecodedSbm): Promise<(ImageBitmap | null)[]> {
  if (typeof createImageBitmap !== 'function' || !model.imageBytes) {
    return model.images.map(() => null)
  }
  const bytes = model.imageBytes
  return Promise.all(
    model.images.map(async (image) => {
      if (image.byteLength === 0) return null
      try {
        const blob = new Blob(
          [bytes.subarray(image.byteOffset, image.byteOffset + image.byteLength)],
          {
            type: image.mimeType,
          },
        )
        return await createImageBitmap(blob, {
          imageOrientation: 'none',
          premultiplyAlpha: 'none',
          colorSpaceConversion: 'none',
        })
      } catch {
        // The main thread gets the bytes too and shows the material untextured if they fail.
        return null
      }
    }),
  )
}

/**
 * What the SBM decode worker exposes: stateless, one call per model. The file arrives as a
 * transferred buffer or a URL fetched here, and leaves as a few large transferred buffers (see
 * DecodedSbm). Kept apart from `sbm-decode.worker.ts` so tests can serve it in-process.
 */
export const sbmDecodeApi = {
  async decode(
    source: ArrayBuffer | string,
    options: DecodeRequestOptions = {},
  ): Promise<DecodeSbmOutcome> {
    try {
      const bytes =
        typeof source === 'string' ? await fetchModelBytes(source) : new Uint8Array(source)
      const model = await decodeSbm(bytes, options)
      const pickingCopy = options.forPicking ? copyForPicking(model) : null
      const imageBitmaps = await decodeImages(model)
      const bitmaps = imageBitmaps.filter((bitmap): bitmap is ImageBitmap => bitmap !== null)
      const decoded: DecodeSbmOutcome = {
        ok: true,
        value: { model, imageBitmaps, pickingCopy },
      }
      return Comlink.transfer(decoded, [
        ...transferablesOf(model),
        ...(pickingCopy ? transferablesOf(pickingCopy) : []),
        ...bitmaps,
      ])
    } catch (error) {
      return { ok: false, error: toSbmErrorData(error) }
    }
  },
}
