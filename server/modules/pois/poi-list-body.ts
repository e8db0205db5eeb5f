import type { z } from 'zod'
import secureJson from 'secure-json-parse'
import {
  createPoiListBodySchema,
  deletePoiListBodySchema,
  updatePoiListBodySchema,
} from '../../../contract/pois'
import { maxInputDepth } from '../../../contract/json-text'
import { AppError } from '../../http/app-error'
import { parseInput } from '../../http/define-route'
import { checkJsonText, type JsonTextLimits, shapeError } from '../../http/input-shape'

/**
 * The bodies of the POI list calls (`creatPoiList`, `updataPoiList`, `deletePoiList`): up to
 * 100,000 POIs each (contract/pois.ts `maxListItems`, issue 16), so up to 64 MiB of JSON.
 * Parsing and validating that much takes seconds of CPU (a 64 MiB list: ~1 s to scan and parse,
 * ~1–3 s for the contract's checks), so a large body is parsed in a worker thread
 * (./poi-list-body-job.ts); this module is the parse itself, the same on either thread.
 */

/**
 * Largest body of a list call: 100,000 POIs of up to ~600 bytes of JSON each (a create or
 * update item with long texts). A lower limit would refuse lists the contract allows, and none
 * that keeps a parse on the request thread under a few milliseconds would allow more than a
 * few thousand POIs; the parse runs in a worker thread instead.
 */
export const poiListBodyLimitBytes = 64 * 1024 * 1024

/**
 * Shape limits of a list body: up to ~40 keys per POI (every field, a few custom properties),
 * counted in the text before it is parsed (the API's default is 10,000 keys per body).
 */
export const poiListInputLimits: JsonTextLimits = {
  maxDepth: maxInputDepth,
  maxKeys: 4_000_000,
  maxValues: 5_000_000,
}

/** The list calls and the contract schema of each one's body. */
export const poiListBodySchemas = {
  creatPoiList: createPoiListBodySchema,
  updataPoiList: updatePoiListBodySchema,
  deletePoiList: deletePoiListBodySchema,
} as const

/** A list call whose body may be parsed off the request thread. */
export type PoiListCall = keyof typeof poiListBodySchemas

/** A list call's body as its contract parses it. */
export type PoiListBody<Call extends PoiListCall> = z.output<(typeof poiListBodySchemas)[Call]>

/** The key of each body's long list (its other fields are few and small). */
export const poiListKeys = {
  creatPoiList: 'list',
  updataPoiList: 'list',
  deletePoiList: 'ids',
} as const satisfies Record<PoiListCall, string>

/**
 * Parses the JSON text of a list call's body exactly as the server parses any JSON body
 * (server/app.ts: an empty body is no body, the shape is checked in the text before
 * JSON.parse, `__proto__` and `constructor.prototype` keys are refused as malformed JSON) and
 * validates it with the call's contract schema. Throws the AppError the answer carries.
 */
export function parsePoiListBodyText<Call extends PoiListCall>(
  call: Call,
  text: string,
): PoiListBody<Call> {
  const schema = poiListBodySchemas[call]
  let value: unknown
  if (text !== '') {
    const problem = checkJsonText(text, poiListInputLimits)
    if (problem !== undefined) throw shapeError(problem, poiListInputLimits)
    try {
      value = secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' })
    } catch {
      throw new AppError('validation', 'request.invalidJson')
    }
  }
  return parseInput(schema, value ?? {}, poiListInputLimits) as PoiListBody<Call>
}
