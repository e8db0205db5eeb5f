import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import type { RolesTable, UsersTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'
import { containsPattern } from './users.repository'

/** A `roles` row (menu keys as JSON text). */
export type RoleRow = Selectable<RolesTable>

/**
 * SQL for `roles` and `user_roles`. Changing which role a user holds, or a role's level, also
 * writes `users.role` in the same transaction: that column is the level the auth hook enforces,
 * and it must never disagree with the role.
 */
export interface RolesRepository {
  findAll(): Promise<RoleRow[]>
  findById(id: string): Promise<RoleRow | undefined>
  /** The role with this name, ignoring case. */
  findByName(name: string): Promise<RoleRow | undefined>
  findPage(query: {
    keyword: string
    offset: number
    limit: number
  }): Promise<{ total: number; rows: RoleRow[] }>
  insert(row: Insertable<RolesTable>): Promise<void>
  /** Applies changes; a new `access_level` moves every holder to it. Resolves to whether it exists. */
  update(id: string, changes: Omit<Updateable<RolesTable>, 'id' | 'created_at'>): Promise<boolean>
  /** Deletes a role nobody holds; resolves to whether it was deleted. */
  deleteUnheld(id: string): Promise<boolean>
  /** How many users hold the role explicitly. */
  countHolders(id: string): Promise<number>
  /** The explicit role of each user that has one (others hold the built-in role of their level). */
  roleIdsOfUsers(userIds: readonly string[]): Promise<Map<string, string>>
  /**
   * Gives a user a role: `users.role` becomes the role's level; a built-in role is stored as no
   * explicit row. Resolves to whether the user exists.
   */
  assign(
    userId: string,
    role: Pick<RoleRow, 'id' | 'access_level' | 'is_builtin'>,
    at: string,
  ): Promise<boolean>
}

/** The roles repository on a database. */
export function createRolesRepository(db: Database): RolesRepository {
  return {
    findAll() {
      return db
        .selectFrom('roles')
        .selectAll()
        .orderBy('is_builtin', 'desc')
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .execute()
    },
    findById(id) {
      return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst()
    },
    findByName(name) {
      return db
        .selectFrom('roles')
        .selectAll()
        .where(sql<string>`lower(name)`, '=', name.toLowerCase())
        .executeTakeFirst()
    },
    async findPage({ keyword, offset, limit }) {
      let query = db.selectFrom('roles')
      if (keyword !== '') {
        const pattern = containsPattern(keyword)
        query = query.where((where) =>
          where.or(
            (['name', 'description'] as const).map(
              (column) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
            ),
          ),
        )
      }
      const counted = await query
        .select((builder) => builder.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      const rows = await query
        .selectAll()
        .orderBy('is_builtin', 'desc')
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .offset(offset)
        .execute()
      return { total: Number(counted.count), rows }
    },
    async insert(row) {
      await db.insertInto('roles').values(row).execute()
    },
    async update(id, changes) {
      return db.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('roles')
          .set(changes)
          .where('id', '=', id)
          .executeTakeFirst()
        if (result.numUpdatedRows === 0n) return false
        if (changes.access_level !== undefined) {
          await transaction
            .updateTable('users')
            .set({ role: changes.access_level as UsersTable['role'] })
            .where('id', 'in', (select) =>
              select.selectFrom('user_roles').select('user_id').where('role_id', '=', id),
            )
            .execute()
        }
        return true
      })
    },
    async deleteUnheld(id) {
      const result = await db
        .deleteFrom('roles')
        .where('id', '=', id)
        .where('is_builtin', '=', 0)
        .where((where) =>
          where.not(
            where.exists(
              where.selectFrom('user_roles').select('user_id').where('role_id', '=', id),
            ),
          ),
        )
        .executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async countHolders(id) {
      const row = await db
        .selectFrom('user_roles')
        .select((builder) => builder.fn.countAll().as('count'))
        .where('role_id', '=', id)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
    async roleIdsOfUsers(userIds) {
      if (userIds.length === 0) return new Map()
      const rows = await db
        .selectFrom('user_roles')
        .select(['user_id', 'role_id'])
        .where('user_id', 'in', userIds)
        .execute()
      return new Map(rows.map((row) => [row.user_id, row.role_id]))
    },
    async assign(userId, role, at) {
      return db.transaction().execute(async (transaction) => {
        const result = await transaction
          .updateTable('users')
          .set({ role: role.access_level, updated_at: at })
          .where('id', '=', userId)
          .executeTakeFirst()
        if (result.numUpdatedRows === 0n) return false
        await transaction.deleteFrom('user_roles').where('user_id', '=', userId).execute()
        if (!role.is_builtin) {
          await transaction
            .insertInto('user_roles')
            .values({ user_id: userId, role_id: role.id, assigned_at: at })
            .execute()
        }
        return true
      })
    },
  }
}
