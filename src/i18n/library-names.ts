import { i18n } from '@lingui/core'
import type { MessageId } from '../../contract/messages'
import { serverMessageTexts } from './server-message-texts'

/**
 * Names of the seeded library (templates and categories) in the user's language. The server
 * answers a seeded name's catalogue id as `name_key` (`template_name_key` on a POI record,
 * contract/templates.ts); every other name — a user's own, or a seeded one renamed since — is
 * shown as typed. Components that call these re-render on a language change through their own
 * `useLingui()`.
 */

/** A name as the user reads it: the text of `nameKey` when it is a known id, else `name`. */
export function libraryNameText(name: string, nameKey: string | undefined): string {
  if (nameKey && Object.hasOwn(serverMessageTexts, nameKey)) {
    return i18n._(serverMessageTexts[nameKey as MessageId])
  }
  return name
}

/** A template's name as the user reads it (templates, scene templates). */
export function templateNameText(template: {
  name: string
  name_key?: string | undefined
}): string {
  return libraryNameText(template.name, template.name_key)
}

/**
 * A template's category path as the user reads it ('3D / 화재 / 소화기'): each seeded step in the
 * user's language; without steps (an older answer) the server's stored path.
 */
export function categoryPathText(template: {
  category: string
  category_path?: ReadonlyArray<{ category_name: string; name_key?: string | undefined }>
}): string {
  if (!template.category_path?.length) return template.category
  return template.category_path.map(categoryNameText).join(' / ')
}

/** A category's name as the user reads it. */
export function categoryNameText(category: {
  category_name: string
  name_key?: string | undefined
}): string {
  return libraryNameText(category.category_name, category.name_key)
}

/** The texts of a project; a seeded case's read in the user's language (`*_key`). */
export function projectTexts(project: {
  name: string
  description: string
  detailedaddress: string
  name_key?: string | undefined
  description_key?: string | undefined
  detailedaddress_key?: string | undefined
}): { name: string; description: string; detailedaddress: string } {
  return {
    name: libraryNameText(project.name, project.name_key),
    description: libraryNameText(project.description, project.description_key),
    detailedaddress: libraryNameText(project.detailedaddress, project.detailedaddress_key),
  }
}
