import { AppError } from './app-error'

/**
 * Form-encoded bodies and query strings with nested keys (decisions.md "API shape"):
 * `label.labelKey=x` and `label[labelKey]=x` give `{ label: { labelKey: 'x' } }`, a repeated key
 * or `ids[]=` gives an array, and `items[0][name]=x` gives an array of objects.
 * Every value stays a string: contract schemas coerce (contract/form-fields.ts).
 */

/** Bounds that keep a hostile body from costing more than its size. */
export interface FormLimits {
  /** Most key=value pairs in one body. */
  maxPairs: number
  /** Most key segments, e.g. `a.b[c]` has 3. */
  maxDepth: number
}

/** Defaults: generous for real forms, small enough that parsing stays linear and cheap. */
export const defaultFormLimits: FormLimits = { maxPairs: 2_000, maxDepth: 8 }

/** Key segments that could reach an object's prototype; a body using them is refused. */
const forbiddenSegments = new Set(['__proto__', 'constructor', 'prototype'])

type FormNode = FormObject | FormValue[]
type FormValue = string | FormNode
interface FormObject {
  [key: string]: FormValue
}

/** Parses an `application/x-www-form-urlencoded` body or a query string into nested objects. */
export function parseFormBody(
  text: string,
  limits: FormLimits = defaultFormLimits,
): Record<string, unknown> {
  return nestFormPairs(decodeFormPairs(text, limits), limits)
}

/** Splits and percent-decodes `a=1&b=2` into pairs; `+` is a space. Pairs with no key are skipped. */
export function decodeFormPairs(
  text: string,
  limits: FormLimits = defaultFormLimits,
): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  // Empty parts (`a=1&&b=2`) count too, at twice the rate: a body of a million '&' is refused.
  let parts = 0
  let start = 0
  while (start < text.length) {
    if (++parts > limits.maxPairs * 2) {
      throw new AppError('validation', 'request.tooManyFormFields', { max: limits.maxPairs })
    }
    const ampersandAt = text.indexOf('&', start)
    const end = ampersandAt === -1 ? text.length : ampersandAt
    const part = text.slice(start, end)
    start = end + 1
    if (part === '') continue
    const equalsAt = part.indexOf('=')
    const rawKey = equalsAt === -1 ? part : part.slice(0, equalsAt)
    const rawValue = equalsAt === -1 ? '' : part.slice(equalsAt + 1)
    const key = decodeComponent(rawKey)
    if (key === '') continue
    pairs.push([key, decodeComponent(rawValue)])
    if (pairs.length > limits.maxPairs) {
      throw new AppError('validation', 'request.tooManyFormFields', { max: limits.maxPairs })
    }
  }
  return pairs
}

function decodeComponent(raw: string): string {
  const spaced = raw.replaceAll('+', ' ')
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    throw new AppError('validation', 'request.badPercentEncoding')
  }
}

/**
 * Splits a field name into its path: `a.b[c][]` → `['a', 'b', 'c', '']`, where `''` means
 * "append to a list". Throws a validation error for malformed or forbidden names.
 */
export function parseFieldPath(key: string, limits: FormLimits = defaultFormLimits): string[] {
  const segments: string[] = []
  let index = 0
  const firstStop = findSegmentEnd(key, 0)
  segments.push(key.slice(0, firstStop))
  index = firstStop
  while (index < key.length) {
    // Refused at the first segment too many, not after splitting a 5,000-level name.
    if (segments.length >= limits.maxDepth) throw nestedTooDeep(key, limits)
    const marker = key[index]
    if (marker === '[') {
      const close = key.indexOf(']', index + 1)
      if (close === -1) throw malformedName(key)
      segments.push(key.slice(index + 1, close))
      index = close + 1
    } else {
      const end = findSegmentEnd(key, index + 1)
      const segment = key.slice(index + 1, end)
      if (segment === '') throw malformedName(key)
      segments.push(segment)
      index = end
    }
  }
  if (segments[0] === '') throw malformedName(key)
  if (segments.length > limits.maxDepth) throw nestedTooDeep(key, limits)
  for (const segment of segments) {
    if (forbiddenSegments.has(segment)) {
      throw new AppError('validation', 'request.fieldNameForbidden', { name: shorten(key) })
    }
  }
  return segments
}

function nestedTooDeep(key: string, limits: FormLimits): AppError {
  return new AppError('validation', 'request.fieldNestedTooDeep', {
    name: shorten(key),
    maxDepth: limits.maxDepth,
  })
}

function findSegmentEnd(key: string, from: number): number {
  for (let index = from; index < key.length; index++) {
    const character = key[index]
    if (character === '[' || character === '.') return index
  }
  return key.length
}

function malformedName(key: string): AppError {
  return new AppError('validation', 'request.malformedFieldName', { name: shorten(key) })
}

function conflict(key: string): AppError {
  return new AppError('validation', 'request.fieldConflict', { name: shorten(key) })
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** Builds the nested object from decoded pairs (also used for multipart fields). */
export function nestFormPairs(
  pairs: Iterable<readonly [string, string]>,
  limits: FormLimits = defaultFormLimits,
): Record<string, unknown> {
  // Null-prototype nodes while building, so a key like `toString` is just a key.
  const root: FormObject = Object.create(null)
  for (const [key, value] of pairs) {
    const path = parseFieldPath(key, limits)
    let node: FormNode = root
    for (let depth = 0; depth < path.length; depth++) {
      const segment = path[depth] as string
      const isLast = depth === path.length - 1
      const wantsList = path[depth + 1] === ''
      if (Array.isArray(node)) {
        if (segment !== '') throw conflict(key)
        if (isLast) {
          node.push(value)
        } else {
          const child: FormNode = wantsList ? [] : Object.create(null)
          node.push(child)
          node = child
        }
        continue
      }
      if (segment === '') throw conflict(key)
      const existing: FormValue | undefined = node[segment]
      if (isLast) {
        if (existing === undefined) node[segment] = value
        else if (typeof existing === 'string') node[segment] = [existing, value]
        else if (Array.isArray(existing)) existing.push(value)
        else throw conflict(key)
        continue
      }
      if (existing === undefined) {
        const child: FormNode = wantsList ? [] : Object.create(null)
        node[segment] = child
        node = child
      } else if (wantsList && Array.isArray(existing)) {
        node = existing
      } else if (!wantsList && typeof existing === 'object' && !Array.isArray(existing)) {
        node = existing
      } else {
        throw conflict(key)
      }
    }
  }
  return toPlain(root) as Record<string, unknown>
}

const canonicalIndex = /^(0|[1-9]\d{0,5})$/

/**
 * Converts null-prototype nodes to plain objects and arrays; an object whose keys are exactly
 * 0..n-1 (`items[0][name]=…&items[1][name]=…`) becomes an array.
 */
function toPlain(value: FormValue): unknown {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(toPlain)
  const keys = Object.keys(value)
  if (keys.length > 0 && keys.every((key) => canonicalIndex.test(key))) {
    const indexes = keys.map(Number).sort((a, b) => a - b)
    if (indexes.every((index, position) => index === position)) {
      return indexes.map((index) => toPlain(value[String(index)] as FormValue))
    }
  }
  const plain: Record<string, unknown> = {}
  for (const key of keys) plain[key] = toPlain(value[key] as FormValue)
  return plain
}
