import { templateKindOfPath } from '../../../contract/templates'
import type { Database } from '../../plugins/db'
import { CategoryTree } from './category-tree'

/**
 * After a category moved: the templates filed under `categoryIds` get their new `piddes` and the
 * kind it implies (SPEC §4: a path starting at 2 is 3D). Runs in the move's transaction.
 */
export async function retemplatePaths(
  transaction: Database,
  categoryIds: readonly string[],
  updatedAt: string,
): Promise<void> {
  if (categoryIds.length === 0) return
  const templates = await transaction
    .selectFrom('poi_templates')
    .select(['id', 'category_id'])
    .where('category_id', 'in', [...categoryIds])
    .execute()
  if (templates.length === 0) return
  const tree = new CategoryTree(
    await transaction.selectFrom('poi_categories').selectAll().execute(),
  )
  for (const template of templates) {
    const path = tree.pathOf(template.category_id)
    if (!path) continue
    const piddes = path.join(',')
    await transaction
      .updateTable('poi_templates')
      .set({ piddes, type: templateKindOfPath(piddes), updated_at: updatedAt })
      .where('id', '=', template.id)
      .execute()
  }
}
