import * as Comlink from 'comlink'
import { type DecodeSbmOptions, decodeSbm } from './decode-sbm'
import { copyForPicking, type DecodedSbm, transferablesOf } from './decoded-sbm'
import { fetchModelBytes, type SbmErrorData, toSbmErrorData } from './sbm-error'

/** A decode's answer: the model (buffers transferred), or why it could not be loaded. */
export type DecodeSbmOutcome =
  | {
      ok: true
      model: DecodedSbm
      /** Images already decoded here (same order as `model.images`), null where not possible. */
      imageBitmaps: (ImageBitmap | null)[]
      /** With `forPicking`: a copy for the picking worker's `addDecoded` (transfer it on). */
      pickingCopy: DecodedSbm | null
    }
  | { ok: false; error: SbmErrorData }

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
 * The SBM decode worker: stateless, one call per model. The file arrives as a transferred
 * buffer or a URL fetched here, and leaves as a few large transferred buffers (see DecodedSbm).
 */
const api = {
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
      return Comlink.transfer({ ok: true, model, imageBitmaps, pickingCopy }, [
        ...transferablesOf(model),
        ...(pickingCopy ? transferablesOf(pickingCopy) : []),
        ...bitmaps,
      ])
    } catch (error) {
      return { ok: false, error: toSbmErrorData(error) }
    }
  },
}

/** The decode worker's API, for `Comlink.wrap<SbmDecodeWorkerApi>(worker)` (import the type only). */
export type SbmDecodeWorkerApi = typeof api

Comlink.expose(api)
