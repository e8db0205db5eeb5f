import type { MessageId } from './messages'

/**
 * Bounds on the shape of anything parsed from a client (JSON and form bodies, query strings,
 * multipart fields, uploaded JSON files), checked before any other work. Real inputs of the API
 * nest a handful of levels (a GIS model's properties, a building manifest's floors); a body
 * nested thousands of levels deep only exists to make recursive walkers (zod, our own checks)
 * stall the event loop or overflow the stack, so it is refused while it is still text.
 */
export const maxInputDepth = 64

/**
 * Most values (strings, numbers, keys' values, items) in one input: the largest list a contract
 * takes is 100,000 feature ids (contract/city.ts), sent beside the model's name and up to 64 KB
 * of properties, hence the room above it. Validation allocates per value, and per wrong value
 * far more (zod collects an issue for each), so a 1 MB body of half a million tiny items is
 * refused here, counted, before zod sees it.
 */
export const maxInputValues = 120_000

/**
 * Most object keys in one input, all objects together. Real bodies have tens; a building
 * manifest of 500 floors a few thousand. V8 builds objects with tens of thousands of keys
 * slowly (60,000 keys: ~0.2 s to parse), so more are refused while the body is still text.
 */
export const maxInputKeys = 10_000

/** Limits of {@link checkJsonText}; the defaults are the API's. */
export interface JsonTextLimits {
  maxDepth: number
  maxKeys: number
  maxValues: number
}

const defaultJsonTextLimits: JsonTextLimits = {
  maxDepth: maxInputDepth,
  maxKeys: maxInputKeys,
  maxValues: maxInputValues,
}

/**
 * Why JSON text from a client is refused before it is parsed, or undefined: nested deeper than
 * `maxDepth`, or more than `maxKeys` keys, or more than `maxValues` values in all. One pass over
 * the characters, no allocation: brackets, colons and commas inside strings (with their
 * escapes) do not count, and malformed text is left for JSON.parse to refuse. JSON.parse itself
 * is iterative, but building objects of tens of thousands of keys costs V8 hundreds of
 * milliseconds, and every later walk pays per level and per value.
 */
export function checkJsonText(
  text: string,
  limits: JsonTextLimits = defaultJsonTextLimits,
): ShapeLimit | undefined {
  let depth = 0
  let keys = 0
  // Each comma separates two values (or two key-value pairs): the count bounds the values.
  let separators = 0
  let isInString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (isInString) {
      if (code === 0x5c /* \ */) index++
      else if (code === 0x22 /* " */) isInString = false
    } else if (code === 0x22) {
      isInString = true
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (++depth > limits.maxDepth) return 'tooDeep'
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth--
    } else if (code === 0x3a /* : */) {
      if (++keys > limits.maxKeys) return 'tooManyKeys'
    } else if (code === 0x2c /* , */) {
      if (++separators >= limits.maxValues) return 'tooManyValues'
    }
  }
  return undefined
}

/** A shape refused whatever the schema: too deep, too many keys, too many values. */
export type ShapeLimit = 'tooDeep' | 'tooManyKeys' | 'tooManyValues'

/** The message of a refused shape; its parameter is the limit. */
export const shapeLimitMessages = {
  tooDeep: { id: 'input.tooDeep', maximum: maxInputDepth },
  tooManyKeys: { id: 'input.tooManyKeys', maximum: maxInputKeys },
  tooManyValues: { id: 'input.tooManyValues', maximum: maxInputValues },
} as const satisfies Record<ShapeLimit, { id: MessageId; maximum: number }>

/**
 * JSON text a client sent inside a field (a form's `properties`, `tile_coordinates`): parsed
 * only when its shape is within the limits the server applies to whole bodies, since nothing
 * checked it as a body. Gives the value, the shape refused, or `malformed`.
 */
export function parseJsonField(
  text: string,
): { value: unknown } | { problem: ShapeLimit | 'malformed' } {
  const problem = checkJsonText(text)
  if (problem !== undefined) return { problem }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    return { problem: 'malformed' }
  }
}
