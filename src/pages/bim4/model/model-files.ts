import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * What the model library's file pickers accept, checked before anything is sent (the server
 * checks again): SPEC §5 "The shell upload accepts only .json files, one file at a time" and §9
 * "The floor upload may hold many SBM files or a single ZIP".
 */

/** `accept` of the shell picker. */
export const shellFileAccept = '.json,application/json'
/** `accept` of the floor picker. */
export const floorFileAccept = '.sbm,.zip,application/zip'
/** `accept` of a single model's update picker. */
export const modelFileAccept = '.sbm'

/** Either the files to send, or why they were refused. */
export type FileCheck =
  | { isValid: true; files: File[] }
  | { isValid: false; reason: MessageDescriptor }

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase()
}

/** The shell (building structure) upload: exactly one `.json` file. */
export function checkShellFiles(files: readonly File[]): FileCheck {
  if (files.length === 0) return { isValid: false, reason: msg`Choose a file.` }
  if (files.length > 1) return { isValid: false, reason: msg`Upload one shell file at a time.` }
  const [file] = files as [File]
  if (extensionOf(file.name) !== 'json')
    return { isValid: false, reason: msg`The shell must be a building structure .json file.` }
  if (file.size === 0) return { isValid: false, reason: msg`The file is empty.` }
  return { isValid: true, files: [file] }
}

/** The floor upload: one or more `.sbm` files, or exactly one `.zip` of them. */
export function checkFloorFiles(files: readonly File[]): FileCheck {
  if (files.length === 0) return { isValid: false, reason: msg`Choose a file.` }
  const extensions = files.map((file) => extensionOf(file.name))
  const zipCount = extensions.filter((extension) => extension === 'zip').length
  if (zipCount > 0 && files.length > 1)
    return { isValid: false, reason: msg`Upload either SBM files or a single ZIP, not both.` }
  if (zipCount === 0 && extensions.some((extension) => extension !== 'sbm'))
    return { isValid: false, reason: msg`Floors must be .sbm files or one .zip of them.` }
  if (files.some((file) => file.size === 0))
    return { isValid: false, reason: msg`The file is empty.` }
  return { isValid: true, files: [...files] }
}

/** A single model's replacement: exactly one `.sbm`. */
export function checkModelFile(files: readonly File[]): FileCheck {
  if (files.length !== 1) return { isValid: false, reason: msg`Choose one .sbm file.` }
  const [file] = files as [File]
  if (extensionOf(file.name) !== 'sbm')
    return { isValid: false, reason: msg`A model must be an .sbm file.` }
  if (file.size === 0) return { isValid: false, reason: msg`The file is empty.` }
  return { isValid: true, files: [file] }
}
