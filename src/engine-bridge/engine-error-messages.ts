import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { EngineErrorCode } from '../../engine/api'

/**
 * What a user reads for each engine error code. A Record over the code union: a new code
 * without a message does not compile.
 */
const engineErrorMessages: Record<EngineErrorCode, MessageDescriptor> = {
  'archive.notZip': msg`The file is not a zip archive.`,
  'archive.truncated': msg`The zip archive is incomplete. Upload or download it again.`,
  'archive.corrupt': msg`The zip archive is damaged and cannot be opened.`,
  'archive.checksumMismatch': msg`A file in the zip archive is damaged (its checksum does not match).`,
  'archive.unsafeEntryName': msg`The zip archive contains a file path that points outside its folder, so it was refused.`,
  'archive.duplicateEntry': msg`The zip archive contains the same file name twice.`,
  'archive.tooManyEntries': msg`The zip archive contains too many files.`,
  'archive.entryTooLarge': msg`A file in the zip archive is too large to open here.`,
  'archive.tooLarge': msg`The zip archive is too large to open here.`,
  'archive.suspiciousCompression': msg`The zip archive expands to an implausible size and was refused as unsafe.`,
  'archive.encrypted': msg`The zip archive is password-protected. Upload it without a password.`,
  'archive.unsupportedMethod': msg`The zip archive uses a compression method that is not supported. Save it again with standard (deflate) compression.`,
  'archive.entryNotFound': msg`The requested file is not in the zip archive.`,
  'archive.aborted': msg`Extraction was cancelled.`,
  'view.noCanvas': msg`The 3D view is not ready yet.`,
  'building.notOpen': msg`No building is open.`,
  'engine.invalidArgument': msg`The 3D view was given an invalid value.`,
  'gml.loadFailed': msg`Failed to load GML file.`,
  'gml.notLoaded': msg`Load a GML path file first.`,
  'gml.unknownState': msg`The route point is not part of the GML path network.`,
  'city.noContainer': msg`The map is not ready yet.`,
  'city.notOpen': msg`No city is open.`,
  'city.unknownTileset': msg`This oblique photography layer is not open in the map.`,
  'city.tilesetNotReady': msg`This oblique photography layer is still loading, try again in a moment.`,
  'city.basemapFailed': msg`The basemap could not be loaded.`,
  'engine.disposed': msg`The 3D view was closed.`,
  'engine.workerFailed': msg`A background task failed to start. Reload the page and try again.`,
  'engine.internal': msg`Something went wrong in the 3D view, please try again.`,
}

/** The translatable message for an engine error code; render it with lingui's `t` or `i18n._`. */
export function engineErrorMessage(code: EngineErrorCode): MessageDescriptor {
  return engineErrorMessages[code]
}
