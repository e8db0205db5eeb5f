import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { z } from 'zod'
import { parseJsonField, shapeLimitMessages } from './json-text'
import { zodMessage } from './messages'
import { checkedList, formBoolean, formInteger, formNumber } from './form-fields'
import { projectPermissionsSchema } from './project-permissions'
import { webRoute } from './route'

/**
 * Projects (SPEC §3 "Project", §7 "Project"). Field names keep the spec's spelling
 * (`prewiewpath`, `title_level`, `detailedaddress`) so every client agrees on them.
 */

/** The two project kinds: an outdoor city scene and an indoor building ("space") scene. */
export const projectKindSchema = z.enum(['city', 'building'])
export type ProjectKind = z.infer<typeof projectKindSchema>

/** SPEC §9 defaults for a new project's tile settings and scope. */
export const projectDefaults = {
  gis_width: 600,
  gis_height: 800,
  tile_radius: 0.5,
  title_level: 15,
} as const

/** Text limits of the project form (the text area's default 100 for the description, SPEC §5). */
export const projectLimits = {
  nameMaxLength: 50,
  detailedAddressMaxLength: 200,
  descriptionMaxLength: 100,
} as const

/** A point in WGS84 degrees, as the map picker gives it (SPEC §3 "Map pick result"). */
export const lngLatSchema = z.object({
  lng: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
})
export type LngLat = z.infer<typeof lngLatSchema>

/**
 * A project's location (`project_center`): the picked point, and once its anchors placed the
 * building (issue 18, SPEC §5) the placement they solved — `heading`, degrees clockwise from
 * north of the model's +y axis (0…360), and `scale`, model metres to earth metres.
 */
export const projectCenterSchema = lngLatSchema.extend({
  heading: z.number().optional(),
  scale: z.number().optional(),
})
export type ProjectCenter = z.infer<typeof projectCenterSchema>

/**
 * A JSON value that may arrive as JSON or, from a form, as its JSON text (SPEC §3 says
 * `project_center` and `tile_coordinates` are JSON).
 */
function jsonOrText<Inner extends z.ZodType>(inner: Inner) {
  return z.preprocess((value, context) => {
    if (typeof value !== 'string') return value
    // A form field is JSON text nothing checked as a body: its shape is bounded the same way.
    const parsed = parseJsonField(value)
    if ('value' in parsed) return parsed.value
    if (parsed.problem !== 'malformed') {
      const { id, maximum } = shapeLimitMessages[parsed.problem]
      context.addIssue({ code: 'custom', message: id, params: { maximum }, input: value })
      return undefined
    }
    return value
  }, inner)
}

/** A picked point as input: numbers from JSON, or decimal text from a nested form field. */
export const lngLatInputSchema = z.object({
  lng: formNumber(z.number().min(-180).max(180)),
  lat: formNumber(z.number().min(-90).max(90)),
})

/**
 * `project_center` as an update takes it: the point, and optionally the placement the anchors
 * solved (a heading; a scale a model could have, 1/1000 to 1000, 1 when left out).
 */
export const projectCenterInputSchema = lngLatInputSchema.extend({
  heading: formNumber(z.number().min(0).max(360)).optional(),
  scale: formNumber(z.number().min(0.001).max(1000)).optional(),
})

/**
 * Largest body of project create and update (the server's default is 64 KiB): 10,000 tile
 * index pairs, as JSON (~160 KB) or as JSON text in a form field (percent-encoded, ~280 KB).
 */
export const projectBodyMaxBytes = 512 * 1024

/** A tile index pair `[x, y]`, or undefined. */
function readTileIndexPair(value: unknown): [number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined
  const [x, y] = value as [unknown, unknown]
  const isIndex = (index: unknown): index is number =>
    Number.isSafeInteger(index) && (index as number) >= 0
  return isIndex(x) && isIndex(y) ? [x, y] : undefined
}

/**
 * Tile indexes `[x, y]` at `title_level` (SPEC §3 `tile_coordinates`), checked in one loop:
 * zod's own tuple per pair held the event loop ~50 ms for 10,000 of them.
 */
export const tileCoordinatesSchema = checkedList({
  maxItems: 10_000,
  readItem: readTileIndexPair,
  describeItem: z.tuple([z.number().int().min(0), z.number().int().min(0)]),
  acceptsBareItem: false,
})

