import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { StructureAddFileField } from '../../../contract/model-config'
import { structureAddFileFields } from '../../../contract/model-config'
import { missingInputMessages } from './merge-form'

/** What the structure add form holds before it is sent. */
export type AddForm = Record<StructureAddFileField, File[]>

/** A field of the add form that can have a problem. */
export type AddFormField = StructureAddFileField | 'project'

/** The form with nothing chosen. */
export const emptyAddForm: AddForm = { shell: [], shell_maps: [], floors: [], floor_maps: [] }

/**
 * The form's problems before anything is sent: no project, nothing to add, or maps without the
 * models they belong to (the server refuses the same, in the same words).
 */
export function checkAddForm(
  form: AddForm,
  projectId: string | null,
): Partial<Record<AddFormField, MessageDescriptor>> {
  const problems: Partial<Record<AddFormField, MessageDescriptor>> = {}
  if (projectId === null) problems.project = msg`Choose a building project.`
  if (form.shell.length === 0 && form.floors.length === 0) {
    const nothing = msg`Choose a shell model or at least one floor model to add.`
    problems.shell = nothing
    problems.floors = nothing
  }
  if (form.shell_maps.length > 0 && form.shell.length === 0) {
    problems.shell = missingInputMessages.shell
  }
  if (form.floor_maps.length > 0 && form.floors.length === 0) {
    problems.floors = missingInputMessages.floors
  }
  return problems
}

/** The names the preview call takes: what the result would be, without sending the files. */
export function addPreviewInput(
  form: AddForm,
  projectId: string,
  storeyHeightMeters: number | undefined,
) {
  return {
    project_id: projectId,
    shell_name: form.shell[0]?.name ?? '',
    floor_names: form.floors.map((file) => file.name),
    ...(storeyHeightMeters === undefined ? {} : { storey_height: storeyHeightMeters }),
  }
}

/** The multipart form of an add: text fields first (the server reads them before the files). */
export function addFormData(
  form: AddForm,
  projectId: string,
  storeyHeightMeters: number | undefined,
): FormData {
  const data = new FormData()
  data.append('project_id', projectId)
  if (storeyHeightMeters !== undefined) data.append('storey_height', String(storeyHeightMeters))
  for (const field of structureAddFileFields) {
    for (const file of form[field]) data.append(field, file, file.name)
  }
  return data
}
