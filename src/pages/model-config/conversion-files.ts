import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

/** The two conversions the page offers. */
export type ConversionKind = 'daeOrFbx' | 'gltf'

/** `accept` of each kind's picker. */
export const conversionAccept: Record<ConversionKind, string> = {
  daeOrFbx: '.dae,.fbx',
  gltf: '.glb,.gltf,.bin,.png,.jpg,.jpeg,.webp,.ktx2',
}

/** Either the files to convert, or why they were refused. */
export type ConversionFileCheck =
  | { isValid: true; files: File[] }
  | { isValid: false; reason: MessageDescriptor }

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.')
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase()
}

/**
 * SPEC §5 "Conversion accepts one DAE or FBX file"; the glTF route (`uploadGltfForSbm`) takes
 * one `.glb`, or one `.gltf` with the `.bin` and image files it names.
 */
export function checkConversionFiles(
  kind: ConversionKind,
  files: readonly File[],
): ConversionFileCheck {
  if (files.length === 0) return { isValid: false, reason: msg`Choose a file.` }
  if (files.some((file) => file.size === 0))
    return { isValid: false, reason: msg`The file is empty.` }
  const extensions = files.map((file) => extensionOf(file.name))
  if (kind === 'daeOrFbx') {
    if (files.length > 1) return { isValid: false, reason: msg`Choose one DAE or FBX file.` }
    if (extensions[0] !== 'dae' && extensions[0] !== 'fbx')
      return { isValid: false, reason: msg`Only DAE or FBX files can be converted here.` }
    return { isValid: true, files: [...files] }
  }
  const mainFiles = extensions.filter((extension) => extension === 'glb' || extension === 'gltf')
  if (mainFiles.length !== 1)
    return { isValid: false, reason: msg`Choose one .glb, or one .gltf with its .bin and images.` }
  if (mainFiles[0] === 'glb' && files.length > 1)
    return { isValid: false, reason: msg`A .glb holds everything: choose it alone.` }
  return { isValid: true, files: [...files] }
}
