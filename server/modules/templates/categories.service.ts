import { randomUUID } from 'node:crypto'
import {
  type AddCategoryBody,
  type Category,
  type CategoryNode,
  type CategoryPage,
  locationCategoryRootId,
  templateLimits,
  type UpdateCategoryBody,
} from '../../../contract/templates'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { AuthUser } from '../accounts/users.service'
import { type CategoryRow, CategoryTree, canEditCategory, rootIds } from './category-tree'
import { retemplatePaths } from './template-paths'

/** Where a new category goes: a shared one (admins, `/systempoicategory`) or the caller's own. */
export type CategoryScope = 'system' | 'own'

/** POI categories: a tree per owner over the shared (system) tree (contract/templates.ts). */
export interface CategoriesService {
  /** The tree one owner sees (shared categories and theirs). */
  treeOf(ownerId: string): Promise<CategoryTree>
  add(user: AuthUser, input: AddCategoryBody, scope: CategoryScope): Promise<Category>
  update(user: AuthUser, input: UpdateCategoryBody): Promise<Category>
  /** Deletes the category and its sub-categories; refused while templates or POIs use any. */
  remove(user: AuthUser, id: string): Promise<{ deleted: number }>
  find(user: AuthUser, id: string): Promise<CategoryNode>
  /** The 2D and 3D trees, or the location tree. */
  forest(user: AuthUser, kind: 'poi' | 'location'): Promise<CategoryNode[]>
  children(user: AuthUser, pid: string): Promise<Category[]>
  page(
    user: AuthUser,
    input: {
      pid?: string | undefined
      keyword?: string | undefined
      kind?: 'poi' | 'location' | undefined
    },
    paging: { pageNo: number; pageSize: number },
  ): Promise<CategoryPage>
}

