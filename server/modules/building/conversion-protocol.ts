import type { ConversionRefusal } from '../convert/conversion-error'
import type { ConversionSummary } from '../convert/convert-model'

/** One conversion for a worker thread: the uploaded files by path and which one to convert. */
export interface ConversionJob {
  jobId: number
  entryPath: string
  files: Array<{ path: string; bytes: Uint8Array }>
  role: 'shell' | 'floor' | 'model'
  /** Convert without textures the upload did not bring (listed in the warnings). */
  allowMissingTextures: boolean
}

/** A worker's answer: the SBM, the converter's refusal, or an unexpected failure. */
export type ConversionReply =
  | { jobId: number; ok: true; sbm: Uint8Array<ArrayBuffer>; summary: ConversionSummary }
  | {
      jobId: number
      ok: false
      refusal: { reason: ConversionRefusal; message: string; names: string[] }
    }
  | { jobId: number; ok: false; failure: string }
