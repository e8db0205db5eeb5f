import { type BuildingSnapshot, createInitialBuildingSnapshot } from './building-snapshot'
import { type CitySnapshot, createInitialCitySnapshot } from './city-snapshot'
import type { JobId } from './ids'
import type { EngineErrorCode } from './errors'

/** What the WebGL2 context of the engine's canvas reports. */
export type WebGLInfo =
  | {
      isAvailable: true
      /** e.g. "WebGL 2.0 (OpenGL ES 3.0 Chromium)" */
      version: string
      shadingLanguageVersion: string
      vendor: string
      /** The unmasked GPU name where the browser reveals it, e.g. "ANGLE (…SwiftShader…)". */
      renderer: string
      maxTextureSizePixels: number
    }
  | { isAvailable: false }

/** One running job, as the UI shows it in a progress bar. */
export interface LoadingJob {
  jobId: JobId
  /** What runs: an extraction, a building model download + decode, or a GML file load. */
  kind: 'archive.extract' | 'model.load' | 'gml.load'
  doneBytes: number
  totalBytes: number
}

/** The most recent failed command (cancellations are not failures). */
export interface LastError {
  code: EngineErrorCode
  command: string
  message: string
}

/**
 * Everything the UI may know about the engine: small, plain, JSON-safe, never a three.js or
 * worker object. A new snapshot object is published at most once per animation frame, with a
 * higher `revision`; unchanged parts keep their identity so a store can skip them.
 */
export interface EngineSnapshot {
  readonly revision: number
  readonly loading: {
    readonly jobs: readonly LoadingJob[]
    /** Sums over the running jobs, for one overall progress bar. */
    readonly doneBytes: number
    readonly totalBytes: number
  }
  readonly lastError: LastError | null
  readonly view: {
    readonly hasCanvas: boolean
    /** Null until `view.probeWebGL` has run for the current canvas. */
    readonly webgl: WebGLInfo | null
  }
  /** The building scene (engine/building); `isOpen` false when none is open. */
  readonly building: BuildingSnapshot
  /** The city scene (engine/city); `isOpen` false when none is open. */
  readonly city: CitySnapshot
  /** Measured by the frame loop: how many frames the engine ran and how long their work took. */
  readonly frameStats: {
    readonly frameCount: number
    readonly lastFrameWorkMs: number
    readonly longestFrameWorkMs: number
  }
}

/** The snapshot of an engine that has done nothing yet. */
export function createInitialSnapshot(): EngineSnapshot {
  return {
    revision: 0,
    loading: { jobs: [], doneBytes: 0, totalBytes: 0 },
    lastError: null,
    view: { hasCanvas: false, webgl: null },
    building: createInitialBuildingSnapshot(),
    city: createInitialCitySnapshot(),
    frameStats: { frameCount: 0, lastFrameWorkMs: 0, longestFrameWorkMs: 0 },
  }
}
