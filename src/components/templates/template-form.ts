import {
  type CategoryNode,
  categoryRootIds,
  type Template,
  type TemplateLevel,
} from '../../api/templates'
import {
  type CreateTemplateBody,
  propertyColumnPattern,
  type TemplateKind as TemplateType,
} from '../../../contract/templates'

/**
 * The pure rules of the template popup (SPEC §4 "Template popup", "Category choice", §5
 * "Templates"), kept apart from React so each rule has a plain test.
 */

/** The popup's tabs, in the order shown. */
export const templateTabs = ['basic', 'static', 'labels', 'events'] as const
export type TemplateTab = (typeof templateTabs)[number]

/** Simple templates carry an icon or model; multi-level ones a list of levels. */
export type TemplateKind = 'simple' | 'multiLevel'

/** What the basic tab edits. */
export interface TemplateFormValues {
  kind: TemplateKind
  name: string
  poicategory_code: string
  /** Category path from the root, ids as text (SPEC §3 piddes). */
  categoryPath: string[]
  type: TemplateType
  /** The saved icon's address (2D); cleared whenever the category changes. */
  iconpath: string
  /** The uploaded 3D zip (3D): its uuid, folder, preview, description and converted model. */
  category_zip_uuid: string
  file_path: string
  jpg_name: string
  xml_name: string
  glbf_name: string
  is_iot_device: boolean
  use_shadow_editor_render: boolean
  levels: TemplateLevel[]
}

/** The fields the basic tab saves (create and update alike). */
export type TemplateFields = CreateTemplateBody & {
  template_type?: '0' | '1'
  projectInfoAllCustoms?: TemplateLevel[]
}

/** Values for a new template, or for editing a saved one in place. */
export function initialTemplateValues(
  template: Template | null,
  kind: TemplateKind = 'simple',
): TemplateFormValues {
  const categoryPath = template?.piddes ? template.piddes.split(',').filter(Boolean) : []
  const levels = template?.projectInfoAllCustoms ?? []
  return {
    kind: template ? (template.template_type === '1' ? 'multiLevel' : 'simple') : kind,
    name: template?.name ?? '',
    poicategory_code: template?.poicategory_code ?? '',
    categoryPath,
    type: template?.type ?? typeOfCategoryPath(categoryPath),
    iconpath: template?.iconpath ?? template?.icon_path ?? '',
    category_zip_uuid: template?.category_zip_uuid ?? '',
    file_path: template?.file_path ?? '',
    jpg_name: template?.jpg_name ?? '',
    xml_name: template?.xml_name ?? '',
    glbf_name: template?.glbf_name ?? '',
    is_iot_device: template?.is_iot_device ?? false,
    use_shadow_editor_render: template?.use_shadow_editor_render ?? false,
    levels: levels.map((level) => ({ ...level, customs: [...level.customs] })),
  }
}

/** SPEC §4 "Choosing a category whose first id is 2 makes the template 3D, otherwise 2D." */
export function typeOfCategoryPath(path: readonly string[]): TemplateType {
  return path[0] === categoryRootIds.threeD ? '3D' : '2D'
}

/**
 * A new category choice: the type follows the path's first id and the icon (and any 3D model
 * chosen for the old category) is cleared (SPEC §4 "The icon is cleared on change").
 */
export function chooseCategory(
  values: TemplateFormValues,
  path: readonly string[],
): TemplateFormValues {
  return {
    ...values,
    categoryPath: [...path],
    type: typeOfCategoryPath(path),
    iconpath: '',
    category_zip_uuid: '',
    file_path: '',
    jpg_name: '',
    xml_name: '',
    glbf_name: '',
  }
}

/** The ids from a root down to `id` in a category tree, or null when it is not there. */
export function categoryPathTo(tree: readonly CategoryNode[], id: string): string[] | null {
  for (const node of tree) {
    if (node.id === id) return [node.id]
    const below = categoryPathTo(node.children, id)
    if (below) return [node.id, ...below]
  }
  return null
}

