import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { MergeFileField } from '../../../contract/model-config'
import { outputNameForbidden } from '../../../contract/model-config'

/** What the merge form holds before it is sent. */
export interface MergeForm {
  shell: File[]
  shell_maps: File[]
  floors: File[]
  floor_maps: File[]
  preview: File[]
  output_name: string
}

/** A field of the merge form: a file field or the output name. */
export type MergeFormField = MergeFileField | 'output_name'

/** The form's fields in the order it shows them (SPEC §5's order). */
export const mergeFormFields: readonly MergeFormField[] = [
  'shell',
  'shell_maps',
  'floors',
  'floor_maps',
  'preview',
  'output_name',
]

/** SPEC §5: each input the merge needs, named when it is missing (the server's words too). */
export const missingInputMessages: Record<MergeFormField, MessageDescriptor> = {
  shell: msg`Add the shell model.`,
  shell_maps: msg`Add the shell maps.`,
  floors: msg`Add the floor models.`,
  floor_maps: msg`Add the floor maps.`,
  preview: msg`Add a preview image.`,
  output_name: msg`Enter an output file name.`,
}

/** `accept` of each file picker. */
export const mergeAccept: Record<MergeFileField, string> = {
  shell: '.sbm,.dae,.fbx,.glb',
  shell_maps: '.png,.jpg,.jpeg,.tga,.bmp,.gif,.webp',
  floors: '.sbm,.dae,.fbx,.glb',
  floor_maps: '.png,.jpg,.jpeg,.tga,.bmp,.gif,.webp',
  preview: '.png,.jpg,.jpeg',
}

/**
 * The form's problems before anything is sent, by field: every missing input (SPEC §5), and an
 * output name the server would refuse (it becomes file names in the result).
 */
export function checkMergeForm(
  form: MergeForm,
): Partial<Record<MergeFormField, MessageDescriptor>> {
  const problems: Partial<Record<MergeFormField, MessageDescriptor>> = {}
  for (const field of mergeFormFields) {
    const isMissing =
      field === 'output_name' ? form.output_name.trim() === '' : form[field].length === 0
    if (isMissing) problems[field] = missingInputMessages[field]
  }
  if (!problems.output_name && outputNameForbidden.test(form.output_name.trim())) {
    problems.output_name = msg`The output file name may not contain slashes, any of : * ? " < > | or control characters.`
  }
  return problems
}

/** The multipart form of a merge: text fields first (the server reads them before the files). */
export function mergeFormData(
  form: MergeForm,
  options: { projectId?: string | undefined; storeyHeightMeters?: number | undefined },
): FormData {
  const data = new FormData()
  data.append('output_name', form.output_name.trim())
  if (options.projectId) data.append('project_id', options.projectId)
  if (options.storeyHeightMeters !== undefined) {
    data.append('storey_height', String(options.storeyHeightMeters))
  }
  for (const field of mergeFormFields) {
    if (field === 'output_name') continue
    for (const file of form[field]) data.append(field, file, file.name)
  }
  return data
}
