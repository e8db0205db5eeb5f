import {
  checkJsonText,
  type JsonTextLimits,
  maxInputDepth,
  maxInputKeys,
  maxInputValues,
  type ShapeLimit,
} from '../../contract/json-text'
import { AppError } from './app-error'

export {
  checkJsonText,
  type JsonTextLimits,
  maxInputDepth,
  maxInputKeys,
  maxInputValues,
  type ShapeLimit,
} from '../../contract/json-text'

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

/**
 * The refusal of an input over a shape limit; the message says the limit, so a real client
 * can tell what to fix.
 */
export function shapeError(
  problem: ShapeLimit | { kind: ShapeLimit },
  limits: JsonTextLimits = defaultInputLimits,
): AppError {
  const kind = typeof problem === 'string' ? problem : problem.kind
  if (kind === 'tooDeep')
    return new AppError('validation', 'input.tooDeep', { maximum: limits.maxDepth })
  if (kind === 'tooManyKeys') {
    return new AppError('validation', 'input.tooManyKeys', { maximum: limits.maxKeys })
  }
  return new AppError('validation', 'input.tooManyValues', { maximum: limits.maxValues })
}

/** The API's shape limits; a route may raise them (define-route's `inputLimits`). */
export const defaultInputLimits: JsonTextLimits = {
  maxDepth: maxInputDepth,
  maxKeys: maxInputKeys,
  maxValues: maxInputValues,
}

/**
 * Walks a parsed input once, iteratively (an explicit stack, no recursion, no path copied per
 * level): the first value nested deeper than {@link maxInputDepth}, or past the
 * {@link maxInputValues}th value, or the first string or key
 * holding a NUL character (PostgreSQL cannot store it, and it truncates names in C-based
 * tools), or undefined when the input is fine. Object and array values are visited in order.
 */
export function checkInputShape(
  value: unknown,
  limits: JsonTextLimits = defaultInputLimits,
): InputShapeProblem | undefined {
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
    if (++valueCount > limits.maxValues) return { kind: 'tooManyValues' }
    let inner: unknown
    if (frame.keys === undefined) {
      inner = (frame.container as unknown[])[at]
    } else {
      const key = frame.keys[at] as string
      if (++keyCount > limits.maxKeys) return { kind: 'tooManyKeys' }
      if (key.includes('\u0000')) {
        return { kind: 'nulText', field: pathOf(key.replaceAll('\u0000', '\\0')) }
      }
      inner = (frame.container as Record<string, unknown>)[key]
    }
    if (typeof inner === 'string') {
      if (inner.includes('\u0000')) return { kind: 'nulText', field: pathOf() }
    } else if (typeof inner === 'object' && inner !== null) {
      if (frames.length >= limits.maxDepth) return { kind: 'tooDeep' }
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
