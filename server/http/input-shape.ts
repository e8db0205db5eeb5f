import { AppError } from './app-error'

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

/** True when JSON text opens more than `maxDepth` arrays or objects inside each other. */
export function isJsonNestedDeeperThan(text: string, maxDepth: number = maxInputDepth): boolean {
  return (
    checkJsonText(text, {
      maxDepth,
      maxKeys: Number.POSITIVE_INFINITY,
      maxValues: Number.POSITIVE_INFINITY,
    }) === 'tooDeep'
  )
}

/** Parses JSON text from a client: refused with `validation` when too big a shape or malformed. */
export function parseClientJson(text: string): unknown {
  const problem = checkJsonText(text)
  if (problem !== undefined) throw shapeError(problem)
  try {
    return JSON.parse(text)
  } catch {
    throw new AppError('validation', 'request.invalidJson')
  }
}

/** Where a parsed input breaks a rule of {@link checkInputShape}. */
export type InputShapeProblem =
  /** `field`: dotted path of the value or key holding a NUL ('' for the whole input). */
  { kind: 'nulText'; field: string } | { kind: ShapeLimit }

/** A shape refused whatever the schema: too deep, too many keys, too many values. */
export type ShapeLimit = 'tooDeep' | 'tooManyKeys' | 'tooManyValues'

/**
 * The refusal of an input over a shape limit; the message says the limit, so a real client
 * can tell what to fix.
 */
export function shapeError(problem: ShapeLimit | { kind: ShapeLimit }): AppError {
  const kind = typeof problem === 'string' ? problem : problem.kind
  if (kind === 'tooDeep')
    return new AppError('validation', 'input.tooDeep', { maximum: maxInputDepth })
  if (kind === 'tooManyKeys') {
    return new AppError('validation', 'input.tooManyKeys', { maximum: maxInputKeys })
  }
  return new AppError('validation', 'input.tooManyValues', { maximum: maxInputValues })
}

/**
 * Walks a parsed input once, iteratively (an explicit stack, no recursion, no path copied per
 * level): the first value nested deeper than {@link maxInputDepth}, or past the
 * {@link maxInputValues}th value, or the first string or key
 * holding a NUL character (PostgreSQL cannot store it, and it truncates names in C-based
 * tools), or undefined when the input is fine. Object and array values are visited in order.
 */
export function checkInputShape(value: unknown): InputShapeProblem | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? { kind: 'nulText', field: '' } : undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  // Each frame is one container being walked; paths are rebuilt from the frames only on a find.
  interface Frame {
    keys: string[] | undefined
    container: Record<string, unknown> | unknown[]
    position: number
  }
  const frames: Frame[] = [frameOf(value as Record<string, unknown> | unknown[])]
  let valueCount = 0
  let keyCount = 0
  const pathOf = (last?: string) => {
    const parts: string[] = []
    for (const frame of frames) {
      const at = frame.position - 1
      if (at < 0) continue
      parts.push(frame.keys === undefined ? String(at) : (frame.keys[at] as string))
    }
    if (last !== undefined) parts[parts.length - 1] = last
    return parts.join('.')
  }
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame
    const length =
      frame.keys === undefined ? (frame.container as unknown[]).length : frame.keys.length
    if (frame.position >= length) {
      frames.pop()
      continue
    }
    const at = frame.position++
    if (++valueCount > maxInputValues) return { kind: 'tooManyValues' }
    let inner: unknown
    if (frame.keys === undefined) {
      inner = (frame.container as unknown[])[at]
    } else {
      const key = frame.keys[at] as string
      if (++keyCount > maxInputKeys) return { kind: 'tooManyKeys' }
      if (key.includes('\u0000')) {
        return { kind: 'nulText', field: pathOf(key.replaceAll('\u0000', '\\0')) }
      }
      inner = (frame.container as Record<string, unknown>)[key]
    }
    if (typeof inner === 'string') {
      if (inner.includes('\u0000')) return { kind: 'nulText', field: pathOf() }
    } else if (typeof inner === 'object' && inner !== null) {
      if (frames.length >= maxInputDepth) return { kind: 'tooDeep' }
      frames.push(frameOf(inner as Record<string, unknown> | unknown[]))
    }
  }
  return undefined
}

function frameOf(container: Record<string, unknown> | unknown[]) {
  return {
    keys: Array.isArray(container) ? undefined : Object.keys(container),
    container,
    position: 0,
  }
}
