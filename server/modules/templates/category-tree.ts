import type { Selectable } from 'kysely'
import {
  type Category,
  type CategoryNode,
  categoryRootIds,
  locationCategoryRootId,
} from '../../../contract/templates'
import type { PoiCategoriesTable } from '../../migrations/0007-poi-templates'
import type { AuthUser } from '../accounts/users.service'
import { libraryCategoryNameKey, nameKeyField } from './library-names'

/** A stored category row. */
export type CategoryRow = Selectable<PoiCategoriesTable>

/** The fixed root ids, which no one renames, moves or deletes. */
export const rootIds: ReadonlySet<string> = new Set([categoryRootIds.twoD, categoryRootIds.threeD])

/** True when `user` may rename, move or delete the category (never a root). */
export function canEditCategory(user: AuthUser, row: CategoryRow): boolean {
  if (rootIds.has(row.id)) return false
  return user.role === 'admin' || (row.owner_id !== '' && row.owner_id === user.id)
}

/**
 * The categories one owner sees (shared ones and their own), indexed for walking up and down.
 * Built in memory from one query: an owner has hundreds of categories, not millions, and every
 * tree answer needs them all anyway.
 */
export class CategoryTree {
  readonly byId = new Map<string, CategoryRow>()
  readonly childrenOf = new Map<string, CategoryRow[]>()

  constructor(rows: readonly CategoryRow[]) {
    const sorted = [...rows].sort(
      (a, b) =>
        a.created_at.localeCompare(b.created_at) ||
        a.category_name.localeCompare(b.category_name) ||
        a.id.localeCompare(b.id),
    )
    for (const row of sorted) {
      this.byId.set(row.id, row)
      const siblings = this.childrenOf.get(row.pid)
      if (siblings) siblings.push(row)
      else this.childrenOf.set(row.pid, [row])
    }
  }

  /** Ids from the root down to `id` (inclusive), or undefined when a link is missing. */
  pathOf(id: string): string[] | undefined {
    const path: string[] = []
    let current = this.byId.get(id)
    // bounded by the row count, so a damaged (cyclic) table cannot loop forever
    for (let guard = 0; current && guard <= this.byId.size; guard += 1) {
      path.unshift(current.id)
      if (current.pid === locationCategoryRootId) return path
      current = this.byId.get(current.pid)
    }
    return undefined
  }

  /** `id` and every category below it. */
  subtreeIds(id: string): string[] {
    const ids: string[] = []
    const stack = [id]
    while (stack.length > 0) {
      const next = stack.pop()!
      if (ids.includes(next)) continue
      ids.push(next)
      for (const child of this.childrenOf.get(next) ?? []) stack.push(child.id)
    }
    return ids
  }

  /** How many levels the subtree under `id` spans (1 for a leaf). */
  heightOf(id: string): number {
    let height = 1
    for (const child of this.childrenOf.get(id) ?? []) {
      height = Math.max(height, 1 + this.heightOf(child.id))
    }
    return height
  }

  /** The names along the path, e.g. '3D / Fire / Extinguishers'. */
  namePathOf(id: string): string {
    return (this.pathOf(id) ?? [id])
      .map((step) => this.byId.get(step)?.category_name ?? step)
      .join(' / ')
  }

  /** The steps of {@link namePathOf}, each seeded one with its name's catalogue id. */
  namePathStepsOf(id: string): Array<{ category_name: string; name_key?: string }> {
    return (this.pathOf(id) ?? [id]).map((step) => {
      const row = this.byId.get(step)
      return row === undefined
        ? { category_name: step }
        : { category_name: row.category_name, ...nameKeyField(libraryCategoryNameKey(row)) }
    })
  }

  /** The answer shape of one category. */
  toCategory(row: CategoryRow, user: AuthUser): Category {
    const path = this.pathOf(row.id) ?? [row.id]
    return {
      id: row.id,
      pid: row.pid,
      category_name: row.category_name,
      ...nameKeyField(libraryCategoryNameKey(row)),
      value: row.id,
      kind: row.kind,
      piddes: path.join(','),
      level: path.length,
      is_system: row.owner_id === '',
      can_edit: canEditCategory(user, row),
      created_at: row.created_at,
    }
  }

  /** The node with its subtree. */
  toNode(row: CategoryRow, user: AuthUser): CategoryNode {
    return {
      ...this.toCategory(row, user),
      children: (this.childrenOf.get(row.id) ?? []).map((child) => this.toNode(child, user)),
    }
  }

  /** Every category in tree order (a parent before its children, siblings by creation). */
  inTreeOrder(rootPid: string): CategoryRow[] {
    const ordered: CategoryRow[] = []
    const visit = (pid: string) => {
      for (const row of this.childrenOf.get(pid) ?? []) {
        ordered.push(row)
        visit(row.id)
      }
    }
    visit(rootPid)
    return ordered
  }
}
