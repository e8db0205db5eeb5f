import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import type {
  addCaseDetailBodySchema,
  addCaseMenuBodySchema,
  CaseDetail,
  CaseMenu,
  updateCaseDetailBodySchema,
  updateCaseMenuBodySchema,
} from '../../../contract/cases'
import { caseLimits } from '../../../contract/cases'
import { uploadedFilesRoot } from '../../../contract/files'
import type { Project } from '../../../contract/project'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { AuthUser } from '../accounts/users.service'
import type { ProjectLifecycleHook, ProjectsService } from '../projects/projects.service'
import { createUploadsRepository } from '../projects/uploads.repository'
import type { UploadsService } from '../projects/uploads.service'
import { type Clock, timestampOf } from '../time/clock'

/** What the cases are made from. */
export interface CasesDependencies {
  database: DatabaseHandle
  clock: Clock
  uploads: Pick<UploadsService, 'find'>
  projects: Pick<ProjectsService, 'cases'>
}

type DetailRow = {
  id: string
  project_id: string
  menu_id: string | null
  title: string
  description: string
  cover_file_id: string | null
  cover_name: string | null
  sort_order: number
  created_at: string
  updated_at: string
}

/**
 * The curated project cases (SPEC §7 `/case` menu and detail, issue 19 item 6): categories in
 * gallery order and the projects shown in each. Only admins change them (the routes say so);
 * everyone signed in reads them. Making a project a case sets its `is_case` in the same
 * transaction, so the project becomes readable by everyone exactly while it is in the gallery;
 * deleting the project deletes its case.
 */
export interface CasesService {
  addMenu(input: z.output<typeof addCaseMenuBodySchema>): Promise<CaseMenu>
  updateMenu(input: z.output<typeof updateCaseMenuBodySchema>): Promise<CaseMenu>
  deleteMenu(id: string): Promise<void>
  findMenus(): Promise<CaseMenu[]>
  addDetail(user: AuthUser, input: z.output<typeof addCaseDetailBodySchema>): Promise<CaseDetail>
  updateDetail(
    user: AuthUser,
    input: z.output<typeof updateCaseDetailBodySchema>,
  ): Promise<CaseDetail>
  deleteDetail(id: string): Promise<void>
  /** The cases in gallery order: categories in order, uncategorised last. */
  findDetails(user: AuthUser, menuId: string | undefined): Promise<CaseDetail[]>
  lifecycleHook: ProjectLifecycleHook
}

/** The reference holder that keeps a case's own cover alive. */
export function caseFileHolder(caseId: string): string {
  return `case:${caseId}`
}

