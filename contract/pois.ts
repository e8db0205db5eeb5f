import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formBoolean, formInteger, formNumber } from './form-fields'
import { type MessageId, zodMessage } from './messages'
import { webRoute } from './route'
import { poiBatchRowErrorSchema } from './template-files'

/**
 * POIs (issue 16; SPEC §3 "POI/model record", "POI item", "Model-POI item", §7 the `/poi` calls,
 * §8 the POI messages). Field and call names keep the spec's spelling (`creatPoi`, `updataPoi`,
 * `projectid`, `cartisian_x`, `findmodelidbypoi`).
 *
 * Words: a POI is made from a **template** (contract/templates.ts); the spec calls the template
 * a "POI category", so a POI's `category_id` is its template's id and `poicategory_code` the
 * template's code. The category-tree node the template is filed under is `category_node_id`
 * here (the template's own `category_id`).
 *
 * Coordinates: in a city project `x` = longitude°, `y` = latitude° (WGS84), `z` = height in
 * metres; `cartisian_x/y/z` are the same point in Earth-centred (ECEF) metres, computed by the
 * server. In a building project `x`, `y`, `z` are the building's scene metres (the space of the
 * engine's building picks), `cartisian_*` equal them, and every POI stands on a floor of that
 * project (`floor_id`; refused without one: 'Select the floor which the POI is placed.').
 *
 * Access: reads like the other project data (the owner, an admin, anyone signed in for a project
 * case, a project-token holder); writes by the owner (and admins). `devicecode` is unique per
 * project when set. List calls are all-or-nothing (one transaction) and take at most
 * {@link poiLimits.maxListItems} POIs.
 */

// ---------------------------------------------------------------------------------------------
// constants

/** Limits of fields, pages and lists. */
export const poiLimits = {
  nameMaxLength: 100,
  devicecodeMaxLength: 100,
  codeMaxLength: 100,
  /** `poi_style`, `cameraPs`, `cameraPss`, `modelList` and other free text (often JSON). */
  textMaxLength: 4000,
  shortTextMaxLength: 200,
  /** Most POIs one list call (create, update, delete) takes; more is refused, naming it. */
  maxListItems: 100_000,
  /** Custom properties per POI (a template has at most 200 static attributes). */
  maxCustoms: 200,
  customValueMaxLength: 500,
  /** Models one POI may be linked to. */
  maxModelLinks: 100,
  pageSizeMax: 500,
  keywordMaxLength: 100,
  /** Building scene metres: ±this in x, y, z. */
  sceneMaxMetres: 1_000_000,
  /** City height in metres: ±this. */
  cityMaxHeight: 100_000,
  /** Largest CSV a batch add takes. */
  csvMaxBytes: 10 * 1024 * 1024,
} as const

/** SPEC §5: the rotation slider's range (degrees) — heading and roll. */
export const poiRotationRange = { min: -180, max: 180, step: 15 } as const
/** Pitch range in degrees. */
export const poiPitchRange = { min: -90, max: 90 } as const
/** SPEC §5: the altitude slider (millimetres per step of the control bar). */
export const poiAltitudeRange = { min: -500, max: 500, step: 15, unit: 'mm' } as const

/** SPEC §3 `type`: the kind of the POI's template. */
export const poiKinds = ['2D', '3D'] as const
export type PoiKind = (typeof poiKinds)[number]

/** The kinds of model a POI may be linked to (model POIs, monomer POIs). */
export const poiModelKinds = ['building', 'monomer'] as const
export type PoiModelKind = (typeof poiModelKinds)[number]

/** Sort keys of `findPoi`. */
export const poiSortKeys = ['created_at', 'name', 'devicecode', 'updated_at'] as const
export type PoiSortKey = (typeof poiSortKeys)[number]

// ---------------------------------------------------------------------------------------------
// field schemas

