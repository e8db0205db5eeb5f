import { nullDatumSchema, recordIdSchema, timestampSchema } from './common'
import { z } from 'zod'
import { zodMessage } from './messages'
import { formInteger, formList } from './form-fields'
import { userRoleSchema } from './user'
import { webRoute } from './route'

/**
 * Roles as data (SPEC §6, decisions.md "Accounts"). A role names the menu keys its holders see
 * (`GET /web/roleMenu/selectRoleMenu_Vue`) and the access level the server enforces on every
 * call: `admin`, `editor` or `guest` (contract/user.ts `userRoleSchema`). The three built-in
 * roles, one per level, cannot be deleted, renamed or moved to another level.
 */

/** Menu keys of the console's left menu (`<group>.<item>`, src/components/shell/left-menu.ts). */
export const consoleMenuKeys = [
  'projectManage.city',
  'projectManage.space',
  'projectManage.cases',
  'templateManage.list',
  'modelConfig.merge',
  'modelConfig.add',
  'modelConfig.conversion',
  'modelConfig.cases',
  'system.person',
  'system.security',
  'system.users',
  'system.roles',
  'system.issue',
  'orderManage.personal',
  'orderManage.myOrder',
  'orderManage.balance',
] as const

/** Menu keys only admins hold by default. */
export const adminOnlyMenuKeys = ['system.users', 'system.roles', 'system.issue'] as const

/** The menu keys each built-in role starts with. */
export const builtinRoleMenuKeys: Record<z.infer<typeof userRoleSchema>, readonly string[]> = {
  admin: consoleMenuKeys,
  editor: consoleMenuKeys.filter((key) => !(adminOnlyMenuKeys as readonly string[]).includes(key)),
  // decisions.md: guests view project cases and preview links, read-only.
  guest: ['projectManage.cases', 'system.person'],
}

/** A menu key: letters, digits and `._-`. Keys the console does not know are kept, unused. */
export const menuKeySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, zodMessage('input.menuKey'))

/** A role as the API shows it. */
export const roleSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  /** Null for the built-in roles: the console shows its own translated text for them. */
  description: z.string().nullable(),
  access_level: userRoleSchema,
  menu_keys: z.array(z.string()),
  is_builtin: z.boolean(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type Role = z.infer<typeof roleSchema>

const roleNameSchema = z
  .string()
  .trim()
  .min(1, zodMessage('input.roleNameRequired'))
  .max(64, zodMessage('input.roleNameTooLong'))

const roleDescriptionSchema = z.union([
  z.null(),
  z
    .string()
    .trim()
    .max(500)
    .transform((text) => (text === '' ? null : text)),
])

const menuKeysSchema = formList(menuKeySchema).pipe(
  z.array(z.string()).max(200, zodMessage('input.tooManyMenuKeys')),
)

/**
 * Levels a custom role may have. The guest level belongs to guest sign-in alone: guest accounts
 * are throwaway rows deleted when their session ends, never real accounts.
 */
export const customRoleLevelSchema = z.enum(['admin', 'editor'])

/** `POST /web/role/add` (admin). A custom role has the `editor` level unless told otherwise. */
export const addRoleBodySchema = z.object({
  name: roleNameSchema,
  description: roleDescriptionSchema.optional(),
  access_level: customRoleLevelSchema.default('editor'),
  menu_keys: menuKeysSchema.default([]),
})
export type AddRoleBody = z.input<typeof addRoleBodySchema>

/** `POST /web/role/edit` (admin): fields absent stay as they are. */
export const editRoleBodySchema = z.object({
  id: recordIdSchema,
  name: roleNameSchema.optional(),
  description: roleDescriptionSchema.optional(),
  /** Built-in roles keep their level. */
  access_level: customRoleLevelSchema.optional(),
  menu_keys: menuKeysSchema.optional(),
})
export type EditRoleBody = z.input<typeof editRoleBodySchema>

/** `POST /web/role/delete` and `/web/role/findOne` (admin). */
export const roleIdBodySchema = z.object({ id: recordIdSchema })

/** `POST /web/role/findAll` answer. */
export const roleListDatumSchema = z.array(roleSchema)

/** `POST /web/role/search` (admin): a page of roles whose name or description has the keyword. */
export const searchRoleBodySchema = z.object({
  pageNo: formInteger({ min: 1, max: 1_000_000 }).default(1),
  pageSize: formInteger({ min: 1, max: 100 }).default(20),
  keyword: z.string().trim().max(100).default(''),
})
export type SearchRoleBody = z.input<typeof searchRoleBodySchema>

/** `search` answer. */
export const rolePageDatumSchema = z.object({
  total: z.number().int(),
  list: z.array(roleSchema),
})

/** `GET /web/roleMenu/selectRoleMenu_Vue` answer: the menu keys the caller's role may see. */
export const roleMenuDatumSchema = z.array(z.string())

/** The /web/ routes of this area (the route table: contract/route.ts, contract/routes.ts). */
export const roleRoutes = {
  add: webRoute({
    method: 'POST',
    path: '/web/role/add',
    auth: 'admin',
    summary: 'Create a role: name, description, access level (admin or editor), menu keys',
    body: addRoleBodySchema,
    datum: roleSchema,
  }),
  edit: webRoute({
    method: 'POST',
    path: '/web/role/edit',
    auth: 'admin',
    summary: 'Change a role; a new access level applies to its holders at once',
    description: 'Built-in roles (admin, editor, guest) keep their name and level.',
    body: editRoleBodySchema,
    datum: roleSchema,
  }),
  delete: webRoute({
    method: 'POST',
    path: '/web/role/delete',
    auth: 'admin',
    summary: 'Delete a custom role nobody holds',
    body: roleIdBodySchema,
    datum: nullDatumSchema,
  }),
  findOne: webRoute({
    method: 'POST',
    path: '/web/role/findOne',
    auth: 'admin',
    summary: 'One role',
    body: roleIdBodySchema,
    datum: roleSchema,
  }),
  findAll: webRoute({
    method: 'POST',
    path: '/web/role/findAll',
    auth: 'admin',
    summary: 'Every role, built-in ones first',
    datum: roleListDatumSchema,
  }),
  search: webRoute({
    method: 'POST',
    path: '/web/role/search',
    auth: 'admin',
    summary: 'A page of roles whose name or description has the keyword',
    body: searchRoleBodySchema,
    datum: rolePageDatumSchema,
  }),
  selectRoleMenu_Vue: webRoute({
    method: 'GET',
    path: '/web/roleMenu/selectRoleMenu_Vue',
    auth: 'user',
    summary: "The menu keys the caller's role may see",
    description:
      'Only a convenience for the console: every call checks the caller’s level on the server ' +
      'whatever the menu shows.',
    datum: roleMenuDatumSchema,
  }),
}
