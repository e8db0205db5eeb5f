import { z } from 'zod'
import { zodMessage } from './messages'

/**
 * Field schemas for bodies that may arrive form-encoded (SPEC §7: most calls are form posts).
 * A form carries only strings, so a number or a boolean arrives as text. These accept the typed
 * JSON value or its text form and give the typed value, with a message a form can show.
 * Plain `z.coerce` is not used on purpose: it turns '' into 0 and 'false' into true.
 */

const numericText = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/

/**
 * A number from JSON or its decimal text from a form. `inner` adds the range/integer rules,
 * e.g. `formNumber(z.number().int().min(0))`.
 */
export function formNumber<Inner extends z.ZodType<number, number>>(inner?: Inner) {
  const parsed = z
    .union([z.number(), z.string().regex(numericText, zodMessage('validation.expectedNumber'))])
    .transform(Number)
  return parsed.pipe(inner ?? z.number())
}

/** An integer from JSON or its text from a form, optionally with range rules. */
export function formInteger(options: { min?: number; max?: number } = {}) {
  let integer = z.number().int()
  if (options.min !== undefined) integer = integer.min(options.min)
  if (options.max !== undefined) integer = integer.max(options.max)
  return formNumber(integer)
}

const trueTexts = new Set(['true', '1', 'on', 'yes'])
const falseTexts = new Set(['false', '0', 'off', 'no', ''])

/**
 * A boolean from JSON, or from a form as `true/false`, `1/0`, `on/off` (an HTML checkbox sends
 * `on`), `yes/no`; an empty field is false.
 */
export function formBoolean() {
  return z
    .union([z.boolean(), z.enum([...trueTexts, ...falseTexts] as [string, ...string[]])])
    .transform((value) => (typeof value === 'boolean' ? value : trueTexts.has(value)))
}

/**
 * A list from JSON, or from a form where one value arrives as a plain string and repeated keys
 * (`ids=1&ids=2` or `ids[]=1`) arrive as an array.
 */
export function formList<Item extends z.ZodType>(item: Item) {
  return z.union([z.array(item), item.transform((value) => [value])])
}
