import { z } from 'zod'
import { zodMessage } from './messages'

/**
 * The region cascade `POST /web/publicselect/findAreaJson` (SPEC §7): China's official
 * divisions, province → city → district → street, one level per call.
 */

/** Input: the parent's code; `'0'` (or 0) asks for the provinces. */
export const findAreaJsonBodySchema = z.object({
  codeid: z
    .union([z.string(), z.number().int()])
    .transform((value) => String(value).trim())
    .pipe(
      z.string().regex(/^(0|\d{2}|\d{4}|\d{6}|\d{9})$/, zodMessage('input.divisionCodeOrZero')),
    ),
})
export type FindAreaJsonBody = z.input<typeof findAreaJsonBodySchema>

/** Region option (SPEC §3): one child of the asked code. */
export const regionOptionSchema = z.object({
  codeid: z.string(),
  name: z.string(),
  /** 1 province, 2 city, 3 district, 4 street or town. */
  level: z.number().int().min(1).max(4),
  /** Whether the region has children to ask for; false on the last level of its branch. */
  children: z.boolean(),
})
export type RegionOption = z.infer<typeof regionOptionSchema>

/** Answer: the children in code order (an empty list for a street). */
export const findAreaJsonDatumSchema = z.array(regionOptionSchema)

/** The code that asks for the provinces. */
export const rootRegionCode = '0'
