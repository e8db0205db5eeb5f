import type { EventEmitter } from './event-emitter'
import type { EngineEvents } from '../api/events'
import type { JobId } from '../api/ids'
import type { EngineSnapshot, LoadingJob } from '../api/snapshot'
import type { UnzipService } from '../workers/unzip-client'

/** The snapshot's parts that command handlers change (revision and frame stats are the loop's). */
export type EngineState = Omit<EngineSnapshot, 'revision' | 'frameStats'>

/** A running job's own handle: its id, a signal that fires on cancel, and a progress sink. */
export interface JobHandle {
  jobId: JobId
  signal: AbortSignal
  reportProgress(doneBytes: number, totalBytes: number): void
  finish(): void
}

/**
 * What command handlers get from the engine. Handlers live beside their domain
 * (engine/archive, engine/view) and never see the Engine class itself.
 */
export interface EngineContext {
  getState(): EngineState
  /** Replaces parts of the state; the snapshot follows at the next frame. */
  updateState(patch: Partial<EngineState>): void
  events: EventEmitter<EngineEvents>
  startJob(kind: LoadingJob['kind'], callerSignal?: AbortSignal): JobHandle
  cancelJob(jobId: JobId): boolean
  unzip: UnzipService
  /** The canvas given with `view.attachCanvas` (or the constructor), or null. */
  getCanvas(): HTMLCanvasElement | OffscreenCanvas | null
  /** Calls `listener` after `view.attachCanvas` changed the canvas; returns the unsubscribe. */
  onCanvasChanged(listener: () => void): () => void
}
