import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/**
 * What the model library's file pickers accept, checked before anything is sent (the server
 * checks again): SPEC §9 "The floor upload may hold many SBM files or a single ZIP", widened by
 * issue 12 so a new user can start from a common model (glTF/GLB/DAE/FBX, converted on the
 * server); the shell takes one model or the building structure .json.
 */

/** Model formats the server converts to SBM, with the files a `.gltf` or DAE/FBX brings along. */
const convertibleExtensions = ['glb', 'gltf', 'dae', 'fbx']
const resourceExtensions = ['bin', 'png', 'jpg', 'jpeg', 'webp', 'tga', 'ktx2']
const modelPickerAccept = ['sbm', 'zip', ...convertibleExtensions, ...resourceExtensions]
  .map((extension) => `.${extension}`)
  .join(',')

/** `accept` of the shell picker: one model (or a building structure .json). */
export const shellFileAccept = `${modelPickerAccept},.json,application/json`
/** `accept` of the floor picker. */
export const floorFileAccept = modelPickerAccept
/** `accept` of a single model's update picker. */
export const modelFileAccept = '.sbm'

/** Either the files to send, or why they were refused. */
export type FileCheck =
  | { isValid: true; files: File[]; needsConversion: boolean }
  | { isValid: false; reason: MessageDescriptor }

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase()
}

/**
 * Models for the floor or shell upload: `.sbm` files, `.glb`/`.gltf`/`.dae`/`.fbx` (converted
 * on the server; a `.gltf` with its `.bin` and images), or exactly one `.zip` of these.
 */
function checkModelFiles(files: readonly File[]): FileCheck {
  if (files.length === 0) return { isValid: false, reason: msg`Choose a file.` }
  const extensions = files.map((file) => extensionOf(file.name))
  const zipCount = extensions.filter((extension) => extension === 'zip').length
  if (zipCount > 0 && files.length > 1)
    return {
      isValid: false,
      reason: msg`Upload either model files or one ZIP, not both or several ZIPs.`,
    }
  const known = ['sbm', 'zip', ...convertibleExtensions, ...resourceExtensions]
  const unknown = files.find((file) => !known.includes(extensionOf(file.name)))
  if (unknown) {
    const name = unknown.name
    return {
      isValid: false,
      reason: msg`${name} cannot be used here: upload .sbm, .glb, .gltf (with its .bin and images), .dae or .fbx files, or one .zip of them.`,
    }
  }
  const isModel = (extension: string) =>
    extension === 'sbm' || convertibleExtensions.includes(extension)
  if (zipCount === 0 && !extensions.some(isModel))
    return {
      isValid: false,
      reason: msg`Add the model itself (.gltf, .glb, .dae or .fbx), not only its files.`,
    }
  if (files.some((file) => file.size === 0))
    return { isValid: false, reason: msg`The file is empty.` }
  const needsConversion = extensions.some((extension) => extension !== 'sbm')
  return { isValid: true, files: [...files], needsConversion }
}

/** The shell upload: one model (as the floor upload takes it), or one building structure `.json`. */
export function checkShellFiles(files: readonly File[]): FileCheck {
  const [first] = files
  if (first && extensionOf(first.name) === 'json') {
    if (files.length > 1) return { isValid: false, reason: msg`Upload one shell file at a time.` }
    if (first.size === 0) return { isValid: false, reason: msg`The file is empty.` }
    return { isValid: true, files: [first], needsConversion: false }
  }
  return checkModelFiles(files)
}

/** The floor upload: model files, each becoming a floor, or one `.zip` of them. */
export function checkFloorFiles(files: readonly File[]): FileCheck {
  return checkModelFiles(files)
}

/** A single model's replacement: exactly one `.sbm`. */
export function checkModelFile(files: readonly File[]): FileCheck {
  if (files.length !== 1) return { isValid: false, reason: msg`Choose one .sbm file.` }
  const [file] = files as [File]
  if (extensionOf(file.name) !== 'sbm')
    return { isValid: false, reason: msg`A model must be an .sbm file.` }
  if (file.size === 0) return { isValid: false, reason: msg`The file is empty.` }
  return { isValid: true, files: [file], needsConversion: false }
}