/** A project as the API shows it. */
export const projectSchema = z.object({
  /** Shown as AppID. */
  id: recordIdSchema,
  kind: projectKindSchema,
  name: z.string(),
  /** The deepest chosen division code of the region cascade, or null. */
  area_id: z.string().nullable(),
  /** Its path, e.g. '湖北省 / 武汉市 / 江岸区', derived by the server from `area_id`. */
  area_name: z.string().nullable(),
  detailedaddress: z.string(),
  use_shadow_editor_render: z.boolean(),
  /** Address of the cover image (`GET` it), or null. */
  prewiewpath: z.string().nullable(),
  /** The uploaded cover's uuid (`/upload/uploadJpg`), or null. */
  prewiewpath_uuid: z.string().nullable(),
  /** A small version of the cover for lists; the cover itself when none was made. */
  prewiewpath_thumb: z.string().nullable(),
  description: z.string(),
  gis_width: z.number(),
  gis_height: z.number(),
  tile_radius: z.number(),
  title_level: z.number(),
  tile_coordinates: tileCoordinatesSchema.nullable(),
  project_center: projectCenterSchema.nullable(),
  shell_json_path: z.string().nullable(),
  owner_id: recordIdSchema,
  owner_name: z.string(),
  /** A paid (VIP) project may download its offline package (SPEC §6). */
  is_paid: z.boolean(),
  /** An official example shown in the project case gallery, readable by everyone. */
  is_case: z.boolean(),
  /**
   * A seeded case's texts as catalogue ids (contract/messages.ts), sent while the case still has
   * its seeded English text, so the client shows it in the user's language; absent otherwise.
   */
  name_key: z.string().optional(),
  description_key: z.string().optional(),
  detailedaddress_key: z.string().optional(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  /**
   * What the caller may do on this project (contract/project-permissions.ts), computed by the
   * server for the caller who asked; the console shows controls by it. Always sent by the server;
   * optional so older answers and test fixtures still parse.
   */
  permissions: projectPermissionsSchema.optional(),
})
export type Project = z.infer<typeof projectSchema>

const nameField = z.string().trim().min(1).max(projectLimits.nameMaxLength)
const addressField = z.string().trim().min(1).max(projectLimits.detailedAddressMaxLength)
const descriptionField = z.string().trim().min(1).max(projectLimits.descriptionMaxLength)
const uuidField = z.string().trim().uuid()
/** '' from a form means "no region". */
const areaIdField = z
  .string()
  .trim()
  .regex(/^(\d{2}|\d{4}|\d{6}|\d{9})?$/, zodMessage('input.divisionCode'))

/** The editable fields, shared by create and update. */
const editableFields = {
  name: nameField,
  detailedaddress: addressField,
  description: descriptionField,
  /** The cover: a uuid returned by `/upload/uploadJpg` to the same user. */
  prewiewpath_uuid: uuidField,
  project_center: jsonOrText(lngLatInputSchema),
  area_id: areaIdField.optional(),
  use_shadow_editor_render: formBoolean().optional(),
  gis_width: formNumber(z.number().positive().max(1_000_000)).optional(),
  gis_height: formNumber(z.number().positive().max(1_000_000)).optional(),
  tile_radius: formNumber(z.number().positive().max(1_000)).optional(),
  title_level: formInteger({ min: 0, max: 24 }).optional(),
  tile_coordinates: jsonOrText(tileCoordinatesSchema.nullable()).optional(),
  shell_json_path: z.string().trim().max(500).nullable().optional(),
}

/**
 * `POST /web/project/addProject` and `/createProject` input: a new project. Name, detailed
 * address, cover and description are required (SPEC §5), and the address needs a picked
 * location (`project_center`). `kind` defaults to city.
 */
export const createProjectBodySchema = z.object({
  kind: projectKindSchema.default('city'),
  ...editableFields,
})
export type CreateProjectBody = z.input<typeof createProjectBodySchema>

/** `POST /web/project/updateProject` input: the id and the fields to change. */
export const updateProjectBodySchema = z.object({
  id: recordIdSchema,
  name: nameField.optional(),
  detailedaddress: addressField.optional(),
  description: descriptionField.optional(),
  prewiewpath_uuid: uuidField.optional(),
  project_center: jsonOrText(projectCenterInputSchema).optional(),
  area_id: editableFields.area_id,
  use_shadow_editor_render: editableFields.use_shadow_editor_render,
  gis_width: editableFields.gis_width,
  gis_height: editableFields.gis_height,
  tile_radius: editableFields.tile_radius,
  title_level: editableFields.title_level,
  tile_coordinates: editableFields.tile_coordinates,
  shell_json_path: editableFields.shell_json_path,
})
export type UpdateProjectBody = z.input<typeof updateProjectBodySchema>

/** Calls that name one project: delete, findProject(One), findprojectinfoall, tokens, share. */
export const projectIdBodySchema = z.object({ id: recordIdSchema })
export type ProjectIdBody = z.input<typeof projectIdBodySchema>

/**
 * `POST /web/project/copyProject` input. Without `name` the copy is named by
 * {@link copyNameOf} in the language of the caller's `language` cookie (ko without one).
 */
export const copyProjectBodySchema = z.object({ id: recordIdSchema, name: nameField.optional() })

/** What marks a copy's name, in each console language. */
export const copySuffixes = { ko: '(사본)', zh: '(副本)', en: '(copy)' } as const

/**
 * The name of a copy: "<name> (copy)" in the given language, the original's name shortened
 * (by whole characters) when both would not fit in a project name. One function for the
 * console, which shows the name before copying and sends it, and the server, which uses it
 * when a caller sends none.
 */
export function copyNameOf(name: string, language: keyof typeof copySuffixes): string {
  const suffix = copySuffixes[language]
  const room = projectLimits.nameMaxLength - suffix.length - 1
  const characters = Array.from(name.trim())
  const base = characters.length > room ? characters.slice(0, room).join('').trimEnd() : name.trim()
  return `${base} ${suffix}`
}
export type CopyProjectBody = z.input<typeof copyProjectBodySchema>

/** Sort keys of project lists. */
export const projectSortSchema = z.enum(['updated_at', 'created_at', 'name'])

/** Largest page a list call returns. */
export const projectPageSizeMax = 100

/**
 * `POST /web/project/findProjectAll`, `/searchProject` and `/findProjectAllByUser` input: a
 * page of the projects the caller may see, newest change first unless asked otherwise.
 * `keyword` matches name and detailed address (case-insensitive substring).
 */
export const projectListBodySchema = z.object({
  kind: projectKindSchema.optional(),
  keyword: z.string().trim().max(100).optional(),
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: projectPageSizeMax }).default(20),
  sort: projectSortSchema.default('updated_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Only for `/findProjectAllByUser`: whose projects (admins may name anyone; default: self). */
  user_id: recordIdSchema.optional(),
})
export type ProjectListBody = z.input<typeof projectListBodySchema>

