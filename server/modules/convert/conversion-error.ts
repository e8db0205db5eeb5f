import type { ErrorKind } from '../../../contract/errors'
import type { MessageId } from '../../../contract/messages'
import { AppError } from '../../http/app-error'

/**
 * Why a model was refused. Stable codes, so the web client can show a translated sentence and
 * fill in `names`; `message` is the English sentence for logs, the CLI and the API envelope.
 */
export type ConversionRefusal =
  /** The file is not glTF/GLB/DAE/FBX, or its content does not match its extension. */
  | 'unsupportedInput'
  /** glTF 1.0 (or another version that is not 2.x). */
  | 'unsupportedGltfVersion'
  /** Buffers or textures the model refers to were not provided (`names` lists them). */
  | 'missingResources'
  /** Required extensions this converter cannot decode (`names` lists them). */
  | 'unsupportedExtensions'
  /** A text encoding the importer cannot read even after transcoding. */
  | 'unsupportedEncoding'
  /** Textures in a format that neither browsers nor the converter can decode (`names`). */
  | 'unsupportedTextures'
  /**
   * Textures whose header declares more pixels than the texture budget (or none at all), refused
   * before anything decodes them (`names` lists them).
   */
  | 'oversizedTextures'
  /** The importer could not make sense of the file. */
  | 'unreadableModel'
  /** The file parses but holds no triangle mesh to show. */
  | 'noMeshes'

/** A model the converter refuses, with a reason a user can act on. */
export class ConversionError extends Error {
  /** `convert.<reason>`, in the style of the other workers' error codes. */
  readonly code: `convert.${ConversionRefusal}`
  /** The contract's error kind: missing files are a bad request, the rest an unsupported file. */
  readonly errorKind: ErrorKind

  constructor(
    readonly reason: ConversionRefusal,
    message: string,
    readonly names: string[] = [],
  ) {
    super(message)
    this.name = 'ConversionError'
    this.code = `convert.${reason}`
    this.errorKind =
      reason === 'missingResources'
        ? 'validation'
        : reason === 'oversizedTextures'
          ? 'tooLarge'
          : 'unsupportedFile'
  }
}

/**
 * The AppError a refused conversion answers: the catalogue message of its reason
 * (`convert.<reason>`), naming the file and the missing or unsupported things; the converter's
 * own English, which says more, stays in the English message.
 */
export function conversionRefusal(error: ConversionError, fileName: string): AppError {
  return new (AppError as new (...values: unknown[]) => AppError)(
    error.errorKind,
    error.code satisfies MessageId,
    { file: fileName, names: error.names.join(', ') },
    {
      details: [{ file: fileName, reason: error.code, names: error.names }],
      englishText: error.message,
    },
  )
}
