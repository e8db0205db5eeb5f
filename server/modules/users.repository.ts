import type { Insertable, Selectable, Updateable } from 'kysely'
import type { UsersTable } from '../migrations/tables'
import type { Database } from '../plugins/db'

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
  }
}
