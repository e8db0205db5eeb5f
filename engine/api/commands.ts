import type { ArchiveLimits } from '../../workers/unzip/archive-limits'
import type { ArchiveInput } from '../../workers/unzip/archive-source'
import type { ExtractedArchive } from '../../workers/unzip/extracted-archive'
import type { ArchiveListing } from '../../workers/unzip/zip-reader'
import type { BuildingCommands } from './building-commands'
import type { CityCommands } from './city-commands'
import type { JobId } from './ids'
import type { WebGLInfo } from './snapshot'

/**
 * THE contract between the UI and the engine: every command, `'domain.verb'`, with its
 * arguments and result. The engine's handler table is typed from this map, so adding a command
 * here without a handler does not compile.
 */
export interface EngineCommands extends BuildingCommands, CityCommands {
  /**
   * Lists a zip's entries (names, sizes, compression) from its central directory, in a worker.
   * Refuses unsafe names and archives over the limits before anything is extracted.
   */
  'archive.list': {
    args: { source: ArchiveInput; limits?: Partial<ArchiveLimits> }
    result: ArchiveListing
  }
  /**
   * Extracts all or the named entries (a name ending in `/` selects a folder) in a worker,
   * reporting `archive.progressed` and `snapshot.loading`; cancel with `signal` or `job.cancel`.
   */
  'archive.extract': {
    args: {
      source: ArchiveInput
      names?: readonly string[]
      limits?: Partial<ArchiveLimits>
      /** Default true: compare each entry's CRC-32. */
      verifyChecksums?: boolean
      signal?: AbortSignal
    }
    result: ExtractedArchive
  }
  /** Cancels a running job listed in `snapshot.loading.jobs`. */
  'job.cancel': {
    args: { jobId: JobId }
    result: { wasRunning: boolean }
  }
  /** Gives the engine the canvas it draws into (null to let it go). */
  'view.attachCanvas': {
    args: { canvas: HTMLCanvasElement | OffscreenCanvas | null }
    result: undefined
  }
  /** Creates (once) the WebGL2 context of the engine's canvas and reports what it runs on. */
  'view.probeWebGL': {
    args: undefined
    result: WebGLInfo
  }
}

/** Any command name. */
export type CommandName = keyof EngineCommands
/** The arguments of a command. */
export type CommandArgs<Name extends CommandName> = EngineCommands[Name]['args']
/** What a command resolves to. */
export type CommandResult<Name extends CommandName> = EngineCommands[Name]['result']
/** `run(name)` for commands without arguments, `run(name, args)` for the others. */
export type CommandArgsTuple<Name extends CommandName> =
  CommandArgs<Name> extends undefined ? [] : [args: CommandArgs<Name>]
/** One handler per command: a missing or mistyped handler is a compile error. */
export type CommandHandlers = {
  [Name in CommandName]: (args: CommandArgs<Name>) => Promise<CommandResult<Name>>
}
