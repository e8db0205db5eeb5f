import * as Comlink from 'comlink'
import { type DecodeSbmOptions, decodeSbm } from './decode-sbm'
import { takeForPicking, type DecodedSbm, transferablesOf } from './decoded-sbm'
import { fetchArrivingModel } from './arriving-bytes'
import { isPostedModelSource, type PostedModelSource, receivePostedModel } from './posted-bytes'
import {
  type FetchedModelSource,
  type ForwardedModelSource,
  fetchModelHere,
  isFetchedModelSource,
  isForwardedModelSource,
  receiveForwardedModel,
} from './fetched-bytes'
import { type SbmErrorData, toSbmErrorData } from './sbm-error'
import type { WorkerOutcome } from '../protocol/outcome'
import { type LoadTimings, startLapTimer } from './load-timings'

/** A decode's answer: the model (buffers transferred), or why it could not be loaded. */
export type DecodeSbmOutcome = WorkerOutcome<DecodedModel, SbmErrorData>

/** A decoded model as the decode worker answers it. */
export interface DecodedModel {
  model: DecodedSbm
  /** Images already decoded here (same order as `model.images`), null where not possible. */
  imageBitmaps: (ImageBitmap | null)[]
  /**
   * With `forPicking`: what the picking worker's `addDecoded` needs (transfer it on); the BVHs
   * are in it alone, so `model` then has none (see takeForPicking).
   */
  pickingCopy: DecodedSbm | null
  /**
   * Where the worker's time went (ms): `fetch` (whole file, or with a URL only to the response's
   * headers — the rest arrives during `decode`; 0 for posted bytes), `decode` (its parts as
   * `decode.<phase>`),
   * `takeForPicking`, `images`;
   * `answeredAtEpochMs` is when the answer was posted (performance.timeOrigin + now), so the
   * receiver can tell how long the message took to arrive.
   */
  timings: LoadTimings & { answeredAtEpochMs: number }
  /** The file's size in bytes (of a download made here: the progress bar's last step). */
  fileBytes: number
  /**
   * Of a split decode (DecodeSbmOptions.share): the second worker's timings, whose normals and
   * uvs `model` now holds (set on the main thread when the halves are joined).
   */
  secondTimings?: LoadTimings & { answeredAtEpochMs: number }
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
 * transferred buffer, as a download this worker makes itself for the page
 * ({@link FetchedModelSource}: what the app does when a decode worker is free,
 * engine/building/model-download.ts), as bytes another thread posts while it downloads them
 * ({@link PostedModelSource}: the app's path otherwise), as bytes another decode worker
 * downloads and passes on (a split decode, {@link ForwardedModelSource}) or as a bare URL
 * fetched here; it leaves as a few large transferred buffers (see DecodedSbm). Kept apart from
 * `sbm-decode.worker.ts` so tests can serve it in-process.
 */
export const sbmDecodeApi = {
  async decode(
    source: ArrayBuffer | string | PostedModelSource | FetchedModelSource | ForwardedModelSource,
    options: DecodeRequestOptions = {},
  ): Promise<DecodeSbmOutcome> {
    try {
      const timer = startLapTimer()
      // Posted bytes and a URL are decoded while their bytes arrive (for a URL, `fetch` is the
      // wait for the response's headers); the decode books its waits as `decode.waitForBytes`.
      const bytes =
        typeof source === 'string'
          ? await fetchArrivingModel(source)
          : isPostedModelSource(source)
            ? receivePostedModel(source)
            : isFetchedModelSource(source)
              ? await fetchModelHere(source)
              : isForwardedModelSource(source)
                ? await receiveForwardedModel(source)
                : new Uint8Array(source)
      timer.lap('fetch')
      const model = await decodeSbm(bytes, {
        ...options,
        copyGeometryForPicking: options.forPicking === true,
      })
      timer.lap('decode')
      // The decode's parts, as `decode.<phase>` (they add up to `decode`).
      for (const [phase, ms] of Object.entries(model.timings)) timer.timings[`decode.${phase}`] = ms
      // Images decode off this thread (createImageBitmap) while the picking copy is made.
      const imagesDecoded = decodeImages(model)
      const pickingCopy = options.forPicking ? takeForPicking(model) : null
      timer.lap('takeForPicking')
      const imageBitmaps = await imagesDecoded
      timer.lap('images')
      const bitmaps = imageBitmaps.filter((bitmap): bitmap is ImageBitmap => bitmap !== null)
      const timings = {
        ...timer.timings,
        answeredAtEpochMs: performance.timeOrigin + performance.now(),
      }
      const decoded: DecodeSbmOutcome = {
        ok: true,
        value: {
          model,
          imageBitmaps,
          pickingCopy,
          timings,
          fileBytes: bytes instanceof Uint8Array ? bytes.byteLength : bytes.bytes.byteLength,
        },
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
