import * as Comlink from 'comlink'
import { NOT_VALID_SBM_MESSAGE } from '../../workers/sbm/sbm-error'
import type { DecodeSbmOutcome, SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import type { ModelLoadErrorCode } from '../api/building-snapshot'
import { EngineError } from '../api/errors'
import type { JobHandle } from '../core/engine-context'
import type { WorkerPool } from '../workers/create-worker-client'
import { DownloadError, fetchWithProgress } from './fetch-with-progress'

/**
 * Downloads one SBM model with progress on the job and decodes it in the decode pool, with the
 * copy the picking worker needs. The bytes move to the worker without a copy.
 */
export async function downloadAndDecodeSbm(
  model: { url: string; sizeBytes: number },
  job: JobHandle,
  decodePool: WorkerPool<SbmDecodeWorkerApi>,
): Promise<DecodeSbmOutcome> {
  const bytes = await fetchWithProgress(model.url, {
    expectedSizeBytes: model.sizeBytes,
    signal: job.signal,
    onProgress: (doneBytes, totalBytes) => job.reportProgress(doneBytes, totalBytes),
  })
  return decodePool.run<DecodeSbmOutcome>(
    (api) => api.decode(Comlink.transfer(bytes, [bytes]), { forPicking: true }),
    { signal: job.signal },
  )
}

/** What the snapshot says about a model whose download or decode threw. */
export function modelLoadFailure(error: unknown): { code: ModelLoadErrorCode; message: string } {
  if (error instanceof DownloadError) return { code: 'sbm.downloadFailed', message: error.message }
  if (error instanceof EngineError && error.code === 'engine.workerFailed') {
    return { code: 'engine.workerFailed', message: error.message }
  }
  return { code: 'sbm.invalid', message: NOT_VALID_SBM_MESSAGE }
}
