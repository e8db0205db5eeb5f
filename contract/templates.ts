import { z } from 'zod'
import { recordIdSchema, timestampSchema } from './common'
import { formBoolean, formInteger } from './form-fields'
import { zodMessage } from './messages'
import { webRoute } from './route'

/**
 * POI categories and templates (issue 15; SPEC §3 "POI category", "POI template", "Static
 * attribute of a template", "Template labels", §4 "Template popup", "Category choice", §5
 * "Templates", §7 "Template and category calls", the `/poi` category, custom-property and label
 * calls, `/systempoicategory/*`). Field names keep the spec's spelling (`poicategoryid`,
 * `creatPoiCategoryCustomPropery`, `sysnPoiCustomProperty`).
 *
 * Words: in the spec's calls a "POI category" (`poicategory`) is usually a **template** (the
 * thing a POI is made from: `selectPoiCategoryBasic` answers a template), while the tree it is
 * filed under is the **category** tree (`/systempoicategory/*`). This file says "template" and
 * "category" for the two.
 *
 * Categories: one tree of any depth under two fixed roots, 2D (id `'1'`) and 3D (id `'2'`), plus
 * a separate location-category tree whose top level has `pid '0'`. Each node is either shared
 * (a system category, `owner_id` null, managed by an admin through `/systempoicategory/add…`,
 * `update…`, `del…`) or a user's own (`/poi/creatPoiCategory`, `updatePoiCategory`,
 * `deletePoiCategory`). A reader sees the system nodes and their own.
 *
 * Templates: a user's own, or shared library templates (`owner_id` null, seeded; read-only for
 * everyone but admins: copy one to change it). `poicategory_code` is unique per owner. A
 * template's `piddes` is the category path from the root, e.g. `'2,<id>,<id>'`; its first id
 * decides the kind (`'2'` → 3D, else 2D) and its last id is `category_id`.
 *
 * POIs (issue 16) are made from templates (`pois.category_id` is the template id): a template or
 * category in use by POIs cannot be deleted, and the sync calls copy a template's static
 * attributes onto its POIs.
 */

// ---------------------------------------------------------------------------------------------
// constants

/** SPEC §3: the fixed category roots. */
export const categoryRootIds = { twoD: '1', threeD: '2' } as const
/** The parent id of the location-category tree's top level (SPEC §3 "fetched with id '0'"). */
export const locationCategoryRootId = '0'

/** SPEC §3 `type` of a template. */
export const templateKinds = ['2D', '3D'] as const
export type TemplateKind = (typeof templateKinds)[number]

/** SPEC §3 `template_type`: '0' a simple template, '1' a multi-level one (`projectInfoAllCustoms`). */
export const templateTypes = ['0', '1'] as const
export type TemplateType = (typeof templateTypes)[number]

/** The event kinds a template can enable for its POIs (issue 15 "event kinds"). */
export const templateEventKinds = ['link', 'alarm', 'offline', 'fault'] as const
export type TemplateEventKind = (typeof templateEventKinds)[number]

/** Limits of names and lists. */
export const templateLimits = {
  categoryNameMaxLength: 50,
  /** Deepest category path (roots count as level 1). */
  categoryMaxDepth: 12,
  templateNameMaxLength: 50,
  codeMaxLength: 64,
  propertyColumnMaxLength: 64,
  columnTextMaxLength: 200,
  labelKeyMaxLength: 50,
  /** Static attributes per template. */
  maxProperties: 200,
  /** Labels (current and history) per template. */
  maxLabels: 200,
  /** Levels of a multi-level template, and attributes per level. */
  maxLevels: 10,
  maxLevelProperties: 100,
  pageSizeMax: 100,
  keywordMaxLength: 100,
} as const

/**
 * `property_column`: an identifier (letters, digits, underscore, not starting with a digit), as
 * it becomes a key of POI data and a column of the batch-POI file.
 */
export const propertyColumnPattern = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `poicategory_code`: letters, digits, `_`, `-`, `.` (it names the template in files). */
export const templateCodePattern = /^[A-Za-z0-9_.-]+$/

