import { type Insertable, type Selectable, sql, type Updateable } from 'kysely'
import type { ProjectsTable, ProjectTokensTable } from '../../migrations/projects-tables'
import type { Database, DatabaseDialect } from '../../plugins/db'

/** A `projects` row as stored. */
export type ProjectRow = Selectable<ProjectsTable>
/** The columns needed to insert a project. */
export type NewProjectRow = Insertable<ProjectsTable>
/** Columns an update may change. */
export type ProjectRowChanges = Omit<Updateable<ProjectsTable>, 'id' | 'created_at' | 'owner_id'>
/** A `project_tokens` row. */
export type ProjectTokenRow = Selectable<ProjectTokensTable>

/** A project row with what its API view needs from other tables. */
export interface ProjectRecord extends ProjectRow {
  owner_name: string
  /** The cover upload's extension ('jpg'/'png'), or null without a cover. */
  cover_extension: string | null
  cover_has_thumbnail: boolean
}

/** What a project list asks for; `ownerId` undefined lists everyone's (admins). */
export interface ProjectListFilter {
  ownerId?: string
  kind?: 'city' | 'building'
  /** Case-insensitive substring of the name or the detailed address. */
  keyword?: string
  onlyCases?: boolean
  sort: 'updated_at' | 'created_at' | 'name'
  order: 'asc' | 'desc'
  offset: number
  limit: number
}