/** A page of projects with the total count across all pages. */
export const projectPageSchema = z.object({
  list: z.array(projectSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
})
export type ProjectPage = z.infer<typeof projectPageSchema>

/** `POST /web/project/findProjectCases` answer (and `/projectCase`): the official examples. */
export const projectCasesDatumSchema = z.array(projectSchema)

/** A division on the project's region path (see `contract/region.ts`). */
const regionStepSchema = z.object({ codeid: z.string(), name: z.string() })

/** `POST /web/project/findprojectinfoall` answer: the project and what the info viewer shows. */
export const projectInfoSchema = projectSchema.extend({
  region_path: z.array(regionStepSchema),
})
export type ProjectInfo = z.infer<typeof projectInfoSchema>

/**
 * `POST /web/project/getPTokenByprojectId` answer: a project token (decisions.md), scoped to
 * this one project, for the scene editor and public preview links. It can be revoked.
 */
export const projectTokenDatumSchema = z.object({
  project_id: recordIdSchema,
  project_token: z.string(),
  expires_at: timestampSchema,
})
export type ProjectTokenDatum = z.infer<typeof projectTokenDatumSchema>

/** `POST /web/project/projectShareUrl` answer: a public preview address carrying a token. */
export const projectShareDatumSchema = projectTokenDatumSchema.extend({
  /** Relative to the web app's origin, e.g. `/#/bim4/outPreview?project_id=…&project_token=…`. */
  url: z.string(),
})
export type ProjectShareDatum = z.infer<typeof projectShareDatumSchema>

/** `POST /web/project/findProjectCounts` answer: how many projects of each kind the caller has. */
export const projectCountsDatumSchema = z.object({ city: z.number(), building: z.number() })

/** `POST /web/project/revokeProjectTokens` answer: how many tokens stopped working. */
export const revokeProjectTokensDatumSchema = z.object({ revoked: z.number().int() })

/** The public preview route the share address opens (SPEC §2). */
export function projectShareUrl(projectId: string, projectToken: string): string {
  const query = new URLSearchParams({ project_id: projectId, project_token: projectToken })
  return `/#/bim4/outPreview?${query.toString()}`
}

/** `POST /web/project/findProject` and the info viewer's input: by user or project token. */
export const readProjectBodySchema = projectIdBodySchema.extend({
  /** A project token instead of a user token, for public preview links. */
  project_token: z.string().max(100).optional(),
})

const createProjectDescription =
  'Name, detailed address, cover (an uploadJpg uuid), description and the picked location are ' +
  'required (SPEC §5). Tile settings default to SPEC §9.'

const listProjectsDescription =
  'Paged (pageNo from 1, pageSize ≤ 100), sorted (updated_at, created_at or name) and ' +
  'searchable (keyword in name or detailed address). Editors see their own projects, admins ' +
  'all, guests the project cases.'

function createProjectRoute(path: '/web/project/addProject' | '/web/project/createProject') {
  return webRoute({
    method: 'POST',
    path,
    auth: 'editor',
    summary: 'Create a project (city or building)',
    description: createProjectDescription,
    body: createProjectBodySchema,
    datum: projectSchema,
  })
}

function listProjectsRoute(path: `/web/project/${string}`, summary: string) {
  return webRoute({
    method: 'POST',
    path,
    auth: 'user',
    summary,
    description: listProjectsDescription,
    body: projectListBodySchema,
    datum: projectPageSchema,
  })
}

function findProjectRoute(path: '/web/project/findProject' | '/web/project/findProjectOne') {
  return webRoute({
    method: 'POST',
    path,
    auth: 'public',
    summary: 'One project, by user token or by its project token',
    body: readProjectBodySchema,
    datum: projectSchema,
  })
}

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const projectRoutes = {
  addProject: createProjectRoute('/web/project/addProject'),
  /** SPEC §7 names both. */
  createProject: createProjectRoute('/web/project/createProject'),
  updateProject: webRoute({
    method: 'POST',
    path: '/web/project/updateProject',
    auth: 'editor',
    summary: 'Change a project of the caller (admins: any)',
    body: updateProjectBodySchema,
    datum: projectSchema,
  }),
  deleteProject: webRoute({
    method: 'POST',
    path: '/web/project/deleteProject',
    auth: 'editor',
    summary: 'Delete a project with its tokens; its files go once nothing else uses them',
    body: projectIdBodySchema,
    datum: nullDatumSchema,
  }),
  copyProject: webRoute({
    method: 'POST',
    path: '/web/project/copyProject',
    auth: 'editor',
    summary: 'Copy a project (own, or an official case) into the caller’s projects',
    description:
      'The copy uses the same cover file; no bytes are duplicated. Without `name` the copy is ' +
      'named "<name> (copy)" in the language of the `language` cookie (ko "(사본)", zh "(副本)", ' +
      'en "(copy)"; ko without the cookie).',
    body: copyProjectBodySchema,
    datum: projectSchema,
  }),
  findProjectAll: listProjectsRoute(
    '/web/project/findProjectAll',
    'A page of the projects the caller may see',
  ),
  searchProject: listProjectsRoute(
    '/web/project/searchProject',
    'Search the projects the caller may see',
  ),
  findProjectAllByUser: listProjectsRoute(
    '/web/project/findProjectAllByUser',
    'A page of one user’s projects (admins: anyone’s)',
  ),
  findProjectCounts: webRoute({
    method: 'POST',
    path: '/web/project/findProjectCounts',
    auth: 'user',
    summary: 'How many city and building projects the caller has',
    datum: projectCountsDatumSchema,
  }),
  findProjectCases: webRoute({
    method: 'POST',
    path: '/web/project/findProjectCases',
    auth: 'user',
    summary: 'The official example projects (project case gallery)',
    datum: projectCasesDatumSchema,
  }),
  findProject: findProjectRoute('/web/project/findProject'),
  findProjectOne: findProjectRoute('/web/project/findProjectOne'),
  findprojectinfoall: webRoute({
    method: 'POST',
    path: '/web/project/findprojectinfoall',
    auth: 'public',
    summary: 'What the project info viewer shows, with the region path',
    body: readProjectBodySchema,
    datum: projectInfoSchema,
  }),
  getPTokenByprojectId: webRoute({
    method: 'POST',
    path: '/web/project/getPTokenByprojectId',
    auth: 'user',
    summary: 'Issue a project token (30 days, revocable) for a project the caller may open',
    body: projectIdBodySchema,
    datum: projectTokenDatumSchema,
  }),
  projectShareUrl: webRoute({
    method: 'POST',
    path: '/web/project/projectShareUrl',
    auth: 'editor',
    summary: 'A public preview address carrying a new project token',
    body: projectIdBodySchema,
    datum: projectShareDatumSchema,
  }),
  revokeProjectTokens: webRoute({
    method: 'POST',
    path: '/web/project/revokeProjectTokens',
    auth: 'editor',
    summary: 'Revoke every project token (and share link) of a project',
    body: projectIdBodySchema,
    datum: revokeProjectTokensDatumSchema,
  }),
}