/** The kind a category path gives (SPEC §4 "Category choice"). */
export function templateKindOfPath(piddes: string): TemplateKind {
  return piddes.split(',')[0] === categoryRootIds.threeD ? '3D' : '2D'
}

// ---------------------------------------------------------------------------------------------
// shared field schemas

const categoryNameSchema = z
  .string()
  .trim()
  .min(1, zodMessage('template.categoryNameRequired'))
  .max(templateLimits.categoryNameMaxLength)

/** A category id or one of the fixed roots ('0' for the location tree's top). */
export const categoryIdSchema = recordIdSchema

/** `piddes`: comma-separated category ids from a root ('1' or '2') to the chosen category. */
export const piddesSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .regex(/^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$/, zodMessage('template.piddesFormat'))

const templateNameSchema = z.string().trim().min(1).max(templateLimits.templateNameMaxLength)
const templateCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(templateLimits.codeMaxLength)
  .regex(templateCodePattern, zodMessage('template.codeFormat'))

/** Paths of files the template uploads answered (`/web/files/…`, the 3D template store). */
const filePathSchema = z.string().trim().max(500)

const pageFields = {
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: templateLimits.pageSizeMax }).default(20),
}

/** A JSON value from JSON, or its text from a form field. */
function jsonOrText<Inner extends z.ZodType>(inner: Inner) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value
    try {
      return JSON.parse(value) as unknown
    } catch {
      return value
    }
  }, inner)
}

// ---------------------------------------------------------------------------------------------
// categories

/** A category node (SPEC §3 "POI category: category_name, pid, id, value"). */
export const categorySchema = z.object({
  id: categoryIdSchema,
  /** Parent id: '0' for a root (1, 2) and for the location tree's top level. */
  pid: z.string(),
  category_name: z.string(),
  /** A seeded category's name as a catalogue id (`library.category.*`); absent: as typed. */
  name_key: z.string().optional(),
  /** Same as id (tree and cascader widgets read `value`). */
  value: z.string(),
  /** 'poi' (under 2D/3D) or 'location'. */
  kind: z.enum(['poi', 'location']),
  /** Ids from the root to this node, comma-separated: what a template's `piddes` holds. */
  piddes: z.string(),
  /** Depth: roots and location top level are 1. */
  level: z.number().int(),
  /** True for shared categories (roots, admin-made); only an admin changes them. */
  is_system: z.boolean(),
  /** True when the caller may rename, move or delete it. */
  can_edit: z.boolean(),
  created_at: timestampSchema,
})
export type Category = z.infer<typeof categorySchema>

/** A category with its children (the tree answers). */
export type CategoryNode = Category & { children: CategoryNode[] }
export const categoryNodeSchema: z.ZodType<CategoryNode> = categorySchema.extend({
  children: z.array(z.lazy(() => categoryNodeSchema)),
})

/**
 * `/systempoicategory/addsystempoicategory` (admin: a shared category) and
 * `/poi/creatPoiCategory` (the caller's own). `pid` '1'/'2' (or any category id) files it under
 * that node; `pid` '0' makes a location category.
 */
export const addCategoryBodySchema = z.object({
  category_name: categoryNameSchema,
  pid: categoryIdSchema,
})
export type AddCategoryBody = z.input<typeof addCategoryBodySchema>

/**
 * `/systempoicategory/updatesystempoicategory`, `/poi/updatePoiCategory`: rename and/or move.
 * Moving under itself or its own descendant is refused (`template.categoryCycle`); a node never
 * moves between the 2D/3D tree and the location tree while templates use it.
 */
export const updateCategoryBodySchema = z.object({
  id: categoryIdSchema,
  category_name: categoryNameSchema.optional(),
  pid: categoryIdSchema.optional(),
})
export type UpdateCategoryBody = z.input<typeof updateCategoryBodySchema>

/** Calls that take one id (`delsystempoicategory`, `findsystempoicategory`, `deletePoiCategory`…). */
export const idBodySchema = z.object({ id: recordIdSchema })
export type IdBody = z.input<typeof idBodySchema>