/** The names along a category path, for showing the choice. */
export function categoryNamesOf(tree: readonly CategoryNode[], path: readonly string[]): string[] {
  const names: string[] = []
  let level: readonly CategoryNode[] = tree
  for (const id of path) {
    const node = level.find((candidate) => candidate.id === id)
    if (!node) break
    names.push(node.category_name)
    level = node.children
  }
  return names
}

/** Why the basic tab cannot be saved (SPEC §5 "Templates"), or null. */
export type BasicProblem = 'incomplete' | null

/**
 * SPEC §5: a simple template needs name, poicategory_code, piddes and iconpath (its 3D model
 * stands for the icon of a 3D template, whose icon is the model's preview); a multi-level one
 * needs name, poicategory_code, piddes and at least one named level.
 */
export function basicProblem(values: TemplateFormValues): BasicProblem {
  if (!values.name.trim() || !values.poicategory_code.trim() || values.categoryPath.length === 0)
    return 'incomplete'
  if (values.kind === 'multiLevel') {
    const levels = values.levels.filter((level) => level.level_name.trim())
    return levels.length === 0 ? 'incomplete' : null
  }
  if (values.type === '3D') return values.category_zip_uuid ? null : 'incomplete'
  return values.iconpath ? null : 'incomplete'
}

/** The request fields of the basic tab. */
export function templateFieldsOf(values: TemplateFormValues): TemplateFields {
  const fields: TemplateFields = {
    name: values.name.trim(),
    poicategory_code: values.poicategory_code.trim(),
    piddes: values.categoryPath.join(','),
    bgtype: '1',
    is_iot_device: values.is_iot_device,
    use_shadow_editor_render: values.use_shadow_editor_render,
    iconpath: values.iconpath,
  }
  if (values.kind === 'multiLevel') {
    fields.projectInfoAllCustoms = values.levels
      .filter((level) => level.level_name.trim())
      .map((level) => ({ ...level, level_name: level.level_name.trim() }))
    return fields
  }
  if (values.type === '3D') {
    fields.category_zip_uuid = values.category_zip_uuid
    fields.file_path = values.file_path
    fields.jpg_name = values.jpg_name
    fields.xml_name = values.xml_name
    fields.glbf_name = values.glbf_name
  }
  return fields
}

/**
 * SPEC §4: without an id (a new template before its first save) only the basic tab can be
 * chosen; once saved every tab is open.
 */
export function isTabEnabled(tab: TemplateTab, templateId: string | null): boolean {
  return tab === 'basic' || templateId !== null
}

/** SPEC §4: the tab to show after a save — a first save moves on to the labels. */
export function tabAfterSave(current: TemplateTab, wasNew: boolean): TemplateTab {
  return wasNew ? 'labels' : current
}

/** What the static-attribute form holds. */
export interface AttributeValues {
  property_column: string
  column_des: string
  column_example: string
}

/** Why an attribute cannot be added, or null. */
export type AttributeProblem = 'noTemplate' | 'incomplete' | 'notIdentifier' | null

/**
 * SPEC §5: the template must exist, all three fields are needed, and (the rule) the
 * English name is an identifier.
 */
export function attributeProblem(
  values: AttributeValues,
  templateId: string | null,
): AttributeProblem {
  if (templateId === null) return 'noTemplate'
  if (!values.property_column.trim() || !values.column_des.trim() || !values.column_example.trim())
    return 'incomplete'
  if (!propertyColumnPattern.test(values.property_column.trim())) return 'notIdentifier'
  return null
}

/** SPEC §5 "Templates": the 3D model upload must be a zip (either zip content type). */
export function isZipFile(file: Pick<File, 'name' | 'type'>): boolean {
  const types = ['application/zip', 'application/x-zip-compressed']
  if (file.type) return types.includes(file.type) && /\.zip$/i.test(file.name)
  return /\.zip$/i.test(file.name)
}
