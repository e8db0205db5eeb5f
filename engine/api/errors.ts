/**
 * Why an archive could not be listed or extracted: the engine's own names for the unzip
 * worker's codes (engine/workers/unzip-client.ts checks at compile time that they agree).
 */
export type ArchiveErrorCode =
  | 'archive.notZip'
  | 'archive.truncated'
  | 'archive.corrupt'
  | 'archive.checksumMismatch'
  | 'archive.unsafeEntryName'
  | 'archive.duplicateEntry'
  | 'archive.tooManyEntries'
  | 'archive.entryTooLarge'
  | 'archive.tooLarge'
  | 'archive.suspiciousCompression'
  | 'archive.encrypted'
  | 'archive.unsupportedMethod'
  | 'archive.entryNotFound'
  | 'archive.aborted'

/**
 * Every way an engine command can fail, as a stable code the UI maps to a translated message
 * (src/engine-bridge/engine-error-messages.ts must name each one; the compiler checks it).
 */
export type EngineErrorCode =
  | ArchiveErrorCode
  /** A view command ran before a canvas was attached. */
  | 'view.noCanvas'
  /** A building command ran while no building scene is open. */
  | 'building.notOpen'
  /** A command argument is out of range or names nothing (the detail says which). */
  | 'engine.invalidArgument'
  /** An IndoorGML file could not be fetched or read: 'Failed to load GML file.' */
  | 'gml.loadFailed'
  /** A route was asked for while no GML network is loaded. */
  | 'gml.notLoaded'
  /** A route end names a State the loaded network does not have. */
  | 'gml.unknownState'
  /** A city command ran before `city.attachContainer` gave the map an element. */
  | 'city.noContainer'
  /** A city command ran while no city is open. */
  | 'city.notOpen'
  /** A city command named a tileset that is not open. */
  | 'city.unknownTileset'
  /** A tileset was asked for before its tileset.json had loaded. */
  | 'city.tilesetNotReady'
  /** The basemap (online style or PMTiles archive) could not be read. */
  | 'city.basemapFailed'
  /** The command ran after `dispose()`. */
  | 'engine.disposed'
  /** A worker could not start or crashed; the work may succeed if retried. */
  | 'engine.workerFailed'
  /** An unexpected failure: a bug, reported with its message for the logs. */
  | 'engine.internal'

/** A failed command: `code` says what happened, `detail` names the entry, limit or job. */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  readonly code: EngineErrorCode
  readonly detail: string | undefined

  constructor(code: EngineErrorCode, message: string, detail?: string) {
    super(message)
    this.code = code
    this.detail = detail
  }
}

/** Wraps anything thrown into an EngineError, keeping codes that are already there. */
export function toEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new EngineError('engine.internal', message)
}