/** Builds the service; the SQL of `poi_categories` lives here. */
export function createCategoriesService(dependencies: {
  database: DatabaseHandle
  clock: Clock
}): CategoriesService {
  const { db } = dependencies.database
  const now = () => timestampOf(dependencies.clock.nowMs())

  const loadTree = async (handle: Database, ownerId: string) =>
    new CategoryTree(
      await handle
        .selectFrom('poi_categories')
        .selectAll()
        .where('owner_id', 'in', ['', ownerId])
        .execute(),
    )

  /** A category the user may see: shared, their own, or (admins) anyone's. */
  const loadVisible = async (handle: Database, user: AuthUser, id: string) => {
    const row = await handle
      .selectFrom('poi_categories')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
    // someone else's category is as unknown to this user as a made-up id
    if (!row || (row.owner_id !== '' && row.owner_id !== user.id && user.role !== 'admin')) {
      throw new AppError('notFound', 'template.categoryNotFound')
    }
    return row
  }

  const requireEditable = (user: AuthUser, row: CategoryRow) => {
    if (rootIds.has(row.id)) throw new AppError('forbidden', 'template.categoryRoot')
    if (!canEditCategory(user, row)) throw new AppError('forbidden', 'template.categorySystem')
  }

  /** The tree the category's owner sees (where its parent and siblings live). */
  const treeAround = (handle: Database, row: CategoryRow) => loadTree(handle, row.owner_id)

  const checkSiblingName = (tree: CategoryTree, pid: string, name: string, selfId?: string) => {
    const taken = (tree.childrenOf.get(pid) ?? []).some(
      (sibling) => sibling.id !== selfId && sibling.category_name === name,
    )
    if (taken) throw fieldError('conflict', 'category_name', 'template.categoryNameTaken', { name })
  }

  const checkDepth = (tree: CategoryTree, parentId: string, height: number) => {
    const parentDepth =
      parentId === locationCategoryRootId ? 0 : (tree.pathOf(parentId)?.length ?? 0)
    if (parentDepth + height > templateLimits.categoryMaxDepth) {
      throw fieldError('validation', 'pid', 'template.categoryTooDeep', {
        maximum: templateLimits.categoryMaxDepth,
      })
    }
  }

  const service: CategoriesService = {
    treeOf: (ownerId) => loadTree(db, ownerId),

    async add(user, input, scope) {
      const ownerId = scope === 'system' ? '' : user.id
      return db.transaction().execute(async (transaction) => {
        const tree = await loadTree(transaction, ownerId)
        let kind: CategoryRow['kind'] = 'location'
        if (input.pid !== locationCategoryRootId) {
          const parent = tree.byId.get(input.pid)
          if (!parent) throw fieldError('notFound', 'pid', 'template.categoryNotFound')
          kind = parent.kind
        }
        checkDepth(tree, input.pid, 1)
        checkSiblingName(tree, input.pid, input.category_name)
        const timestamp = now()
        const row: CategoryRow = {
          id: randomUUID(),
          owner_id: ownerId,
          pid: input.pid,
          kind,
          category_name: input.category_name,
          created_at: timestamp,
          updated_at: timestamp,
        }
        await transaction.insertInto('poi_categories').values(row).execute()
        return new CategoryTree([...tree.byId.values(), row]).toCategory(row, user)
      })
    },

    async update(user, input) {
      return db.transaction().execute(async (transaction) => {
        const row = await loadVisible(transaction, user, input.id)
        requireEditable(user, row)
        const tree = await treeAround(transaction, row)
        const name = input.category_name ?? row.category_name
        const pid = input.pid ?? row.pid
        if (pid !== row.pid) {
          if (pid === row.id || tree.subtreeIds(row.id).includes(pid)) {
            throw fieldError('validation', 'pid', 'template.categoryCycle')
          }
          let kind: CategoryRow['kind'] = 'location'
          if (pid !== locationCategoryRootId) {
            const parent = tree.byId.get(pid)
            if (!parent) throw fieldError('notFound', 'pid', 'template.categoryNotFound')
            kind = parent.kind
          }
          if (kind !== row.kind)
            throw fieldError('validation', 'pid', 'template.categoryTreeChange')
          checkDepth(tree, pid, tree.heightOf(row.id))
        }
        if (name !== row.category_name || pid !== row.pid) checkSiblingName(tree, pid, name, row.id)
        const moved = { ...row, category_name: name, pid, updated_at: now() }
        await transaction
          .updateTable('poi_categories')
          .set({ category_name: name, pid, updated_at: moved.updated_at })
          .where('id', '=', row.id)
          .execute()
        if (pid !== row.pid) {
          // templates filed below keep a path (and a 2D/3D kind) that follows the move
          await retemplatePaths(transaction, tree.subtreeIds(row.id), moved.updated_at)
        }
        const after = await treeAround(transaction, moved)
        return after.toCategory(moved, user)
      })
    },

    async remove(user, id) {
      return db.transaction().execute(async (transaction) => {
        const row = await loadVisible(transaction, user, id)
        requireEditable(user, row)
        // every owner's categories: users may file their own under a shared one
        const everyone = new CategoryTree(
          await transaction.selectFrom('poi_categories').selectAll().execute(),
        )
        const ids = everyone.subtreeIds(row.id)
        const templates = await transaction
          .selectFrom('poi_templates')
          .select('id')
          .where('category_id', 'in', ids)
          .execute()
        const templateIds = templates.map((template) => template.id)
        const pois =
          templateIds.length === 0
            ? 0
            : Number(
                (
                  await transaction
                    .selectFrom('pois')
                    .select((eb) => eb.fn.countAll().as('count'))
                    .where('category_id', 'in', templateIds)
                    .executeTakeFirstOrThrow()
                ).count,
              )
        if (templateIds.length > 0 || pois > 0) {
          throw new AppError('conflict', 'template.categoryInUse', {
            templates: templateIds.length,
            pois,
          })
        }
        await transaction.deleteFrom('poi_categories').where('id', 'in', ids).execute()
        return { deleted: ids.length }
      })
    },

    async find(user, id) {
      const row = await loadVisible(db, user, id)
      const tree = await treeAround(db, row)
      return tree.toNode(row, user)
    },

    async forest(user, kind) {
      const tree = await loadTree(db, user.id)
      return tree
        .inTreeOrder(locationCategoryRootId)
        .filter((row) => row.pid === locationCategoryRootId && row.kind === kind)
        .map((row) => tree.toNode(row, user))
    },

    async children(user, pid) {
      if (pid !== locationCategoryRootId) await loadVisible(db, user, pid)
      const tree = await loadTree(db, user.id)
      return (tree.childrenOf.get(pid) ?? []).map((row) => tree.toCategory(row, user))
    },

    async page(user, input, paging) {
      const tree = await loadTree(db, user.id)
      let rows: CategoryRow[]
      if (input.pid !== undefined) {
        if (input.pid !== locationCategoryRootId) await loadVisible(db, user, input.pid)
        rows = tree.inTreeOrder(input.pid)
      } else {
        rows = tree.inTreeOrder(locationCategoryRootId)
      }
      if (input.kind !== undefined) rows = rows.filter((row) => row.kind === input.kind)
      const keyword = input.keyword?.toLowerCase()
      if (keyword) rows = rows.filter((row) => row.category_name.toLowerCase().includes(keyword))
      const start = (paging.pageNo - 1) * paging.pageSize
      return {
        list: rows.slice(start, start + paging.pageSize).map((row) => tree.toCategory(row, user)),
        total: rows.length,
        pageNo: paging.pageNo,
        pageSize: paging.pageSize,
      }
    },
  }
  return service
}