const degrees = (min: number, max: number) => formNumber(z.number().min(min).max(max))
/** x, y, z: finite numbers (the server checks the ranges of the project's kind). */
const coordinate = formNumber(
  z.number().min(-poiLimits.sceneMaxMetres).max(poiLimits.sceneMaxMetres),
)
const shortText = z.string().trim().max(poiLimits.shortTextMaxLength)
const longText = z.string().max(poiLimits.textMaxLength)

/** A template id; missing or empty: 'Select the POI category' (SPEC §8). */
const templateIdSchema = z
  .string({ error: zodMessage('poi.selectCategory') })
  .trim()
  .min(1, zodMessage('poi.selectCategory'))
  .max(64)

/** A POI name: required, trimmed. */
export const poiNameSchema = z.string().trim().min(1).max(poiLimits.nameMaxLength)

/** `devicecode`: '' for none; unique per project when set. */
export const devicecodeSchema = z.string().trim().max(poiLimits.devicecodeMaxLength)

/** A POI's value of one static attribute (SPEC §3 "Static attribute": copied from the template). */
export const poiCustomSchema = z.object({
  id: recordIdSchema,
  poi_id: recordIdSchema,
  /** The attribute's English name (the template's `property_column`). */
  property_column: z.string(),
  /** Its display name. */
  column_des: z.string(),
  /** This POI's value (the template's `column_example` when copied). */
  column_value: z.string(),
})
export type PoiCustom = z.infer<typeof poiCustomSchema>

/**
 * A custom property as an edit sends it: sets `column_value` of the attribute `property_column`
 * (added when the POI has none of that name; `column_des` defaults to the name).
 */
export const poiCustomInputSchema = z.object({
  property_column: z.string().trim().min(1).max(64),
  column_des: z.string().trim().max(200).optional(),
  column_value: z.string().max(poiLimits.customValueMaxLength),
})
export type PoiCustomInput = z.input<typeof poiCustomInputSchema>

// ---------------------------------------------------------------------------------------------
// the record

