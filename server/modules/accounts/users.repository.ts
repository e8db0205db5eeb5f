import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import type { UsersTable } from '../../migrations/tables'
import type { Database } from '../../plugins/db'

/** A `users` row as stored, with the password hash: never send it to a client as is. */
export type UserRow = Selectable<UsersTable>
/** The columns needed to insert a user. */
export type NewUserRow = Insertable<UsersTable>
/** Columns a user update may change. */
export type UserRowChanges = Omit<Updateable<UsersTable>, 'id' | 'created_at'>

/** SQL for the `users` table (architecture.md §5: repositories are the only place it lives). */
export interface UsersRepository {
  findById(id: string): Promise<UserRow | undefined>
  findByName(name: string): Promise<UserRow | undefined>
  findByTel(tel: string): Promise<UserRow | undefined>
  findByEmail(email: string): Promise<UserRow | undefined>
  /** Inserts a user; a taken name, tel or e-mail rejects with a unique violation (see isUniqueViolation). */
  insert(row: NewUserRow): Promise<void>
  /** Applies changes; resolves to whether the user exists. */
  update(id: string, changes: UserRowChanges): Promise<boolean>
  countAll(): Promise<number>
  /** Deletes a user (sessions, read marks and projects go with it); resolves to whether it existed. */
  deleteById(id: string): Promise<boolean>
  /**
   * A page of users, newest first, guests left out; `keyword` matches anywhere in the name,
   * nickname, phone or e-mail, ignoring case (`%` and `_` are plain characters).
   */
  findPage(query: {
    keyword: string
    offset: number
    limit: number
  }): Promise<{ total: number; rows: UserRow[] }>
  /** Deletes guest users created before the cutoff; resolves to how many. */
  deleteGuestsCreatedBefore(cutoff: string): Promise<number>
  /** The admin accounts (e.g. to alert them). */
  findAdmins(): Promise<UserRow[]>
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

/** The users repository on a database. */
export function createUsersRepository(db: Database): UsersRepository {
  const findBy = (column: 'id' | 'name' | 'tel' | 'email', value: string) =>
    db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst()
  return {
    findById: (id) => findBy('id', id),
    findByName: (name) => findBy('name', name),
    findByTel: (tel) => findBy('tel', tel),
    findByEmail: (email) => findBy('email', email),
    async insert(row) {
      await db.insertInto('users').values(row).execute()
    },
    async update(id, changes) {
      const result = await db
        .updateTable('users')
        .set(changes)
        .where('id', '=', id)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async countAll() {
      const row = await db
        .selectFrom('users')
        .select((builder) => builder.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      // PostgreSQL answers count(*) as a bigint string, SQLite as a number.
      return Number(row.count)
    },
    async deleteById(id) {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async findPage({ keyword, offset, limit }) {
      let query = db.selectFrom('users').where('role', '!=', 'guest')
      if (keyword !== '') {
        const pattern = containsPattern(keyword)
        query = query.where((where) =>
          where.or(
            (['name', 'nickname', 'tel', 'email'] as const).map(
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
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute()
      return { total: Number(counted.count), rows }
    },
    findAdmins() {
      return db.selectFrom('users').selectAll().where('role', '=', 'admin').execute()
    },
    async deleteGuestsCreatedBefore(cutoff) {
      const result = await db
        .deleteFrom('users')
        .where('role', '=', 'guest')
        .where('created_at', '<', cutoff)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}
