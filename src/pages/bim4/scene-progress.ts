/** The parts of the engine snapshot the progress reads (readonly, as the store hands them out). */
export interface LoadProgressSource {
  readonly loading: {
    readonly jobs: readonly unknown[]
    readonly doneBytes: number
    readonly totalBytes: number
  }
  readonly building: {
    readonly models: readonly { readonly loadState: 'loading' | 'success' | 'error' }[]
    readonly gml: { readonly isLoading: boolean }
  }
}

/** One number for "how far has the scene loaded", from the snapshot. */
export interface OverallLoadProgress {
  isLoading: boolean
  /** 0..1: the mean of downloaded bytes and settled models (1 when nothing loads). */
  fraction: number
  doneBytes: number
  totalBytes: number
  modelCount: number
  /** Models that finished, successfully or not. */
  settledModelCount: number
}

/**
 * Combines the byte counts of the engine's running jobs with the models' load states: bytes give
 * a smooth bar while files download, model states say when decoding has finished too.
 */
export function overallLoadProgress(snapshot: LoadProgressSource): OverallLoadProgress {
  const models = snapshot.building.models
  const settledModelCount = models.filter((model) => model.loadState !== 'loading').length
  const { doneBytes, totalBytes } = snapshot.loading
  const isLoading =
    settledModelCount < models.length ||
    snapshot.loading.jobs.length > 0 ||
    snapshot.building.gml.isLoading
  const modelFraction = models.length === 0 ? 1 : settledModelCount / models.length
  const byteFraction = totalBytes > 0 ? Math.min(1, doneBytes / totalBytes) : modelFraction
  // Bytes finish before decoding does, so half the bar is downloads and half settled models.
  const fraction = isLoading ? (byteFraction + modelFraction) / 2 : 1
  return {
    isLoading,
    fraction,
    doneBytes,
    totalBytes,
    modelCount: models.length,
    settledModelCount,
  }
}
