/**
 * The one error catalogue of the /web/ API (decisions.md "API shape"). Every answer carries one
 * of these codes in its envelope, and the HTTP status beside it so generic tools work too.
 * '0' and '2011' are fixed by SPEC §9; the others are ours.
 */
export const errorCatalogue = {
  ok: { code: '0', httpStatus: 200 },
  validation: { code: '1000', httpStatus: 400 },
  badCredentials: { code: '1001', httpStatus: 401 },
  paymentRequired: { code: '1002', httpStatus: 402 },
  forbidden: { code: '1003', httpStatus: 403 },
  notFound: { code: '1004', httpStatus: 404 },
  /** The connection sent no complete request in time (answered at the socket). */
  requestTimeout: { code: '1008', httpStatus: 408 },
  conflict: { code: '1009', httpStatus: 409 },
  tooLarge: { code: '1013', httpStatus: 413 },
  unsupportedFile: { code: '1015', httpStatus: 415 },
  rateLimited: { code: '1029', httpStatus: 429 },
  /** The request line and headers together exceed 16 KB (answered at the socket). */
  headersTooLarge: { code: '1031', httpStatus: 431 },
  internal: { code: '1500', httpStatus: 500 },
  unavailable: { code: '1503', httpStatus: 503 },
  sessionTimeout: { code: '2011', httpStatus: 401 },
} as const

export type ErrorKind = keyof typeof errorCatalogue
export type ResponseCode = (typeof errorCatalogue)[ErrorKind]['code']

/** SPEC §9: the OK code. */
export const OK_CODE = errorCatalogue.ok.code
/** SPEC §9: session timeout, also used for a missing, expired or revoked token. */
export const OVERTIME_CODE = errorCatalogue.sessionTimeout.code

/** Finds the kind for a code, e.g. to map a client-side answer back to its meaning. */
export function errorKindOfCode(code: string): ErrorKind | undefined {
  for (const [kind, entry] of Object.entries(errorCatalogue)) {
    if (entry.code === code) return kind as ErrorKind
  }
  return undefined
}
