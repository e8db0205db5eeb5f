import type { CaseDetail, CaseMenu } from '../../api/cases'
import type { Project } from '../../api/project'

/**
 * The project as the gallery shows it: the case's title, description and cover. A seeded case's
 * catalogue ids (`name_key`, `description_key`) stay only while the case shows the project's own
 * seeded text, so an admin's title is shown as typed and an untouched one in the user's language.
 */
export function projectOfCase(detail: CaseDetail): Project {
  const { name_key: nameKey, description_key: descriptionKey, ...project } = detail.project
  const isOwnName = detail.title === detail.project.name
  const isOwnDescription = detail.description === detail.project.description
  return {
    ...project,
    ...(isOwnName && nameKey !== undefined ? { name_key: nameKey } : {}),
    ...(isOwnDescription && descriptionKey !== undefined
      ? { description_key: descriptionKey }
      : {}),
    name: detail.title,
    description: detail.description,
    prewiewpath: detail.cover,
    prewiewpath_thumb: detail.cover_uuid !== null ? detail.cover : detail.project.prewiewpath_thumb,
  }
}

/** What the gallery shows: the categories and the cases, each in gallery order. */
export interface CaseGallery {
  menus: CaseMenu[]
  details: CaseDetail[]
}
