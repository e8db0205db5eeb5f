import type { ConversionRefusal } from '../convert/conversion-error'
import type { ConversionSummary } from '../convert/convert-model'

/** One conversion: the uploaded files by path and which one to convert. Plain data. */
export interface ConversionJob {
  entryPath: string
  files: Array<{ path: string; bytes: Uint8Array }>
  role: 'shell' | 'floor' | 'model'
  /** Floors the SBM header lists (a floor model of a merged structure carries its floor). */
  floors?: Array<{ id: string; name: string; elevationMeters: number }>
  /** Convert without textures the upload did not bring (listed in the warnings). */
  allowMissingTextures: boolean
}

/** A thumbnail of a stored SBM (an upload that needed no conversion). Plain data. */
export interface PreviewJob {
  kind: 'preview'
  sbm: Uint8Array
}

/** What a conversion thread is asked: a conversion, or a preview of an SBM. */
export type ConversionThreadInput = ConversionJob | PreviewJob

/** A preview thread answer: the PNG, or null (no triangles, or an SBM it could not draw). */
export interface PreviewReply {
  preview: Uint8Array | null
}

/** A conversion thread's answer: the SBM, or the converter's refusal as data. */
export type ConversionReply =
  | {
      ok: true
      sbm: Uint8Array<ArrayBuffer>
      preview: Uint8Array | null
      summary: ConversionSummary
    }
  | { ok: false; refusal: { reason: ConversionRefusal; message: string; names: string[] } }