/** A POI (SPEC §3 "POI/model record", every field that applies to a POI). */
export const poiSchema = z.object({
  id: recordIdSchema,
  projectid: recordIdSchema,
  name: z.string(),
  /** Building: the floor it stands on; '' in a city project. */
  floor_id: z.string(),
  /** The parent POI (grouping); '' for none. */
  pid: z.string(),
  /** The template's kind. */
  type: z.enum(poiKinds),
  /** Level of a multi-level template (0 for a simple one). */
  level: z.number().int(),
  /** Free status text a device or the user sets ('' when none). */
  state: z.string(),
  /** Degrees −180..180, −90..90, −180..180. */
  heading: z.number(),
  pitch: z.number(),
  roll: z.number(),
  orientation: z.string(),
  pack: z.string(),
  /** An id the client chose (e.g. its temporary id before the server answered); '' none. */
  poiid: z.string(),
  poiType: z.string(),
  /** JSON text of the label style ('' for the default). */
  poi_style: z.string(),
  view_type: z.string(),
  /** The models it is linked to (model POIs, monomer POIs): their ids. */
  modelList: z.array(z.string()),
  /** The template's id. */
  category_id: z.string(),
  /** The template's category-tree node (what POI classify groups by). */
  category_node_id: z.string(),
  poicategory_code: z.string(),
  template_type: z.string(),
  category_type: z.string(),
  /** The saved camera of the POI (JSON text, '' none) and its second view. */
  cameraPs: z.string(),
  cameraPss: z.string(),
  cartisian_x: z.number(),
  cartisian_y: z.number(),
  cartisian_z: z.number(),
  x: z.number(),
  y: z.number(),
  z: z.number(),
  devicecode: z.string(),
  /** Shown between these camera distances in metres; null: no bound. */
  distance_min: z.number().nullable(),
  distance_max: z.number().nullable(),
  event_code: z.string(),
  event_image: z.string(),
  gatecode: z.string(),
  /** The template's look: icon, 3D preview picture, SBM model and its folder. */
  iconpath: z.string(),
  jpg_name: z.string(),
  sbm_name: z.string(),
  filepath: z.string(),
  /** The template's name (lists show it). */
  template_name: z.string(),
  /** A seeded template's name as a catalogue id (contract/templates.ts `name_key`). */
  template_name_key: z.string().optional(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type Poi = z.infer<typeof poiSchema>

/** A POI with its custom properties (`findPoiDetail`, `creatPoi`, `updataPoi`). */
export const poiDetailSchema = poiSchema.extend({
  customs: z.array(poiCustomSchema),
})
export type PoiDetail = z.infer<typeof poiDetailSchema>

// ---------------------------------------------------------------------------------------------
// inputs

/** Fields a POI is created with, beside `projectid` (list items of `creatPoiList` too). */
const poiFieldInputs = {
  name: poiNameSchema,
  /** The template (SPEC 'Select the POI category' when missing). */
  category_id: templateIdSchema,
  x: coordinate,
  y: coordinate,
  z: coordinate.default(0),
  heading: degrees(poiRotationRange.min, poiRotationRange.max).default(0),
  pitch: degrees(poiPitchRange.min, poiPitchRange.max).default(0),
  roll: degrees(poiRotationRange.min, poiRotationRange.max).default(0),
  floor_id: z.string().trim().max(64).default(''),
  pid: z.string().trim().max(64).default(''),
  level: formInteger({ min: 0, max: 100 }).default(0),
  state: shortText.default(''),
  orientation: shortText.default(''),
  pack: shortText.default(''),
  poiid: z.string().trim().max(64).default(''),
  poiType: shortText.default(''),
  poi_style: longText.default(''),
  view_type: shortText.default(''),
  cameraPs: longText.default(''),
  cameraPss: longText.default(''),
  devicecode: devicecodeSchema.default(''),
  distance_min: formNumber(z.number().min(0)).nullable().default(null),
  distance_max: formNumber(z.number().min(0)).nullable().default(null),
  event_code: shortText.default(''),
  event_image: shortText.default(''),
  gatecode: shortText.default(''),
  /** Models to link it to (same project). */
  modelList: z.array(recordIdSchema).max(poiLimits.maxModelLinks).default([]),
  /**
   * Values for some custom properties; the rest come from the template's static attributes
   * (their example values).
   */
  customs: z.array(poiCustomInputSchema).max(poiLimits.maxCustoms).optional(),
}

/** The changeable fields, all optional (an update sends what changed). */
const poiFieldUpdates = {
  name: poiNameSchema.optional(),
  category_id: templateIdSchema.optional(),
  x: coordinate.optional(),
  y: coordinate.optional(),
  z: coordinate.optional(),
  heading: degrees(poiRotationRange.min, poiRotationRange.max).optional(),
  pitch: degrees(poiPitchRange.min, poiPitchRange.max).optional(),
  roll: degrees(poiRotationRange.min, poiRotationRange.max).optional(),
  floor_id: z.string().trim().max(64).optional(),
  pid: z.string().trim().max(64).optional(),
  level: formInteger({ min: 0, max: 100 }).optional(),
  state: shortText.optional(),
  orientation: shortText.optional(),
  pack: shortText.optional(),
  poiid: z.string().trim().max(64).optional(),
  poiType: shortText.optional(),
  poi_style: longText.optional(),
  view_type: shortText.optional(),
  cameraPs: longText.optional(),
  cameraPss: longText.optional(),
  devicecode: devicecodeSchema.optional(),
  distance_min: formNumber(z.number().min(0)).nullable().optional(),
  distance_max: formNumber(z.number().min(0)).nullable().optional(),
  event_code: shortText.optional(),
  event_image: shortText.optional(),
  gatecode: shortText.optional(),
  /** Replaces the linked models. */
  modelList: z.array(recordIdSchema).max(poiLimits.maxModelLinks).optional(),
  /** Sets these custom properties' values (others are kept). */
  customs: z.array(poiCustomInputSchema).max(poiLimits.maxCustoms).optional(),
}

/** A project token for readers without a user token (or the `ProjectToken` header). */
const projectTokenField = { project_token: z.string().max(100).optional() }

/** `/poi/creatPoi`: one POI. Answers it with its custom properties. */
export const createPoiBodySchema = z.object({ projectid: recordIdSchema, ...poiFieldInputs })
export type CreatePoiBody = z.input<typeof createPoiBodySchema>

/** One item of `creatPoiList`: a POI, optionally a copy of `source_id` (same project). */
export const createPoiListItemSchema = z.object({
  ...poiFieldInputs,
  /** The POI this is a copy of; with `isCopyProperties` its custom property values come along. */
  source_id: recordIdSchema.optional(),
})
export type CreatePoiListItem = z.input<typeof createPoiListItemSchema>

/** `/poi/updataPoi`: changes one POI (`id`). Answers it with its custom properties. */
export const updatePoiBodySchema = z.object({ id: recordIdSchema, ...poiFieldUpdates })
export type UpdatePoiBody = z.input<typeof updatePoiBodySchema>

/** Calls that name one POI. */
export const poiIdBodySchema = z.object({ id: recordIdSchema, ...projectTokenField })
export type PoiIdBody = z.input<typeof poiIdBodySchema>

/**
 * A list of at most {@link poiLimits.maxListItems} items; a longer one is refused before any
 * item is read, with `poi.tooManyInList` naming the limit.
 */
function poiList<Item extends z.ZodType>(item: Item) {
  return z.preprocess((value, context) => {
    if (Array.isArray(value) && value.length > poiLimits.maxListItems) {
      context.addIssue({
        code: 'custom',
        message: 'poi.tooManyInList' satisfies MessageId,
        params: { max: poiLimits.maxListItems, count: value.length },
        input: value,
      })
      return z.NEVER
    }
    return value
  }, z.array(item).min(1).max(poiLimits.maxListItems))
}

/** Query of `creatPoiList` (SPEC §7 "creatPoiList (query isCopyProperties)"). */
export const createPoiListQuerySchema = z.object({
  /** Copies of `source_id` take its custom property values (else the template's). */
  isCopyProperties: formBoolean().default(true),
})

/** `/poi/creatPoiList`: many POIs of one project, all or none. Answers them in order. */
export const createPoiListBodySchema = z.object({
  projectid: recordIdSchema,
  list: poiList(createPoiListItemSchema),
})
export type CreatePoiListBody = z.input<typeof createPoiListBodySchema>

/** `/poi/updataPoiList`: changes many POIs (each item names its `id`), all or none. */
export const updatePoiListBodySchema = z.object({
  list: poiList(updatePoiBodySchema),
})
export type UpdatePoiListBody = z.input<typeof updatePoiListBodySchema>

/** `/poi/deletePoiList`: deletes many POIs, all or none (any id not the caller's: none). */
export const deletePoiListBodySchema = z.object({
  ids: poiList(recordIdSchema),
})
export type DeletePoiListBody = z.input<typeof deletePoiListBodySchema>

/** What a list call did. */
export const poiCountDatumSchema = z.object({ count: z.number().int() })
export type PoiCountDatum = z.infer<typeof poiCountDatumSchema>

/** `creatPoiList` and the batch add: the created POIs, in the order of the input. */
export const createdPoisDatumSchema = z.object({
  count: z.number().int(),
  list: z.array(poiSchema),
})
export type CreatedPoisDatum = z.infer<typeof createdPoisDatumSchema>

/** What `deletePoi` removed (its children keep existing, with `pid` cleared). */
export const deletedPoiDatumSchema = z.object({ deleted: z.number().int() })

// ---------------------------------------------------------------------------------------------
// queries

/** Query of `findPoi`: the page. */
export const findPoiQuerySchema = z.object({
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: poiLimits.pageSizeMax }).default(20),
})

/**
 * `/poi/findPoi`: a page of a project's POIs, filtered. Every filter is optional and they
 * combine (and): `category_node_id` (templates filed under that category, any depth),
 * `category_id` (one template), `floor_id`, `name` (part of the name, case-insensitive),
 * `devicecode` (codes starting with it, case-sensitive), `type`, `pid` (children of one POI),
 * `model_id` (linked to it).
 */
export const findPoiBodySchema = z.object({
  projectid: recordIdSchema,
  ...projectTokenField,
  category_node_id: recordIdSchema.optional(),
  category_id: recordIdSchema.optional(),
  floor_id: recordIdSchema.optional(),
  name: z.string().trim().max(poiLimits.keywordMaxLength).optional(),
  devicecode: z.string().trim().max(poiLimits.keywordMaxLength).optional(),
  type: z.enum(poiKinds).optional(),
  pid: recordIdSchema.optional(),
  model_id: recordIdSchema.optional(),
  sort: z.enum(poiSortKeys).default('created_at'),
  order: z.enum(['asc', 'desc']).default('asc'),
})
export type FindPoiBody = z.input<typeof findPoiBodySchema>

/** The answer of `findPoi`. */
export const poiPageSchema = z.object({
  list: z.array(poiSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type PoiPage = z.infer<typeof poiPageSchema>

/** Calls that name one project (`findProjectPoiDetail`). */
export const poiProjectBodySchema = z.object({ projectid: recordIdSchema, ...projectTokenField })
export type PoiProjectBody = z.input<typeof poiProjectBodySchema>

/** A template as the scene draws its POIs (one entry per template the project's POIs use). */
export const poiSceneTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** A seeded template's name as a catalogue id (contract/templates.ts `name_key`). */
  name_key: z.string().optional(),
  type: z.enum(poiKinds),
  /** Its category-tree node: the group POI classify shows or hides. */
  category_node_id: z.string(),
  poicategory_code: z.string(),
  iconpath: z.string(),
  /** 3D: the preview picture and the SBM model, served at `filepath` + name ('' when none). */
  jpg_name: z.string(),
  sbm_name: z.string(),
  filepath: z.string(),
})
export type PoiSceneTemplate = z.infer<typeof poiSceneTemplateSchema>

/**
 * `/poi/findProjectPoiDetail`: every POI of a project in columns, for the scene to draw (100,000
 * and more): entry `i` of each array is POI `i`. Positions are flat `[x0, y0, z0, x1, …]`.
 * `template` and `floor` index into `templates` and `floors` (−1: no floor). `distance_min`,
 * `distance_max` are null when unbounded. Records with every field: `findPoi`, `findPoiDetail`.
 */
export const projectPoisDatumSchema = z.object({
  projectid: z.string(),
  count: z.number().int(),
  templates: z.array(poiSceneTemplateSchema),
  floors: z.array(z.string()),
  ids: z.array(z.string()),
  names: z.array(z.string()),
  template: z.array(z.number().int()),
  positions: z.array(z.number()),
  heading: z.array(z.number()),
  pitch: z.array(z.number()),
  roll: z.array(z.number()),
  floor: z.array(z.number().int()),
  pid: z.array(z.string()),
  devicecode: z.array(z.string()),
  level: z.array(z.number().int()),
  distance_min: z.array(z.number().nullable()),
  distance_max: z.array(z.number().nullable()),
})
export type ProjectPoisDatum = z.infer<typeof projectPoisDatumSchema>

/** A model a POI can be linked to (SPEC §3 "Single-building model: id, modelname"). */
export const poiModelSchema = z.object({
  id: z.string(),
  modelname: z.string(),
  kind: z.enum(poiModelKinds),
})
export type PoiModel = z.infer<typeof poiModelSchema>

/** `/poi/findmodelidbypoi`: the ids of the models a POI is linked to. */
export const modelIdsDatumSchema = z.object({
  poi_id: z.string(),
  modelList: z.array(z.string()),
})

/** `/poi/selectPoisBymodel`: the POIs linked to one model, each as a model-POI item. */
export const poisByModelBodySchema = z.object({
  model_id: recordIdSchema,
  ...projectTokenField,
})

/** SPEC §3 "Model-POI item: icon_path, template_name, name" (with the whole record). */
export const modelPoiItemSchema = poiSchema.extend({ icon_path: z.string() })
export type ModelPoiItem = z.infer<typeof modelPoiItemSchema>

/**
 * `/poi/addPoi`: links POIs (`ids`, same project) to a model; a POI already linked to it is
 * refused ('Already linked.') and nothing changes.
 */
export const addPoiBodySchema = z.object({
  model_id: recordIdSchema,
  ids: z.array(recordIdSchema).min(1).max(10_000),
})
export type AddPoiBody = z.input<typeof addPoiBodySchema>

// ---------------------------------------------------------------------------------------------
// batch add

/**
 * `/poi/batchCreatPoi` (multipart): creates a project's POIs of one template (`pid`) from the
 * filled batch-POI XLSX (issue 15's file, its columns: contract/template-files.ts) or a CSV with
 * the same header keys. The file travels in `file`, or `uuid` names one stored by
 * `/poi/uploadPoiTemplate`. Every row is checked first; any bad cell refuses the whole file
 * (`poiBatch.rowErrors`, the cells in `datum.details` as {@link poiBatchRowErrorSchema}) and
 * nothing is created. `isDryRun` only checks.
 */
export const batchCreatePoiFieldsSchema = z.object({
  projectid: recordIdSchema,
  /** The template every row is made from. */
  pid: recordIdSchema,
  /** A file stored by `uploadPoiTemplate` instead of a `file` part. */
  uuid: recordIdSchema.optional(),
  isDryRun: formBoolean().default(false),
})
export type BatchCreatePoiFields = z.input<typeof batchCreatePoiFieldsSchema>

/** One refused cell of a batch add (the same shape as the template-file refusal). */
export const poiBatchCellErrorSchema = poiBatchRowErrorSchema
export type PoiBatchCellError = z.infer<typeof poiBatchCellErrorSchema>

/** What a batch add did: the POIs made (none for a dry run: `count` says how many it would). */
export const batchCreatePoiDatumSchema = z.object({
  count: z.number().int(),
  isDryRun: z.boolean(),
  ids: z.array(z.string()),
})
export type BatchCreatePoiDatum = z.infer<typeof batchCreatePoiDatumSchema>

// ---------------------------------------------------------------------------------------------
// the calls

/** The /web/ routes of POIs, all POST (the route table: contract/route.ts, contract/routes.ts). */
export const poiRoutes = {
  creatPoi: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoi',
    auth: 'editor',
    summary: 'Create a POI from a template (its static attributes become custom properties)',
    body: createPoiBodySchema,
    datum: poiDetailSchema,
  }),
  deletePoi: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoi',
    auth: 'editor',
    summary: 'Delete a POI (its children lose their parent)',
    body: poiIdBodySchema,
    datum: deletedPoiDatumSchema,
  }),
  updataPoi: webRoute({
    method: 'POST',
    path: '/web/poi/updataPoi',
    auth: 'editor',
    summary: 'Change a POI (fields, parent, linked models, custom properties)',
    body: updatePoiBodySchema,
    datum: poiDetailSchema,
  }),
  selectCustomByPoi: webRoute({
    method: 'POST',
    path: '/web/poi/selectCustomByPoi',
    auth: 'public',
    summary: "A POI's custom properties",
    description:
      'For project readers: a user token or a project token (`project_token` or header).',
    body: poiIdBodySchema,
    datum: z.array(poiCustomSchema),
  }),
  selectPoisBymodel: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoisBymodel',
    auth: 'public',
    summary: 'The POIs linked to a model (model POIs, monomer POIs)',
    body: poisByModelBodySchema,
    datum: z.array(modelPoiItemSchema),
  }),
  addPoi: webRoute({
    method: 'POST',
    path: '/web/poi/addPoi',
    auth: 'editor',
    summary: "Link POIs to a model ('Already linked.' when one is)",
    body: addPoiBodySchema,
    datum: poiCountDatumSchema,
  }),
  findPoi: webRoute({
    method: 'POST',
    path: '/web/poi/findPoi',
    auth: 'public',
    summary: "A page of a project's POIs, filtered (query pageNo, pageSize)",
    description:
      'Filters by category, template, floor, name, device code, kind, parent and linked model; ' +
      'for project readers (user token or project token).',
    body: findPoiBodySchema,
    query: findPoiQuerySchema,
    datum: poiPageSchema,
  }),
  findPoiDetail: webRoute({
    method: 'POST',
    path: '/web/poi/findPoiDetail',
    auth: 'public',
    summary: 'One POI with its custom properties',
    body: poiIdBodySchema,
    datum: poiDetailSchema,
  }),
  findProjectPoiDetail: webRoute({
    method: 'POST',
    path: '/web/poi/findProjectPoiDetail',
    auth: 'public',
    summary: 'Every POI of a project in columns, as the scene loads them',
    body: poiProjectBodySchema,
    datum: projectPoisDatumSchema,
  }),
  findmodelidbypoi: webRoute({
    method: 'POST',
    path: '/web/poi/findmodelidbypoi',
    auth: 'public',
    summary: 'The ids of the models a POI is linked to',
    body: poiIdBodySchema,
    datum: modelIdsDatumSchema,
  }),
  creatPoiList: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiList',
    auth: 'editor',
    summary: 'Create many POIs (copies, layouts) in one transaction (query isCopyProperties)',
    description: `All or none; at most ${poiLimits.maxListItems.toLocaleString('en')} POIs.`,
    body: createPoiListBodySchema,
    query: createPoiListQuerySchema,
    datum: createdPoisDatumSchema,
  }),
  deletePoiList: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoiList',
    auth: 'editor',
    summary: 'Delete many POIs in one transaction (any id not yours: none deleted)',
    body: deletePoiListBodySchema,
    datum: poiCountDatumSchema,
  }),
  updataPoiList: webRoute({
    method: 'POST',
    path: '/web/poi/updataPoiList',
    auth: 'editor',
    summary: 'Change many POIs in one transaction (any id not yours: none changed)',
    body: updatePoiListBodySchema,
    datum: poiCountDatumSchema,
  }),
  findModelByPoi: webRoute({
    method: 'POST',
    path: '/web/findModelByPoi',
    auth: 'public',
    summary: 'The models a POI is linked to (id, modelname, kind)',
    tags: ['poi'],
    body: poiIdBodySchema,
    datum: z.array(poiModelSchema),
  }),
  batchCreatPoi: webRoute({
    method: 'POST',
    path: '/web/poi/batchCreatPoi',
    auth: 'editor',
    summary: 'Create POIs from a filled batch-POI XLSX or a CSV, all or none',
    description:
      'Multipart: `projectid`, `pid` (the template), and one `file` (.xlsx as downloaded by ' +
      '`/poi/downloadPoiTemplate`, or .csv with the same header keys) or `uuid` of a file ' +
      'stored by `/poi/uploadPoiTemplate`. Every row is checked first; any bad cell refuses ' +
      'the whole file with `{ row, column, messageId }` per cell in `datum.details`.',
    body: batchCreatePoiFieldsSchema,
    datum: batchCreatePoiDatumSchema,
    fileFields: ['file'],
  }),
}

/** The name of one of this area's routes. */
export type PoiCallName = keyof typeof poiRoutes
