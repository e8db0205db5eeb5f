import { z } from 'zod'
import { gisModelSchema } from './city'
import { recordIdSchema } from './common'
import { formBoolean, formNumber } from './form-fields'
import { poiLimits } from './pois'
import { webRoute } from './route'

/**
 * Model copy (SPEC §2 "model copy" popup, issue 16 item 4 "model copy likewise"): a city
 * project's model (a saved single-building "monomer" model, `gis_models`) copied with the POIs
 * attached to it, in the layouts of POI copy. The spec names no call for it (§7), so this one is
 * ours: `/web/poi/copyModel`.
 *
 * Each copy is a new model record (the same features of the oblique photography, the name the
 * client chose for it) and a copy of every POI attached to the original, moved by the copy's
 * offset in metres (east, north, up at each POI's own latitude) and attached to the new model.
 * A copied POI keeps its template, rotation, view distances and style, and its parent when the
 * parent is copied too; it leaves behind its device code (unique in a project) and its saved
 * camera views (they look at the original). With `isCopyProperties` its custom property values
 * come along (else its template's examples). One transaction: refused as a whole, nothing is
 * half-copied.
 */

/** Limits of one copy call. */
export const modelCopyLimits = {
  /** Copies of one model per call. */
  maxCopies: 100,
  /** Largest offset of a copy, metres on each axis. */
  maxOffsetMeters: 100_000,
  /** POIs all copies together may create (the POI list calls' limit). */
  maxPois: poiLimits.maxListItems,
  modelnameMaxLength: 100,
} as const

const offsetMeters = formNumber(
  z.number().min(-modelCopyLimits.maxOffsetMeters).max(modelCopyLimits.maxOffsetMeters),
).default(0)

/** One copy: its name and where it goes, metres from the original. */
export const modelCopyItemSchema = z.object({
  modelname: z.string().trim().min(1).max(modelCopyLimits.modelnameMaxLength),
  east: offsetMeters,
  north: offsetMeters,
  up: offsetMeters,
})
export type ModelCopyItem = z.input<typeof modelCopyItemSchema>

/** `/poi/copyModel`: copies of one model with its POIs. */
export const copyModelBodySchema = z.object({
  model_id: recordIdSchema,
  /** Copied POIs take their source's custom property values (else their template's). */
  isCopyProperties: formBoolean().default(true),
  copies: z.array(modelCopyItemSchema).min(1).max(modelCopyLimits.maxCopies),
})
export type CopyModelBody = z.input<typeof copyModelBodySchema>

/** What a model copy made: the new models (in the order of `copies`) and how many POIs. */
export const copyModelDatumSchema = z.object({
  models: z.array(gisModelSchema),
  poiCount: z.number().int(),
})
export type CopyModelDatum = z.infer<typeof copyModelDatumSchema>

/** The model copy route. */
export const modelCopyRoutes = {
  copyModel: webRoute({
    method: 'POST',
    path: '/web/poi/copyModel',
    auth: 'editor',
    summary: 'Copy a city model with its POIs (offsets in metres), all or nothing',
    description:
      `At most ${modelCopyLimits.maxCopies} copies and ` +
      `${modelCopyLimits.maxPois.toLocaleString('en')} POIs in one call; copied POIs leave ` +
      'their device codes behind.',
    tags: ['poi'],
    body: copyModelBodySchema,
    datum: copyModelDatumSchema,
  }),
}