/** SQL for `projects` and `project_tokens`. */
export interface ProjectsRepository {
  insert(row: NewProjectRow): Promise<void>
  findById(id: string): Promise<ProjectRecord | undefined>
  /**
   * Inside a transaction: locks the project row until commit (PostgreSQL `FOR UPDATE`; SQLite
   * transactions already exclude other writers) and resolves to its owner, or undefined.
   */
  lockForChange(id: string): Promise<{ owner_id: string } | undefined>
  update(id: string, changes: ProjectRowChanges): Promise<boolean>
  delete(id: string): Promise<boolean>
  /** One page of a list and the total count of the whole list. */
  list(filter: ProjectListFilter): Promise<{ records: ProjectRecord[]; total: number }>
  /** How many projects of each kind an owner has (everyone's when ownerId is undefined). */
  countByKind(ownerId?: string): Promise<{ city: number; building: number }>
  countAll(): Promise<number>
  insertToken(row: Insertable<ProjectTokensTable>): Promise<void>
  findTokenByHash(tokenHash: string): Promise<ProjectTokenRow | undefined>
  findTokenById(id: string): Promise<ProjectTokenRow | undefined>
  /** Revokes the live tokens of a project; resolves to how many. */
  revokeTokens(projectId: string, revokedAt: string): Promise<number>
  /** Deletes a project's tokens that expired or were revoked before the cutoff. */
  deleteEndedTokens(projectId: string, cutoff: string): Promise<void>
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`)
}

/** The projects repository on a database or inside a transaction. */
export function createProjectsRepository(
  db: Database,
  dialect: DatabaseDialect,
): ProjectsRepository {
  const selectRecords = () =>
    db
      .selectFrom('projects')
      .innerJoin('users', 'users.id', 'projects.owner_id')
      .leftJoin('uploaded_files', 'uploaded_files.id', 'projects.prewiewpath_uuid')
      .selectAll('projects')
      .select([
        'users.name as owner_name',
        'uploaded_files.extension as cover_extension',
        'uploaded_files.thumbnail_sha256 as cover_thumbnail_sha256',
      ])

  type RawRecord = ProjectRow & {
    owner_name: string
    cover_extension: string | null
    cover_thumbnail_sha256: string | null
  }
  const toRecord = ({ cover_thumbnail_sha256, ...row }: RawRecord): ProjectRecord => ({
    ...row,
    cover_has_thumbnail: cover_thumbnail_sha256 !== null,
  })

  const filtered = (filter: Omit<ProjectListFilter, 'sort' | 'order' | 'offset' | 'limit'>) => {
    let query = db.selectFrom('projects')
    if (filter.ownerId !== undefined) query = query.where('projects.owner_id', '=', filter.ownerId)
    if (filter.kind !== undefined) query = query.where('projects.kind', '=', filter.kind)
    if (filter.onlyCases) query = query.where('projects.is_case', '=', 1)
    if (filter.keyword) {
      const pattern = `%${escapeLike(filter.keyword.toLowerCase())}%`
      // lower() on both sides: LIKE ignores case in SQLite but not in PostgreSQL
      query = query.where(
        sql<boolean>`(lower(projects.name) like ${pattern} escape '\\' or lower(projects.detailedaddress) like ${pattern} escape '\\')`,
      )
    }
    return query
  }

  return {
    async insert(row) {
      await db.insertInto('projects').values(row).execute()
    },
    async findById(id) {
      const row = await selectRecords().where('projects.id', '=', id).executeTakeFirst()
      return row === undefined ? undefined : toRecord(row as RawRecord)
    },
    async lockForChange(id) {
      let query = db.selectFrom('projects').select('owner_id').where('id', '=', id)
      if (dialect === 'postgres') query = query.forUpdate()
      return query.executeTakeFirst()
    },
    async update(id, changes) {
      const result = await db
        .updateTable('projects')
        .set(changes)
        .where('id', '=', id)
        .executeTakeFirst()
      return result.numUpdatedRows > 0n
    },
    async delete(id) {
      const result = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst()
      return result.numDeletedRows > 0n
    },
    async list(filter) {
      const base = filtered(filter)
      const totalRow = await base
        .select((builder) => builder.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      // Page through ids on the narrow index first, then fetch just that page's rows with
      // their joins, so deep or wide pages never join the whole list.
      const pageIds = await base
        .select('projects.id')
        .orderBy(`projects.${filter.sort}`, filter.order)
        .orderBy('projects.id', filter.order)
        .limit(filter.limit)
        .offset(filter.offset)
        .execute()
      const ids = pageIds.map((row) => row.id)
      if (ids.length === 0) return { records: [], total: Number(totalRow.count) }
      const rows = (await selectRecords().where('projects.id', 'in', ids).execute()) as RawRecord[]
      const byId = new Map(rows.map((row) => [row.id, toRecord(row)]))
      return {
        records: ids.map((id) => byId.get(id)).filter((record) => record !== undefined),
        total: Number(totalRow.count),
      }
    },
    async countByKind(ownerId) {
      let query = db
        .selectFrom('projects')
        .select(['kind', (builder) => builder.fn.countAll().as('count')])
        .groupBy('kind')
      if (ownerId !== undefined) query = query.where('owner_id', '=', ownerId)
      const rows = await query.execute()
      const counts = { city: 0, building: 0 }
      for (const row of rows) counts[row.kind] = Number(row.count)
      return counts
    },
    async countAll() {
      const row = await db
        .selectFrom('projects')
        .select((builder) => builder.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
    async insertToken(row) {
      await db.insertInto('project_tokens').values(row).execute()
    },
    findTokenByHash(tokenHash) {
      return db
        .selectFrom('project_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst()
    },
    findTokenById(id) {
      return db.selectFrom('project_tokens').selectAll().where('id', '=', id).executeTakeFirst()
    },
    async revokeTokens(projectId, revokedAt) {
      const result = await db
        .updateTable('project_tokens')
        .set({ revoked_at: revokedAt })
        .where('project_id', '=', projectId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
    async deleteEndedTokens(projectId, cutoff) {
      await db
        .deleteFrom('project_tokens')
        .where('project_id', '=', projectId)
        .where((builder) =>
          builder.or([builder('expires_at', '<', cutoff), builder('revoked_at', '<', cutoff)]),
        )
        .execute()
    },
  }
}
