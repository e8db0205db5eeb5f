import { uploadStore } from './upload-store'

/** Options of {@link startFakeProgress}. */
export interface FakeProgressOptions {
  fromPercent?: number
  toPercent?: number
  tickMs?: number
  stepPercent?: number
}

/** SPEC §4: the fallback bar runs from 10 to 90 percent in 16 ms ticks. */
export const fakeProgressDefaults: Readonly<Required<FakeProgressOptions>> = {
  fromPercent: 10,
  toPercent: 90,
  tickMs: 16,
  stepPercent: 1,
}

/**
 * Moves a progress value from 10 % to 90 % one step per 16 ms tick, then holds there until the
 * caller reports the real outcome. Only for transports that report no byte progress
 * (decisions.md: upload progress is real wherever it can be). Returns a function that stops it.
 */
export function startFakeProgress(
  onProgress: (percent: number) => void,
  options: FakeProgressOptions = {},
): () => void {
  const { fromPercent, toPercent, tickMs, stepPercent } = { ...fakeProgressDefaults, ...options }
  let percent: number = fromPercent
  onProgress(percent)
  const timer = setInterval(() => {
    percent = Math.min(toPercent, percent + stepPercent)
    onProgress(percent)
    if (percent >= toPercent) clearInterval(timer)
  }, tickMs)
  return () => clearInterval(timer)
}

/** {@link startFakeProgress} applied to a row of the upload window, marking it uploading. */
export function startFakeRowProgress(rowId: string, options?: FakeProgressOptions): () => void {
  uploadStore.update(rowId, { status: 'uploading' })
  return startFakeProgress(
    (percent) => uploadStore.update(rowId, { progressPercent: percent }),
    options,
  )
}
