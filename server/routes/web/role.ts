import type { FastifyInstance } from 'fastify'
import { nullDatumSchema } from '../../../contract/common'
import {
  addRoleBodySchema,
  editRoleBodySchema,
  roleIdBodySchema,
  roleListDatumSchema,
  roleMenuDatumSchema,
  rolePageDatumSchema,
  roleSchema,
  searchRoleBodySchema,
} from '../../../contract/role'
import { defineRoute } from '../../http/define-route'

/** Role management (admin) and the role-menu lookup (SPEC §6, §7 "/role", "/roleMenu"). */
export function registerRoleRoutes(app: FastifyInstance): void {
  const { roles } = app.deps.services

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/add',
    auth: 'admin',
    summary: 'Create a role: name, description, access level (admin or editor), menu keys',
    body: addRoleBodySchema,
    datum: roleSchema,
    handler: ({ body }) => roles.add(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/edit',
    auth: 'admin',
    summary: 'Change a role; a new access level applies to its holders at once',
    description: 'Built-in roles (admin, editor, guest) keep their name and level.',
    body: editRoleBodySchema,
    datum: roleSchema,
    handler: ({ body }) => roles.edit(body),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/delete',
    auth: 'admin',
    summary: 'Delete a custom role nobody holds',
    body: roleIdBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body }) => {
      await roles.delete(body.id)
      return null
    },
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/findOne',
    auth: 'admin',
    summary: 'One role',
    body: roleIdBodySchema,
    datum: roleSchema,
    handler: ({ body }) => roles.find(body.id),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/findAll',
    auth: 'admin',
    summary: 'Every role, built-in ones first',
    datum: roleListDatumSchema,
    handler: () => roles.list(),
  })

  defineRoute(app, {
    method: 'POST',
    url: '/web/role/search',
    auth: 'admin',
    summary: 'A page of roles whose name or description has the keyword',
    body: searchRoleBodySchema,
    datum: rolePageDatumSchema,
    handler: ({ body }) => roles.search(body),
  })

  defineRoute(app, {
    method: 'GET',
    url: '/web/roleMenu/selectRoleMenu_Vue',
    auth: 'user',
    summary: "The menu keys the caller's role may see",
    description:
      'Only a convenience for the console: every call checks the caller’s level on the server ' +
      'whatever the menu shows.',
    datum: roleMenuDatumSchema,
    handler: ({ user }) => roles.menuKeysOf(user),
  })
}