/** `findallsystempoicategory` (id 0) and `findlocationsystempoicategory` (id '0'): id optional. */
export const treeBodySchema = z.object({ id: z.union([z.string(), z.number()]).optional() })

/** `/poi/selectPoiCategorys`: the children of one node (`pid`), one level. */
export const childrenBodySchema = z.object({ pid: categoryIdSchema })

/**
 * `/poi/selectPoiCategoryPage` (query `pageSize`, `pageNo`): a page of categories, flat, in tree
 * order (path), optionally only under `pid` (any depth) or matching `keyword`.
 */
export const categoryPageQuerySchema = z.object(pageFields)
export const categoryPageBodySchema = z.object({
  pid: categoryIdSchema.optional(),
  keyword: z.string().trim().max(templateLimits.keywordMaxLength).optional(),
  kind: z.enum(['poi', 'location']).optional(),
})
export const categoryPageSchema = z.object({
  list: z.array(categorySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type CategoryPage = z.infer<typeof categoryPageSchema>

/** `/systempoicategory/findgroupsystempoicategory`: each category of a tree with its templates. */
export const categoryGroupSchema = z.object({
  category: categorySchema,
  templates: z.array(z.lazy(() => templateListItemSchema)),
})
export const categoryGroupsSchema = z.array(categoryGroupSchema)

/** What deleting a category or template removed. */
export const deletedDatumSchema = z.object({ deleted: z.number().int() })

// ---------------------------------------------------------------------------------------------
// templates

/** A static attribute as a multi-level template's level lists it (no id: it lives in the JSON). */
export const levelPropertySchema = z.object({
  property_column: z
    .string()
    .trim()
    .min(1)
    .max(templateLimits.propertyColumnMaxLength)
    .regex(propertyColumnPattern, zodMessage('template.propertyColumnFormat')),
  column_des: z.string().trim().min(1).max(templateLimits.columnTextMaxLength),
  column_example: z.string().trim().min(1).max(templateLimits.columnTextMaxLength),
})
export type LevelProperty = z.infer<typeof levelPropertySchema>

/** One level of a multi-level template: its name and the attributes a POI of that level has. */
export const templateLevelSchema = z.object({
  level_name: z.string().trim().min(1).max(templateLimits.templateNameMaxLength),
  customs: z.array(levelPropertySchema).max(templateLimits.maxLevelProperties).default([]),
})
export type TemplateLevel = z.output<typeof templateLevelSchema>

/** `projectInfoAllCustoms` as input: an array (JSON) or its JSON text (form). */
export const templateLevelsInputSchema = jsonOrText(
  z.array(templateLevelSchema).min(1).max(templateLimits.maxLevels),
)

/** A template as `selectPoiCategoryBasic` answers it (SPEC §3 "POI template", every field). */
export const templateSchema = z.object({
  id: recordIdSchema,
  uuid: z.string(),
  name: z.string(),
  /**
   * A seeded library template's name as a catalogue id (contract/messages.ts `library.template.*`)
   * for the client to show in the user's language; absent for a name shown as typed.
   */
  name_key: z.string().optional(),
  poicategory_code: z.string(),
  piddes: z.string(),
  /** The last id of `piddes`. */
  category_id: z.string(),
  type: z.enum(templateKinds),
  /** Served address of the icon (`/web/files/<uuid>.png`), '' when none. */
  iconpath: z.string(),
  /** Same as iconpath (SPEC §3 lists both spellings). */
  icon_path: z.string(),
  /** The 3D template zip upload's uuid (templates-files), '' when none. */
  category_zip_uuid: z.string(),
  bgtype: z.string(),
  template_type: z.enum(templateTypes),
  use_shadow_editor_render: z.boolean(),
  is_iot_device: z.boolean(),
  /** Levels of a multi-level template; [] for a simple one. */
  projectInfoAllCustoms: z.array(templateLevelSchema),
  /** Names of the projects whose POIs use this template. */
  refProjectNameList: z.array(z.string()),
  file_path: z.string(),
  jpg_name: z.string(),
  xml_name: z.string(),
  glbf_name: z.string(),
  /** True for a shared library template (read-only unless the caller is an admin). */
  is_system: z.boolean(),
  can_edit: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type Template = z.infer<typeof templateSchema>

/**
 * A row of the template list page (SPEC §3 "Listing also shows classify, category, encoding,
 * creation time and used project"): the template plus the names the columns show.
 */
export const templateListItemSchema = templateSchema.extend({
  /** The kind shown as "classify": '2D' or '3D'. */
  classify: z.enum(templateKinds),
  /** The category's name path as stored, e.g. '3D / Fire / Extinguishers'. */
  category: z.string(),
  /**
   * The same path step by step from the root, each seeded (library) category with its name's
   * catalogue id (`name_key`), so the client shows the path in the user's language.
   */
  category_path: z.array(z.object({ category_name: z.string(), name_key: z.string().optional() })),
  /** = poicategory_code. */
  encoding: z.string(),
})
export type TemplateListItem = z.infer<typeof templateListItemSchema>

/** Fields a template is saved with, as an update sends them (none has a default here). */
const templateFieldsBase = {
  name: templateNameSchema,
  poicategory_code: templateCodeSchema,
  piddes: piddesSchema,
  /** Must name an image the caller uploaded (`/upload/uploadJpg`) or a library icon; '' for none. */
  iconpath: filePathSchema,
  uuid: z.string().trim().max(64),
  category_zip_uuid: z.string().trim().max(64),
  bgtype: z.string().trim().min(1).max(8),
  use_shadow_editor_render: formBoolean(),
  is_iot_device: formBoolean(),
  file_path: filePathSchema,
  jpg_name: filePathSchema,
  xml_name: filePathSchema,
  glbf_name: filePathSchema,
}

/** The same fields as a create sends them (SPEC §5: name, poicategory_code, piddes, iconpath). */
const templateFields = {
  ...templateFieldsBase,
  iconpath: filePathSchema.default(''),
  uuid: z.string().trim().max(64).optional(),
  category_zip_uuid: z.string().trim().max(64).default(''),
  bgtype: z.string().trim().min(1).max(8).default('1'),
  use_shadow_editor_render: formBoolean().default(false),
  is_iot_device: formBoolean().default(false),
  file_path: filePathSchema.default(''),
  jpg_name: filePathSchema.default(''),
  xml_name: filePathSchema.default(''),
  glbf_name: filePathSchema.default(''),
}

/**
 * `/poi/creatPoiCategoryBasic`: a simple template. A 2D template needs `iconpath` (SPEC §5); a 3D
 * one needs its model (`category_zip_uuid` or `file_path`) or an icon. Answers the template
 * (SPEC "create returns datum.id").
 */
export const createTemplateBodySchema = z.object(templateFields)
export type CreateTemplateBody = z.input<typeof createTemplateBodySchema>

/**
 * `/poi/updatePoiCategoryBasic`: any template field; `id` names it. A multi-level template may
 * send `projectInfoAllCustoms` here too.
 */
export const updateTemplateBodySchema = z.object(templateFieldsBase).partial().extend({
  id: recordIdSchema,
  projectInfoAllCustoms: templateLevelsInputSchema.optional(),
})
export type UpdateTemplateBody = z.input<typeof updateTemplateBodySchema>

/**
 * `/poi/createMultiLevelTemplate`: a multi-level template (`template_type '1'`): name,
 * poicategory_code, piddes and `projectInfoAllCustoms` (SPEC §5); the icon is optional.
 */
export const createMultiLevelTemplateBodySchema = z.object({
  ...templateFields,
  projectInfoAllCustoms: templateLevelsInputSchema,
})
export type CreateMultiLevelTemplateBody = z.input<typeof createMultiLevelTemplateBodySchema>

/**
 * `/poi/creatPoiCategoryMultiLevelBasic`: the multi-level popup's basic-tab save: creates the
 * multi-level template when `id` is absent, else updates that one (it must be multi-level).
 */
export const saveMultiLevelTemplateBodySchema = createMultiLevelTemplateBodySchema.extend({
  id: recordIdSchema.optional(),
})
export type SaveMultiLevelTemplateBody = z.input<typeof saveMultiLevelTemplateBodySchema>

/**
 * `/poi/selectPoiTemplatePage` (query `pageSize`, `pageNo`): the template list page. `keyword`
 * matches name or code (case-insensitive substring); `category_id` limits to a category and its
 * descendants; `scope` 'own' hides the library, 'system' shows only it.
 */
export const templatePageQuerySchema = z.object(pageFields)
export const templatePageBodySchema = z.object({
  keyword: z.string().trim().max(templateLimits.keywordMaxLength).optional(),
  category_id: categoryIdSchema.optional(),
  type: z.enum(templateKinds).optional(),
  template_type: z.enum(templateTypes).optional(),
  scope: z.enum(['all', 'own', 'system']).default('all'),
})
export type TemplatePageBody = z.input<typeof templatePageBodySchema>
export const templatePageSchema = z.object({
  list: z.array(templateListItemSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type TemplatePage = z.infer<typeof templatePageSchema>

/**
 * `/poi/copyPoiCategoryBasic`: copies a template (own or library) into the caller's templates
 * with its static attributes, labels and events; the copy's name gets a suffix and its code a
 * free `-copy`, `-copy2`… suffix. Optional `name`/`poicategory_code` choose them instead.
 */
export const copyTemplateBodySchema = z.object({
  id: recordIdSchema,
  name: templateNameSchema.optional(),
  poicategory_code: templateCodeSchema.optional(),
})
export type CopyTemplateBody = z.input<typeof copyTemplateBodySchema>

// ---------------------------------------------------------------------------------------------
// static attributes (custom properties)

/** SPEC §3 "Static attribute of a template". */
export const templatePropertySchema = z.object({
  id: recordIdSchema,
  poicategoryid: recordIdSchema,
  property_column: z.string(),
  column_des: z.string(),
  column_example: z.string(),
  created_at: timestampSchema,
})
export type TemplateProperty = z.infer<typeof templatePropertySchema>

/** `/poi/selectPoiCategoryCustomPropery`. */
export const templateIdBodySchema = z.object({ poicategoryid: recordIdSchema })

/**
 * `/poi/creatPoiCategoryCustomPropery` (SPEC §5: all three needed; `property_column` unique per
 * template and an identifier).
 */
export const createPropertyBodySchema = levelPropertySchema.extend({
  poicategoryid: recordIdSchema,
})
export type CreatePropertyBody = z.input<typeof createPropertyBodySchema>

/** `/poi/updatePoiCategoryCustomPropery`. */
export const updatePropertyBodySchema = levelPropertySchema.partial().extend({ id: recordIdSchema })
export type UpdatePropertyBody = z.input<typeof updatePropertyBodySchema>

// ---------------------------------------------------------------------------------------------
// labels

/** SPEC §3 "Template labels: id, labelKey". */
export const templateLabelSchema = z.object({
  id: recordIdSchema,
  labelKey: z.string(),
})
export type TemplateLabel = z.infer<typeof templateLabelSchema>

/** `/poi/getPoiCategoryLabel` answer: current labels and history (removed, re-addable) labels. */
export const templateLabelsSchema = z.object({
  poicategoryLabels: z.array(templateLabelSchema),
  poicategoryHistoryLabels: z.array(templateLabelSchema),
})
export type TemplateLabels = z.infer<typeof templateLabelsSchema>

const labelKeySchema = z.string().trim().min(1).max(templateLimits.labelKeyMaxLength)

/**
 * `/poi/creatPoiCategoryLabel`: `id` is the template id, `label.labelKey` the label (form key
 * `label.labelKey` or JSON `{label: {labelKey}}`). A key already in the history comes back as
 * current; a key already current is refused. Answers the new label.
 */
export const createLabelBodySchema = z.object({
  id: recordIdSchema,
  label: z.object({ labelKey: labelKeySchema }),
})
export type CreateLabelBody = z.input<typeof createLabelBodySchema>

/** `/poi/getPoiCategoryLabel`: the template id. */
export const getLabelsBodySchema = z.object({ id: recordIdSchema })

/**
 * `/poi/deletePoiCategoryLabel`: `id` is the label id. `status` false (the spec's call) moves it
 * from the current list to the history; true removes it from the history too.
 */
export const deleteLabelBodySchema = z.object({
  id: recordIdSchema,
  status: formBoolean().default(false),
})
export type DeleteLabelBody = z.input<typeof deleteLabelBodySchema>

/** `/poi/updatePoiCategoryLabel`: renames a label. */
export const updateLabelBodySchema = z.object({ id: recordIdSchema, labelKey: labelKeySchema })
export type UpdateLabelBody = z.input<typeof updateLabelBodySchema>

// ---------------------------------------------------------------------------------------------
// events

/** One event kind of a template: whether POIs of it raise it, with its code and icon. */
export const templateEventSchema = z.object({
  kind: z.enum(templateEventKinds),
  is_enabled: z.boolean(),
  /** The device's event code that triggers it (SPEC §3 POI `event_code`), '' when none. */
  event_code: z.string(),
  /** Icon shown while it is active (SPEC §3 POI `event_image`, an uploaded image), '' for the default. */
  event_image: z.string(),
})
export type TemplateEvent = z.infer<typeof templateEventSchema>

/** `/poi/selectPoiCategoryEvent` answer: always the four kinds, in the order of templateEventKinds. */
export const templateEventsSchema = z.array(templateEventSchema)

/** `/poi/updatePoiCategoryEvent`: sets the kinds named (others stay as they are). */
export const updateEventsBodySchema = z.object({
  poicategoryid: recordIdSchema,
  events: jsonOrText(
    z
      .array(
        z.object({
          kind: z.enum(templateEventKinds),
          is_enabled: formBoolean(),
          event_code: z.string().trim().max(64).default(''),
          event_image: filePathSchema.default(''),
        }),
      )
      .min(1)
      .max(templateEventKinds.length),
  ),
})
export type UpdateEventsBody = z.input<typeof updateEventsBodySchema>

// ---------------------------------------------------------------------------------------------
// POIs made from templates (the part of issue 16 this issue needs)

/**
 * `/poi/sysnPoiCustomProperty` (all the caller's POIs of the template) and
 * `/poi/sysnCurrentProjectPoiCustomProperty` (only `project_id`'s): every such POI gets the
 * template's static attributes (missing ones added with the example value, values of existing
 * ones kept, ones the template no longer has removed), in one transaction.
 */
export const syncPropertiesBodySchema = z.object({ poicategoryid: recordIdSchema })
export const syncProjectPropertiesBodySchema = z.object({
  poicategoryid: recordIdSchema,
  project_id: recordIdSchema,
})
export const syncDatumSchema = z.object({
  /** POIs brought in line. */
  poi_count: z.number().int(),
})
export type SyncDatum = z.infer<typeof syncDatumSchema>

/**
 * `/poi/updatePoiCategoryId`: makes POIs (`id`, one or a list) use another template
 * (`poicategoryid`), copying its code, kind and attributes onto them, in one transaction.
 */
export const updatePoiTemplateBodySchema = z.object({
  id: z.union([z.array(recordIdSchema).min(1).max(1000), recordIdSchema.transform((id) => [id])]),
  poicategoryid: recordIdSchema,
})
export type UpdatePoiTemplateBody = z.input<typeof updatePoiTemplateBodySchema>

// ---------------------------------------------------------------------------------------------
// the calls

const nullDatum = z.null()

/** The /web/ routes of this area, all POST (the route table: contract/route.ts, contract/routes.ts). */
export const templateRoutes = {
  // shared (system) categories: admins write, everyone signed in reads
  addSystemCategory: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/addsystempoicategory',
    auth: 'admin',
    summary: 'Add a shared POI category',
    body: addCategoryBodySchema,
    datum: categorySchema,
  }),
  updateSystemCategory: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/updatesystempoicategory',
    auth: 'admin',
    summary: 'Rename or move a shared POI category',
    body: updateCategoryBodySchema,
    datum: categorySchema,
  }),
  deleteSystemCategory: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/delsystempoicategory',
    auth: 'admin',
    summary: 'Delete a shared POI category and its unused sub-categories',
    body: idBodySchema,
    datum: deletedDatumSchema,
  }),
  findCategory: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/findsystempoicategory',
    auth: 'user',
    summary: 'One category with its subtree',
    body: idBodySchema,
    datum: categoryNodeSchema,
  }),
  findAllCategories: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/findallsystempoicategory',
    auth: 'user',
    summary: 'The 2D and 3D category trees (id 0)',
    body: treeBodySchema,
    datum: z.array(categoryNodeSchema),
  }),
  findLocationCategories: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/findlocationsystempoicategory',
    auth: 'user',
    summary: "The location category tree (id '0')",
    body: treeBodySchema,
    datum: z.array(categoryNodeSchema),
  }),
  findCategoryGroups: webRoute({
    method: 'POST',
    path: '/web/systempoicategory/findgroupsystempoicategory',
    auth: 'user',
    summary: 'Each category under a node (default both roots) with its templates',
    body: treeBodySchema,
    datum: categoryGroupsSchema,
  }),
  // the caller's own categories
  createCategory: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiCategory',
    auth: 'editor',
    summary: 'Add one of my POI categories',
    body: addCategoryBodySchema,
    datum: categorySchema,
  }),
  updateCategory: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategory',
    auth: 'editor',
    summary: 'Rename or move one of my POI categories',
    body: updateCategoryBodySchema,
    datum: categorySchema,
  }),
  deleteCategory: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoiCategory',
    auth: 'editor',
    summary: 'Delete one of my POI categories (refused while templates or POIs use it)',
    body: idBodySchema,
    datum: deletedDatumSchema,
  }),
  selectCategoryChildren: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiCategorys',
    auth: 'user',
    summary: 'The children of a category (pid)',
    body: childrenBodySchema,
    datum: z.array(categorySchema),
  }),
  selectCategoryPage: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiCategoryPage',
    auth: 'user',
    summary: 'A page of categories (query pageSize, pageNo)',
    body: categoryPageBodySchema,
    query: categoryPageQuerySchema,
    datum: categoryPageSchema,
  }),
  // templates
  selectTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiCategoryBasic',
    auth: 'user',
    summary: 'One template',
    body: idBodySchema,
    datum: templateSchema,
  }),
  createTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiCategoryBasic',
    auth: 'editor',
    summary: 'Create a simple template (answers it; datum.id unlocks the other tabs)',
    body: createTemplateBodySchema,
    datum: templateSchema,
  }),
  updateTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategoryBasic',
    auth: 'editor',
    summary: 'Change a template',
    body: updateTemplateBodySchema,
    datum: templateSchema,
  }),
  createMultiLevelTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/createMultiLevelTemplate',
    auth: 'editor',
    summary: 'Create a multi-level template',
    body: createMultiLevelTemplateBodySchema,
    datum: templateSchema,
  }),
  saveMultiLevelTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiCategoryMultiLevelBasic',
    auth: 'editor',
    summary: "Save a multi-level template's basic tab (create without id, update with id)",
    body: saveMultiLevelTemplateBodySchema,
    datum: templateSchema,
  }),
  selectTemplatePage: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiTemplatePage',
    auth: 'user',
    summary: 'A page of templates with search (query pageSize, pageNo)',
    body: templatePageBodySchema,
    query: templatePageQuerySchema,
    datum: templatePageSchema,
  }),
  copyTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/copyPoiCategoryBasic',
    auth: 'editor',
    summary: 'Copy a template into my templates',
    body: copyTemplateBodySchema,
    datum: templateSchema,
  }),
  deleteTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoiCategoryBasic',
    auth: 'editor',
    summary: 'Delete a template (refused while POIs use it)',
    body: idBodySchema,
    datum: deletedDatumSchema,
  }),
  // static attributes
  selectProperties: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiCategoryCustomPropery',
    auth: 'user',
    summary: "A template's static attributes",
    body: templateIdBodySchema,
    datum: z.array(templatePropertySchema),
  }),
  createProperty: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiCategoryCustomPropery',
    auth: 'editor',
    summary: 'Add a static attribute',
    body: createPropertyBodySchema,
    datum: templatePropertySchema,
  }),
  updateProperty: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategoryCustomPropery',
    auth: 'editor',
    summary: 'Change a static attribute',
    body: updatePropertyBodySchema,
    datum: templatePropertySchema,
  }),
  deleteProperty: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoiCategoryCustomPropery',
    auth: 'editor',
    summary: 'Delete a static attribute',
    body: idBodySchema,
    datum: nullDatum,
  }),
  // labels
  createLabel: webRoute({
    method: 'POST',
    path: '/web/poi/creatPoiCategoryLabel',
    auth: 'editor',
    summary: 'Add a label to a template (or bring one back from its history)',
    body: createLabelBodySchema,
    datum: templateLabelSchema,
  }),
  getLabels: webRoute({
    method: 'POST',
    path: '/web/poi/getPoiCategoryLabel',
    auth: 'user',
    summary: "A template's current and history labels",
    body: getLabelsBodySchema,
    datum: templateLabelsSchema,
  }),
  updateLabel: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategoryLabel',
    auth: 'editor',
    summary: 'Rename a label',
    body: updateLabelBodySchema,
    datum: templateLabelSchema,
  }),
  deleteLabel: webRoute({
    method: 'POST',
    path: '/web/poi/deletePoiCategoryLabel',
    auth: 'editor',
    summary: 'Move a label to the history (status false) or remove it (status true)',
    body: deleteLabelBodySchema,
    datum: nullDatum,
  }),
  // events
  selectEvents: webRoute({
    method: 'POST',
    path: '/web/poi/selectPoiCategoryEvent',
    auth: 'user',
    summary: "A template's event kinds (link, alarm, offline, fault)",
    body: templateIdBodySchema,
    datum: templateEventsSchema,
  }),
  updateEvents: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategoryEvent',
    auth: 'editor',
    summary: "Set a template's event kinds",
    body: updateEventsBodySchema,
    datum: templateEventsSchema,
  }),
  // POIs made from templates
  syncProperties: webRoute({
    method: 'POST',
    path: '/web/poi/sysnPoiCustomProperty',
    auth: 'editor',
    summary: "Push a template's static attributes onto all my POIs made from it",
    body: syncPropertiesBodySchema,
    datum: syncDatumSchema,
  }),
  syncProjectProperties: webRoute({
    method: 'POST',
    path: '/web/poi/sysnCurrentProjectPoiCustomProperty',
    auth: 'editor',
    summary: "Push a template's static attributes onto its POIs in one project",
    body: syncProjectPropertiesBodySchema,
    datum: syncDatumSchema,
  }),
  updatePoiTemplate: webRoute({
    method: 'POST',
    path: '/web/poi/updatePoiCategoryId',
    auth: 'editor',
    summary: 'Make POIs use another template',
    body: updatePoiTemplateBodySchema,
    datum: syncDatumSchema,
  }),
}

/** The name of one of this area's routes. */
export type TemplateCallName = keyof typeof templateRoutes

/**
 * The same routes with `url` beside `path`: the first version of this contract named the
 * address `url`, and code written against it (sibling branches of issue 15) still reads it.
 * New code uses {@link templateRoutes}.
 */
export const templateCalls = Object.fromEntries(
  Object.entries(templateRoutes).map(([name, route]) => [name, { ...route, url: route.path }]),
) as { [Name in TemplateCallName]: (typeof templateRoutes)[Name] & { url: string } }
