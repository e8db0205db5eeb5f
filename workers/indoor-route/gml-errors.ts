import type { ErrorKind } from '../../contract/errors'

/**
 * Why an IndoorGML file or a routing query was refused. The UI translates by code (the English
 * message is for logs and the CLI), and a server can answer with the mapped catalogue kind.
 */
export type GmlErrorCode =
  | 'gml.empty'
  | 'gml.notXml'
  | 'gml.malformedXml'
  | 'gml.truncated'
  | 'gml.doctypeForbidden'
  | 'gml.tooDeep'
  | 'gml.tooLarge'
  | 'gml.aborted'
  | 'gml.noNavigationNetwork'
  | 'gml.notLoaded'
  | 'gml.unknownState'
  | 'gml.invalidQuery'

/** The contract catalogue entry each code answers with when it crosses the /web/ API. */
export const gmlErrorKinds: Record<GmlErrorCode, ErrorKind> = {
  'gml.empty': 'validation',
  'gml.notXml': 'unsupportedFile',
  'gml.malformedXml': 'unsupportedFile',
  'gml.truncated': 'unsupportedFile',
  'gml.doctypeForbidden': 'unsupportedFile',
  'gml.tooDeep': 'unsupportedFile',
  'gml.tooLarge': 'tooLarge',
  'gml.aborted': 'validation',
  'gml.noNavigationNetwork': 'unsupportedFile',
  'gml.notLoaded': 'conflict',
  'gml.unknownState': 'notFound',
  'gml.invalidQuery': 'validation',
}

/**
 * An expected failure with a stable code. Thrown by the parser, the graph builder and the route
 * queries; the worker keeps `code` when the error crosses comlink (see indoor-route.worker.ts).
 */
export class GmlError extends Error {
  override readonly name = 'GmlError'
  readonly code: GmlErrorCode

  constructor(code: GmlErrorCode, message: string) {
    super(message)
    this.code = code
  }

  /** The /web/ error catalogue kind for this failure. */
  get errorKind(): ErrorKind {
    return gmlErrorKinds[this.code]
  }
}

/** True for a GmlError, or for its structured-clone copy that came back from a worker. */
export function isGmlError(value: unknown): value is Error & { code: GmlErrorCode } {
  if (!(value instanceof Error)) return false
  const code: unknown = (value as Error & { code?: unknown }).code
  return typeof code === 'string' && code in gmlErrorKinds
}