/** Builds the cases service. */
export function createCasesService(dependencies: CasesDependencies): CasesService {
  const { database, clock, uploads, projects } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const menuRows = (handle: Database) =>
    handle.selectFrom('case_menus').selectAll().orderBy('sort_order').orderBy('id').execute()

  const loadMenu = async (handle: Database, id: string) => {
    const menu = await handle
      .selectFrom('case_menus')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!menu) throw new AppError('notFound', 'case.menuNotFound')
    return menu
  }

  const loadDetail = async (handle: Database, id: string): Promise<DetailRow> => {
    const detail = await handle
      .selectFrom('case_details')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    if (!detail) throw new AppError('notFound', 'case.notFound')
    return detail
  }

  /** The menu a detail goes in: null for '' or absent, else an existing menu (a field error). */
  const menuOf = async (handle: Database, menuId: string | undefined): Promise<string | null> => {
    if (menuId === undefined || menuId === '') return null
    const menu = await handle
      .selectFrom('case_menus')
      .select('id')
      .where('id', '=', menuId)
      .executeTakeFirst()
    if (!menu) throw fieldError('notFound', 'menu_id', 'case.menuNotFound')
    return menu.id
  }

  /** A cover upload: an image an admin uploaded; '' is none (the project's cover shows). */
  const coverOf = async (coverUuid: string) => {
    if (coverUuid === '') return { cover_file_id: null, cover_name: null }
    const file = await uploads.find(coverUuid)
    if (!file?.content_type.startsWith('image/')) {
      throw fieldError('validation', 'cover_uuid', 'case.noSuchCover')
    }
    return { cover_file_id: file.id, cover_name: `${file.id}.${file.extension}` }
  }

  /** Rewrites the order of a list of ids (0…n−1) with `id` moved to `position`. */
  const placeMenu = async (handle: Database, id: string, position: number | undefined) => {
    const others = (await menuRows(handle)).filter((row) => row.id !== id).map((row) => row.id)
    others.splice(Math.min(position ?? others.length, others.length), 0, id)
    for (const [index, each] of others.entries()) {
      await handle
        .updateTable('case_menus')
        .set({ sort_order: index })
        .where('id', '=', each)
        .execute()
    }
  }

  const placeDetail = async (
    handle: Database,
    id: string,
    menuId: string | null,
    position: number | undefined,
  ) => {
    const siblings = await handle
      .selectFrom('case_details')
      .select('id')
      .where((eb) => (menuId === null ? eb('menu_id', 'is', null) : eb('menu_id', '=', menuId)))
      .where('id', '!=', id)
      .orderBy('sort_order')
      .orderBy('id')
      .execute()
    const order = siblings.map((row) => row.id)
    order.splice(Math.min(position ?? order.length, order.length), 0, id)
    for (const [index, each] of order.entries()) {
      await handle
        .updateTable('case_details')
        .set({ sort_order: index })
        .where('id', '=', each)
        .execute()
    }
  }

  const menuDatum = async (handle: Database, id: string): Promise<CaseMenu> => {
    const menu = await loadMenu(handle, id)
    const { count } = await handle
      .selectFrom('case_details')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('menu_id', '=', id)
      .executeTakeFirstOrThrow()
    return { ...menu, case_count: Number(count) }
  }

  const toDetail = (row: DetailRow, project: Project): CaseDetail => ({
    id: row.id,
    project_id: row.project_id,
    menu_id: row.menu_id,
    title: row.title,
    description: row.description,
    cover: row.cover_name ? `${uploadedFilesRoot}${row.cover_name}` : project.prewiewpath,
    cover_uuid: row.cover_file_id,
    sort_order: row.sort_order,
    project,
    created_at: row.created_at,
    updated_at: row.updated_at,
  })

  const detailDatum = async (user: AuthUser, id: string): Promise<CaseDetail> => {
    const row = await loadDetail(db, id)
    const project = (await projects.cases(user)).find((each) => each.id === row.project_id)
    if (!project) throw new AppError('notFound', 'case.notFound')
    return toDetail(row, project)
  }

  /** Points the case's cover reference at a new file (or none). */
  const swapCoverReference = async (
    handle: Database,
    caseId: string,
    from: string | null,
    to: string | null,
    timestamp: string,
  ) => {
    if (from === to) return
    const files = createUploadsRepository(handle)
    if (from) await files.removeReference(from, caseFileHolder(caseId))
    if (to) await files.addReference(to, caseFileHolder(caseId), timestamp)
  }

  return {
    async addMenu(input) {
      const id = randomUUID()
      await db.transaction().execute(async (transaction) => {
        const count = (await menuRows(transaction)).length
        if (count >= caseLimits.maxMenus) {
          throw new AppError('conflict', 'case.tooManyMenus', { maximum: caseLimits.maxMenus })
        }
        const timestamp = now()
        await transaction
          .insertInto('case_menus')
          .values({
            id,
            name: input.name,
            sort_order: count,
            created_at: timestamp,
            updated_at: timestamp,
          })
          .execute()
        if (input.sort_order !== undefined) await placeMenu(transaction, id, input.sort_order)
      })
      return menuDatum(db, id)
    },

    async updateMenu(input) {
      await db.transaction().execute(async (transaction) => {
        await loadMenu(transaction, input.id)
        if (input.name !== undefined) {
          await transaction
            .updateTable('case_menus')
            .set({ name: input.name, updated_at: now() })
            .where('id', '=', input.id)
            .execute()
        }
        if (input.sort_order !== undefined) await placeMenu(transaction, input.id, input.sort_order)
      })
      return menuDatum(db, input.id)
    },

    async deleteMenu(id) {
      await db.transaction().execute(async (transaction) => {
        await loadMenu(transaction, id)
        // its cases stay in the gallery, after the uncategorised ones already there
        const moved = await transaction
          .selectFrom('case_details')
          .select('id')
          .where('menu_id', '=', id)
          .orderBy('sort_order')
          .execute()
        await transaction.deleteFrom('case_menus').where('id', '=', id).execute()
        for (const row of moved) {
          await transaction
            .updateTable('case_details')
            .set({ menu_id: null })
            .where('id', '=', row.id)
            .execute()
          await placeDetail(transaction, row.id, null, undefined)
        }
        await placeMenu(transaction, '', undefined)
      })
    },

    async findMenus() {
      const menus = await menuRows(db)
      const counts = await db
        .selectFrom('case_details')
        .select(['menu_id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('menu_id')
        .execute()
      const countOf = new Map(counts.map((row) => [row.menu_id, Number(row.count)]))
      return menus.map((menu) => ({ ...menu, case_count: countOf.get(menu.id) ?? 0 }))
    },

    async addDetail(user, input) {
      const id = randomUUID()
      // read before the transaction: SQLite has one connection, which the transaction holds
      const cover = await coverOf(input.cover_uuid ?? '')
      await db.transaction().execute(async (transaction) => {
        const project = await transaction
          .selectFrom('projects')
          .select(['id', 'name', 'description'])
          .where('id', '=', input.project_id)
          .executeTakeFirst()
        if (!project) throw fieldError('notFound', 'project_id', 'project.notFound')
        const existing = await transaction
          .selectFrom('case_details')
          .select('id')
          .where('project_id', '=', input.project_id)
          .executeTakeFirst()
        if (existing) throw fieldError('conflict', 'project_id', 'case.alreadyCase')
        const menuId = await menuOf(transaction, input.menu_id)
        const timestamp = now()
        await transaction
          .insertInto('case_details')
          .values({
            id,
            project_id: project.id,
            menu_id: menuId,
            title: input.title ?? project.name.slice(0, caseLimits.titleMaxLength),
            description:
              input.description ?? project.description.slice(0, caseLimits.descriptionMaxLength),
            ...cover,
            sort_order: 0,
            created_at: timestamp,
            updated_at: timestamp,
          })
          .execute()
        await placeDetail(transaction, id, menuId, input.sort_order)
        await swapCoverReference(transaction, id, null, cover.cover_file_id, timestamp)
        // in the gallery, so readable by everyone
        await transaction
          .updateTable('projects')
          .set({ is_case: 1 })
          .where('id', '=', project.id)
          .execute()
      })
      return detailDatum(user, id)
    },

    async updateDetail(user, input) {
      const cover = input.cover_uuid === undefined ? null : await coverOf(input.cover_uuid)
      await db.transaction().execute(async (transaction) => {
        const row = await loadDetail(transaction, input.id)
        const timestamp = now()
        const menuId =
          input.menu_id === undefined ? row.menu_id : await menuOf(transaction, input.menu_id)
        await transaction
          .updateTable('case_details')
          .set({
            menu_id: menuId,
            ...(input.title === undefined ? {} : { title: input.title }),
            ...(input.description === undefined ? {} : { description: input.description }),
            ...(cover ?? {}),
            updated_at: timestamp,
          })
          .where('id', '=', row.id)
          .execute()
        if (cover) {
          await swapCoverReference(
            transaction,
            row.id,
            row.cover_file_id,
            cover.cover_file_id,
            timestamp,
          )
        }
        if (menuId !== row.menu_id) {
          // the list it left closes its gap; in the new one it goes to the end or where asked
          await placeDetail(transaction, '', row.menu_id, undefined)
          await placeDetail(transaction, row.id, menuId, input.sort_order)
        } else if (input.sort_order !== undefined) {
          await placeDetail(transaction, row.id, menuId, input.sort_order)
        }
      })
      return detailDatum(user, input.id)
    },

    async deleteDetail(id) {
      await db.transaction().execute(async (transaction) => {
        const row = await loadDetail(transaction, id)
        await transaction.deleteFrom('case_details').where('id', '=', id).execute()
        await swapCoverReference(transaction, id, row.cover_file_id, null, now())
        await placeDetail(transaction, '', row.menu_id, undefined)
        // out of the gallery: private to its owner again
        await transaction
          .updateTable('projects')
          .set({ is_case: 0 })
          .where('id', '=', row.project_id)
          .execute()
      })
    },

    async findDetails(user, menuId) {
      const menus = await menuRows(db)
      const menuIndex = new Map(menus.map((menu, index) => [menu.id, index]))
      let query = db.selectFrom('case_details').selectAll()
      if (menuId !== undefined) {
        query = query.where((eb) =>
          menuId === '' ? eb('menu_id', 'is', null) : eb('menu_id', '=', menuId),
        )
      }
      const rows = await query.execute()
      const projectOf = new Map(
        (await projects.cases(user)).map((project) => [project.id, project]),
      )
      const rank = (row: DetailRow) =>
        row.menu_id === null ? menus.length : (menuIndex.get(row.menu_id) ?? menus.length)
      return rows
        .filter((row) => projectOf.has(row.project_id))
        .sort(
          (a, b) => rank(a) - rank(b) || a.sort_order - b.sort_order || a.id.localeCompare(b.id),
        )
        .map((row) => toDetail(row, projectOf.get(row.project_id)!))
    },

    lifecycleHook: {
      async onDelete(transaction, projectId) {
        const row = await transaction
          .selectFrom('case_details')
          .selectAll()
          .where('project_id', '=', projectId)
          .executeTakeFirst()
        if (!row) return
        await transaction.deleteFrom('case_details').where('id', '=', row.id).execute()
        await swapCoverReference(transaction, row.id, row.cover_file_id, null, now())
        await placeDetail(transaction, '', row.menu_id, undefined)
      },
    },
  }
}
