import type { JobId } from './ids'
import type { EngineErrorCode } from './errors'
import type { EngineSnapshot } from './snapshot'

/** Progress of one archive extraction, in uncompressed bytes (throttled to ~10 ms by the worker). */
export interface ArchiveProgressedEvent {
  jobId: JobId
  doneBytes: number
  totalBytes: number
  doneEntries: number
  totalEntries: number
}

/** A command that failed, for logs and toasts; the same failure lands in `snapshot.lastError`. */
export interface CommandFailedEvent {
  command: string
  code: EngineErrorCode
  message: string
}

/** Events the engine emits, named `'domain.pastParticiple'`, with their payloads. */
export interface EngineEvents {
  /** A new snapshot was published (at most once per animation frame). */
  'snapshot.changed': EngineSnapshot
  'archive.progressed': ArchiveProgressedEvent
  'command.failed': CommandFailedEvent
}

/** Any event name. */
export type EngineEventName = keyof EngineEvents
