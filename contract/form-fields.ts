import { z } from 'zod'
import { type MessageId, zodMessage } from './messages'

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

/** Options of {@link checkedList}. */
export interface CheckedListOptions<Item> {
  maxItems: number
  /** The item a value stands for (e.g. digits → a number), or undefined when it is not one. */
  readItem: (value: unknown) => Item | undefined
  /** What the OpenAPI document says an item is (never used to validate). */
  describeItem: z.ZodType
  /** Whether one bare item stands for a list of it, as a form sends a single value. */
  acceptsBareItem: boolean
}

/**
 * A long list (e.g. 100,000 feature ids, 10,000 tile index pairs) from JSON, or from a form as
 * {@link formList} takes it when `acceptsBareItem`, checked in one plain loop. Zod's own
 * `z.array(union)` costs a few microseconds per item and, for wrong items, an issue object each: 100,000 items held the event loop ~0.2 s,
 * 100,000 wrong ones ~3 s. This refuses the list at its first wrong item (one issue, naming its
 * index) or when it is too long, before reading any item.
 */
export function checkedList<Item>(
  options: CheckedListOptions<Item>,
): z.ZodType<Item[], Item[] | Item> {
  const { maxItems, readItem, acceptsBareItem } = options
  return (
    z
      .unknown()
      .transform((value, context) => {
        if (!Array.isArray(value) && !acceptsBareItem) {
          context.addIssue({
            code: 'custom',
            message: zodMessage('validation.expectedList'),
            input: value,
          })
          return z.NEVER
        }
        const list = Array.isArray(value) ? value : [value]
        if (list.length > maxItems) {
          context.addIssue({
            code: 'custom',
            message: 'validation.tooManyItems' satisfies MessageId,
            params: { maximum: maxItems },
            input: value,
          })
          return z.NEVER
        }
        const items: Item[] = new Array(list.length)
        for (let index = 0; index < list.length; index++) {
          const item = readItem(list[index])
          if (item === undefined) {
            context.addIssue({
              code: 'custom',
              message: zodMessage('validation.invalid'),
              path: Array.isArray(value) ? [index] : [],
              input: list[index],
            })
            return z.NEVER
          }
          items[index] = item
        }
        return items
      })
      // The document shows the list as JSON takes it (a form may also send one bare item).
      .meta(documentedAs(z.array(options.describeItem).max(maxItems))) as unknown as z.ZodType<
      Item[],
      Item[] | Item
    >
  )
}

/**
 * The JSON Schema of `schema`, as metadata for a schema checked by hand (a transform or a
 * custom check), so the OpenAPI document still says what the field takes.
 */
export function documentedAs(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' })
  return jsonSchema
}
