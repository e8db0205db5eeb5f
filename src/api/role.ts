import type { AddRoleBody, EditRoleBody } from '../../contract/role'
import { api } from './index'
import type { Role } from './types'
import { roleRoutes } from '../../contract/role'

export type { AddRoleBody, EditRoleBody } from '../../contract/role'

/** `POST /web/role/findAll`: every role, built-in ones first (admin). */
export async function findAllRoles(): Promise<Role[]> {
  const { datum } = await api.call(roleRoutes.findAll)
  return datum ?? []
}

/** `POST /web/role/add` (admin). JSON, so an empty menu-key list arrives as a list. */
export async function addRole(role: AddRoleBody): Promise<Role> {
  const { datum } = await api.call(roleRoutes.add, { ...role }, { encoding: 'json' })
  return datum
}

/** `POST /web/role/edit` (admin): fields left out stay as they are. */
export async function editRole(role: EditRoleBody): Promise<Role> {
  const { datum } = await api.call(roleRoutes.edit, { ...role }, { encoding: 'json' })
  return datum
}

/** `POST /web/role/delete` (admin): only a custom role nobody holds can go. */
export async function deleteRole(id: Role['id']): Promise<void> {
  await api.call(roleRoutes.delete, { id })
}

/** `POST /web/role/findOne` (admin): one role as it is now. */
export async function findRole(id: Role['id']): Promise<Role> {
  const { datum } = await api.call(roleRoutes.findOne, { id })
  return datum
}

/** `POST /web/role/search` (admin): roles whose name or description has the keyword. */
export async function searchRoles(keyword: string, pageSize = 100): Promise<Role[]> {
  const { datum } = await api.call(roleRoutes.search, { keyword, pageNo: 1, pageSize })
  return datum.list
}
