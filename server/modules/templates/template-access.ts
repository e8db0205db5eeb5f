import type { Selectable } from 'kysely'
import { uploadedFilesRoot } from '../../../contract/files'
import { templateKindOfPath, type TemplateKind } from '../../../contract/templates'
import { AppError, fieldError } from '../../http/app-error'
import type { PoiTemplatesTable } from '../../migrations/0007-poi-templates'
import type { Database } from '../../plugins/db'
import { ownsOrAdministers } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { CategoryTree } from './category-tree'

/** A stored template row. */
export type TemplateRow = Selectable<PoiTemplatesTable>

/**
 * A template the user may read: a library one, their own, or (admins) anyone's. Someone else's
 * template is as unknown as a made-up id (`messageId` lets callers say "add basic attributes
 * first" where the spec wants that).
 */
export async function loadVisibleTemplate(
  handle: Database,
  user: AuthUser,
  id: string,
  messageId: 'template.notFound' | 'template.addBasicFirst' = 'template.notFound',
): Promise<TemplateRow> {
  const row = await handle
    .selectFrom('poi_templates')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row || (row.owner_id !== '' && row.owner_id !== user.id && user.role !== 'admin')) {
    throw new AppError('notFound', messageId)
  }
  return row
}

/** True when the user may change the template (own, or any for admins). */
export function canEditTemplate(user: AuthUser, row: Pick<TemplateRow, 'owner_id'>): boolean {
  return user.role === 'admin' || (row.owner_id !== '' && row.owner_id === user.id)
}

/** A template the user may change; library templates are read-only for non-admins. */
export async function loadEditableTemplate(
  handle: Database,
  user: AuthUser,
  id: string,
  messageId: 'template.notFound' | 'template.addBasicFirst' = 'template.notFound',
): Promise<TemplateRow> {
  const row = await loadVisibleTemplate(handle, user, id, messageId)
  if (!canEditTemplate(user, row)) throw new AppError('forbidden', 'template.library')
  return row
}

/**
 * Checks a category path against the categories its owner sees: every id known, each the child
 * of the one before, starting at a 2D/3D root. Answers the category id and the kind it implies.
 */
export async function resolveCategoryPath(
  handle: Database,
  ownerId: string,
  piddes: string,
): Promise<{ piddes: string; category_id: string; type: TemplateKind }> {
  const tree = new CategoryTree(
    await handle
      .selectFrom('poi_categories')
      .selectAll()
      .where('owner_id', 'in', ['', ownerId])
      .execute(),
  )
  const ids = piddes.split(',')
  const last = ids.at(-1)!
  const path = tree.pathOf(last)
  if (!path || path.join(',') !== ids.join(',') || tree.byId.get(last)?.kind !== 'poi') {
    throw fieldError('validation', 'piddes', 'template.noSuchCategoryPath')
  }
  return { piddes, category_id: last, type: templateKindOfPath(piddes) }
}

const uploadedImageName =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(jpg|png)$/

/**
 * An icon (or event image) path must be an image the user uploaded through the shared image
 * upload, or one a library template shows. A 3D template's icon may instead be the preview of
 * its own model (`modelPreviewPath`, made by the 3D template upload outside the image uploads;
 * null when the template has no model or is not 3D).
 */
export async function checkImagePath(
  handle: Database,
  user: AuthUser,
  field: string,
  path: string,
  options: { modelPreviewPath: string | null },
): Promise<void> {
  if (path === '') return
  if (!path.startsWith(uploadedFilesRoot)) {
    if (options.modelPreviewPath !== null && path === options.modelPreviewPath) return
    throw fieldError('validation', field, 'template.noSuchIcon')
  }
  const match = uploadedImageName.exec(path.slice(uploadedFilesRoot.length))
  if (match) {
    const file = await handle
      .selectFrom('uploaded_files')
      .select('owner_id')
      .where('id', '=', match[1]!)
      .executeTakeFirst()
    if (file && ownsOrAdministers(user, file.owner_id)) return
    if (file) {
      const library = await handle
        .selectFrom('poi_templates')
        .select('id')
        .where('owner_id', '=', '')
        .where('iconpath', '=', path)
        .executeTakeFirst()
      if (library) return
    }
  }
  throw fieldError('validation', field, 'template.noSuchIcon')
}
