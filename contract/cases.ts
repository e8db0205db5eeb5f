import { z } from 'zod'
import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { formInteger } from './form-fields'
import { projectSchema } from './project'
import { webRoute } from './route'

/**
 * Project cases curated by admins (SPEC §7 "/case menu and detail: add, update, delete, find";
 * issue 19 item 6). A case menu is a category of the case gallery; a case detail shows one
 * project (any project, made a case by an admin) with its own title, description, cover and
 * place in its menu. A project with a detail is readable by everyone (`is_case`); deleting the
 * detail makes it private again. The gallery (`/projectCase`) and the editors' "more cases"
 * tabs read `findCaseMenu` and `findCaseDetail`; only admins change them.
 */

/** Limits of the case fields. */
export const caseLimits = {
  menuNameMaxLength: 40,
  titleMaxLength: 60,
  descriptionMaxLength: 500,
  maxMenus: 50,
} as const

/** One category of the gallery. */
export const caseMenuSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  /** 0-based place in the gallery. */
  sort_order: z.number().int(),
  /** Cases in this category. */
  case_count: z.number().int(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type CaseMenu = z.infer<typeof caseMenuSchema>

/** One case: the project shown and how the gallery shows it. */
export const caseDetailSchema = z.object({
  id: recordIdSchema,
  project_id: recordIdSchema,
  /** Its category, or null: uncategorised (shown after the categories). */
  menu_id: recordIdSchema.nullable(),
  title: z.string(),
  description: z.string(),
  /** The case's own cover (`GET` it), else the project's, or null. */
  cover: z.string().nullable(),
  /** The uuid of the case's own cover (`/upload/uploadJpg`), or null. */
  cover_uuid: z.string().nullable(),
  /** 0-based place inside its category. */
  sort_order: z.number().int(),
  /** The project, with what the caller may do on it (open, copy). */
  project: projectSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type CaseDetail = z.infer<typeof caseDetailSchema>

const menuName = z.string().trim().min(1).max(caseLimits.menuNameMaxLength)
const title = z.string().trim().min(1).max(caseLimits.titleMaxLength)
const description = z.string().trim().max(caseLimits.descriptionMaxLength)
const coverUuid = z.union([z.literal(''), z.string().trim().uuid()])
/** A place in a list: later than the end means the end. */
const sortOrder = formInteger({ min: 0, max: 100_000 })
/** '' or absent: uncategorised. */
const menuRef = z.union([z.literal(''), recordIdSchema])

/** `addCaseMenu`: a new category, at the end unless `sort_order` says where. */
export const addCaseMenuBodySchema = z.object({ name: menuName, sort_order: sortOrder.optional() })
/** `updateCaseMenu`: rename and/or move a category. */
export const updateCaseMenuBodySchema = z.object({
  id: recordIdSchema,
  name: menuName.optional(),
  sort_order: sortOrder.optional(),
})
/** `deleteCaseMenu`: its cases stay, uncategorised. */
export const caseIdBodySchema = z.object({ id: recordIdSchema })

/**
 * `addCaseDetail`: makes a project a case. Title and description default to the project's; the
 * cover ('' or absent) to the project's cover.
 */
export const addCaseDetailBodySchema = z.object({
  project_id: recordIdSchema,
  menu_id: menuRef.optional(),
  title: title.optional(),
  description: description.optional(),
  cover_uuid: coverUuid.optional(),
  sort_order: sortOrder.optional(),
})
/** `updateCaseDetail`: changes what is sent; a new `menu_id` puts it at that menu's end. */
export const updateCaseDetailBodySchema = z.object({
  id: recordIdSchema,
  menu_id: menuRef.optional(),
  title: title.optional(),
  description: description.optional(),
  cover_uuid: coverUuid.optional(),
  sort_order: sortOrder.optional(),
})
/** `findCaseDetail`: every case, or one category's ('' the uncategorised). */
export const findCaseDetailBodySchema = z.object({ menu_id: menuRef.optional() })

/** The /web/case routes. */
export const caseRoutes = {
  addCaseMenu: webRoute({
    method: 'POST',
    path: '/web/case/addCaseMenu',
    auth: 'admin',
    summary: 'Add a category to the project case gallery (admins)',
    tags: ['case'],
    body: addCaseMenuBodySchema,
    datum: caseMenuSchema,
  }),
  updateCaseMenu: webRoute({
    method: 'POST',
    path: '/web/case/updateCaseMenu',
    auth: 'admin',
    summary: 'Rename or move a case category (admins)',
    tags: ['case'],
    body: updateCaseMenuBodySchema,
    datum: caseMenuSchema,
  }),
  deleteCaseMenu: webRoute({
    method: 'POST',
    path: '/web/case/deleteCaseMenu',
    auth: 'admin',
    summary: 'Delete a case category; its cases stay, uncategorised (admins)',
    tags: ['case'],
    body: caseIdBodySchema,
    datum: nullDatumSchema,
  }),
  findCaseMenu: webRoute({
    method: 'POST',
    path: '/web/case/findCaseMenu',
    auth: 'user',
    summary: 'The categories of the project case gallery, in order',
    tags: ['case'],
    datum: z.array(caseMenuSchema),
  }),
  addCaseDetail: webRoute({
    method: 'POST',
    path: '/web/case/addCaseDetail',
    auth: 'admin',
    summary: 'Make any project a case of the gallery (admins)',
    tags: ['case'],
    body: addCaseDetailBodySchema,
    datum: caseDetailSchema,
  }),
  updateCaseDetail: webRoute({
    method: 'POST',
    path: '/web/case/updateCaseDetail',
    auth: 'admin',
    summary: 'Change a case’s category, title, description, cover or place (admins)',
    tags: ['case'],
    body: updateCaseDetailBodySchema,
    datum: caseDetailSchema,
  }),
  deleteCaseDetail: webRoute({
    method: 'POST',
    path: '/web/case/deleteCaseDetail',
    auth: 'admin',
    summary: 'Take a project out of the gallery; it is private again (admins)',
    tags: ['case'],
    body: caseIdBodySchema,
    datum: nullDatumSchema,
  }),
  findCaseDetail: webRoute({
    method: 'POST',
    path: '/web/case/findCaseDetail',
    auth: 'user',
    summary: 'The cases of the gallery (or of one category), in gallery order',
    tags: ['case'],
    body: findCaseDetailBodySchema,
    datum: z.array(caseDetailSchema),
  }),
}
