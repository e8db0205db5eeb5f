import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type {
  addRoleBodySchema,
  editRoleBodySchema,
  Role,
  searchRoleBodySchema,
} from '../../../contract/role'
import type { UserRole } from '../../../contract/user'
import { AppError, fieldError } from '../../http/app-error'
import { builtinRoleIds } from '../../migrations/0003-account-security'
import { isUniqueViolation } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { RoleRow, RolesRepository } from './roles.repository'

/** Roles as data (contract/role.ts): management and the role-menu lookup. */
export interface RolesService {
  list(): Promise<Role[]>
  find(id: string): Promise<Role>
  search(input: z.output<typeof searchRoleBodySchema>): Promise<{ total: number; list: Role[] }>
  add(input: z.output<typeof addRoleBodySchema>): Promise<Role>
  edit(input: z.output<typeof editRoleBodySchema>): Promise<Role>
  /** Deletes a custom role nobody holds. */
  delete(id: string): Promise<void>
  /** The menu keys of the role a user holds (their level's built-in role unless assigned one). */
  menuKeysOf(user: { id: string; role: UserRole }): Promise<string[]>
  /**
   * The role a reference names (its id, or its name ignoring case) if an account may be given
   * it: not the guest role, which belongs to guest sign-in alone. `validation` on `field`
   * otherwise.
   */
  resolveAssignable(reference: string, field?: string): Promise<RoleRow>
  /** Gives a user a role; `notFound` when the user does not exist. */
  assign(userId: string, role: RoleRow): Promise<void>
  /** The role (id and name) each user holds, for user lists. */
  rolesOfUsers(
    users: ReadonlyArray<{ id: string; role: UserRole }>,
  ): Promise<Map<string, { id: string; name: string }>>
}

/** The public view of a role row. */
export function toRole(row: RoleRow): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    access_level: row.access_level,
    menu_keys: parseMenuKeys(row.menu_keys),
    is_builtin: row.is_builtin === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function parseMenuKeys(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed.filter((key) => typeof key === 'string') : []
  } catch {
    return []
  }
}

/** Keeps the first of each key, in order. */
function uniqueKeys(keys: readonly string[]): string[] {
  return [...new Set(keys)]
}

/** Builds the roles service. */
export function createRolesService(dependencies: {
  roles: RolesRepository
  clock: Clock
}): RolesService {
  const { roles, clock } = dependencies

  const findRow = async (id: string) => {
    const row = await roles.findById(id)
    if (row === undefined) throw new AppError('notFound', 'role.notFound')
    return row
  }

  const assertNameFree = async (name: string, exceptId?: string) => {
    const existing = await roles.findByName(name)
    if (existing !== undefined && existing.id !== exceptId) {
      throw fieldError('conflict', 'name', 'role.nameTaken')
    }
  }

  const conflictOnRace = (error: unknown): never => {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'role.nameTaken')
    throw error
  }

  return {
    async list() {
      return (await roles.findAll()).map(toRole)
    },

    async find(id) {
      return toRole(await findRow(id))
    },

    async search({ pageNo, pageSize, keyword }) {
      const { total, rows } = await roles.findPage({
        keyword,
        offset: (pageNo - 1) * pageSize,
        limit: pageSize,
      })
      return { total, list: rows.map(toRole) }
    },

    async add(input) {
      await assertNameFree(input.name)
      const now = timestampOf(clock.nowMs())
      const row: RoleRow = {
        id: randomUUID(),
        name: input.name,
        description: input.description ?? null,
        access_level: input.access_level,
        menu_keys: JSON.stringify(uniqueKeys(input.menu_keys)),
        is_builtin: 0,
        created_at: now,
        updated_at: now,
      }
      await roles.insert(row).catch(conflictOnRace)
      return toRole(row)
    },

    async edit(input) {
      const row = await findRow(input.id)
      if (row.is_builtin) {
        if (input.name !== undefined && input.name !== row.name) {
          throw new AppError('forbidden', 'role.builtinRename')
        }
        if (input.access_level !== undefined && input.access_level !== row.access_level) {
          throw new AppError('forbidden', 'role.builtinAccessLevel')
        }
      }
      if (input.name !== undefined) await assertNameFree(input.name, row.id)
      await roles
        .update(row.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.description === undefined ? {} : { description: input.description }),
          ...(input.access_level === undefined || row.is_builtin
            ? {}
            : { access_level: input.access_level }),
          ...(input.menu_keys === undefined
            ? {}
            : { menu_keys: JSON.stringify(uniqueKeys(input.menu_keys)) }),
          updated_at: timestampOf(clock.nowMs()),
        })
        .catch(conflictOnRace)
      return toRole(await findRow(row.id))
    },

    async delete(id) {
      const row = await findRow(id)
      if (row.is_builtin) throw new AppError('forbidden', 'role.builtinDelete')
      if (await roles.deleteUnheld(id)) return
      const holders = await roles.countHolders(id)
      throw new AppError('conflict', 'role.held', { holders })
    },

    async menuKeysOf(user) {
      const explicit = (await roles.roleIdsOfUsers([user.id])).get(user.id)
      const row =
        (explicit === undefined ? undefined : await roles.findById(explicit)) ??
        (await roles.findById(builtinRoleIds[user.role]))
      // A custom role of a higher level than the user's (a race with a level change) shows
      // nothing rather than too much: the menu follows the level the server enforces.
      if (row === undefined || row.access_level !== user.role) return []
      return parseMenuKeys(row.menu_keys)
    },

    async resolveAssignable(reference, field = 'role') {
      const row = (await roles.findById(reference)) ?? (await roles.findByName(reference))
      if (row === undefined || row.access_level === 'guest') {
        throw row === undefined
          ? fieldError('validation', field, 'role.notFound')
          : fieldError('validation', field, 'role.guestOnly')
      }
      return row
    },

    async assign(userId, role) {
      if (!(await roles.assign(userId, role, timestampOf(clock.nowMs())))) {
        throw new AppError('notFound', 'account.notFound')
      }
    },

    async rolesOfUsers(users) {
      const explicit = await roles.roleIdsOfUsers(users.map((user) => user.id))
      const byId = new Map((await roles.findAll()).map((row) => [row.id, row]))
      const result = new Map<string, { id: string; name: string }>()
      for (const user of users) {
        const row = byId.get(explicit.get(user.id) ?? builtinRoleIds[user.role])
        if (row !== undefined) result.set(user.id, { id: row.id, name: row.name })
      }
      return result
    },
  }
}
