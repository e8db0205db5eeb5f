import {
  defaultStoreyHeightMeters,
  type MergeFileField,
  mergeMaxFloors,
  mergePreviewMaxBytes,
  outputNameForbidden,
} from '../../../contract/model-config'
import type { MessageId } from '../../../contract/messages'
import { AppError, fieldDetail } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import { extensionOf } from '../building/building-views'
import { displayNameOf } from '../building/model-files'

/** A model format the merge takes for the shell and the floors. */
export const mergeModelExtensions = ['sbm', 'dae', 'fbx', 'glb'] as const
/** Map image formats the converter reads (and TGA, which it converts). */
export const mergeMapExtensions = ['png', 'jpg', 'jpeg', 'tga', 'bmp', 'gif', 'webp'] as const

/** One uploaded file of the merge, by its shown name. */
export interface MergeFile {
  name: string
  sha256: string
  sizeBytes: number
}

/** A merge's inputs, checked: what the job converts and packs, in floor order. */
export interface MergePlan {
  outputName: string
  storeyHeightMeters: number
  shell: MergeFile
  shellMaps: MergeFile[]
  /** Bottom floor first. */
  floors: MergeFile[]
  floorMaps: MergeFile[]
  preview: MergeFile
}

type MissingMessageId = Extract<
  MessageId,
  | 'modelConfig.needShellModel'
  | 'modelConfig.needShellMaps'
  | 'modelConfig.needFloorModels'
  | 'modelConfig.needFloorMaps'
  | 'modelConfig.needPreview'
  | 'modelConfig.needOutputName'
>

const missingMessages: Record<MergeFileField | 'output_name', MissingMessageId> = {
  shell: 'modelConfig.needShellModel',
  shell_maps: 'modelConfig.needShellMaps',
  floors: 'modelConfig.needFloorModels',
  floor_maps: 'modelConfig.needFloorMaps',
  preview: 'modelConfig.needPreview',
  output_name: 'modelConfig.needOutputName',
}

/** The base of a file name (without its last extension). */
export function baseOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/**
 * A floor's level from its file name, for ordering: `B2`, `-2`, `地下2`, `지하2` are below
 * ground (negative), other names take their first number (`3F`, `floor-3`, `3층`), and names
 * without one sort after the numbered ones in text order.
 */
export function floorLevelOf(name: string): number | null {
  const base = baseOf(name)
  const basement =
    /(?:^|[^a-z])(?:b|basement|地下|지하)\s*-?(\d+)/i.exec(base) ?? /^-(\d+)/.exec(base)
  if (basement) return -Number(basement[1])
  const number = /(\d+)/.exec(base)
  return number ? Number(number[1]) : null
}

/** Floors bottom-up: by level, then by natural text order of the names. */
export function orderFloors<File extends { name: string }>(files: readonly File[]): File[] {
  const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' })
  return [...files].sort((a, b) => {
    const levelA = floorLevelOf(a.name)
    const levelB = floorLevelOf(b.name)
    if (levelA !== null && levelB !== null && levelA !== levelB) return levelA - levelB
    if (levelA !== null && levelB === null) return -1
    if (levelA === null && levelB !== null) return 1
    return collator.compare(a.name, b.name)
  })
}

/** The uploaded files of one form field, by their shown names. */
export function filesOfField(files: readonly UploadedFile[], field: MergeFileField): MergeFile[] {
  return files
    .filter((file) => file.fieldName === field)
    .map((file) => ({
      name: displayNameOf(file.fileName),
      sha256: file.sha256,
      sizeBytes: file.sizeBytes,
    }))
}

/**
 * Checks what the form sent before anything is converted (SPEC §5): every missing input is
 * named (one detail each), then the kinds of files, the output name, and floor names (unique
 * by base name, since they name the floors). Content checks that need the bytes (images,
 * SBMs) come after, in {@link checkMergeContent}.
 */
export function planMerge(
  fields: { output_name?: string | undefined; storey_height?: number | undefined },
  files: readonly UploadedFile[],
): MergePlan {
  const shell = filesOfField(files, 'shell')
  const shellMaps = filesOfField(files, 'shell_maps')
  const floors = filesOfField(files, 'floors')
  const floorMaps = filesOfField(files, 'floor_maps')
  const preview = filesOfField(files, 'preview')
  const outputName = (fields.output_name ?? '').trim()

  const present: Record<MergeFileField | 'output_name', boolean> = {
    shell: shell.length > 0,
    shell_maps: shellMaps.length > 0,
    floors: floors.length > 0,
    floor_maps: floorMaps.length > 0,
    preview: preview.length > 0,
    output_name: outputName.length > 0,
  }
  const missing = (Object.keys(present) as Array<keyof typeof present>).filter(
    (field) => !present[field],
  )
  if (missing.length > 0) {
    throw new AppError(
      'validation',
      'modelConfig.mergeInputsMissing',
      { count: missing.length },
      { details: missing.map((field) => fieldDetail(field, missingMessages[field])) },
    )
  }
  if (outputNameForbidden.test(outputName)) {
    throw fieldRefusal('output_name', 'modelConfig.outputNameInvalid')
  }
  if (shell.length > 1) {
    throw fieldRefusal('shell', 'modelConfig.oneShellModel')
  }
  if (preview.length > 1) {
    throw notImage('preview', 'modelConfig.previewNotImage', preview[1]!.name)
  }
  if (floors.length > mergeMaxFloors) {
    throw new AppError('validation', 'modelConfig.tooManyFloors', { max: mergeMaxFloors })
  }
  for (const [field, models] of [
    ['shell', shell],
    ['floors', floors],
  ] as const) {
    for (const model of models) {
      if (!(mergeModelExtensions as readonly string[]).includes(extensionOf(model.name))) {
        throw new AppError(
          'unsupportedFile',
          'modelConfig.notAModel',
          { name: model.name },
          { details: [fieldDetail(field, 'modelConfig.notAModel', { name: model.name })] },
        )
      }
    }
  }
  for (const [field, maps] of [
    ['shell_maps', shellMaps],
    ['floor_maps', floorMaps],
  ] as const) {
    for (const map of maps) {
      if (!(mergeMapExtensions as readonly string[]).includes(extensionOf(map.name))) {
        throw notImage(field, 'modelConfig.mapNotImage', map.name)
      }
    }
  }
  const previewFile = preview[0]!
  if (
    !['png', 'jpg', 'jpeg'].includes(extensionOf(previewFile.name)) ||
    previewFile.sizeBytes > mergePreviewMaxBytes
  ) {
    throw notImage('preview', 'modelConfig.previewNotImage', previewFile.name)
  }
  const floorNames = floors.map((floor) => baseOf(floor.name).toLowerCase())
  const twice = floorNames.findIndex((name, index) => floorNames.indexOf(name) !== index)
  if (twice >= 0) {
    const name = baseOf(floors[twice]!.name)
    throw new AppError(
      'validation',
      'modelConfig.floorNameTwice',
      { name },
      { details: [fieldDetail('floors', 'modelConfig.floorNameTwice', { name })] },
    )
  }
  return {
    outputName,
    storeyHeightMeters: fields.storey_height ?? defaultStoreyHeightMeters,
    shell: shell[0]!,
    shellMaps,
    floors: orderFloors(floors),
    floorMaps,
    preview: previewFile,
  }
}

/** The refusal of one form field for a problem that needs no names or numbers. */
export function fieldRefusal(
  field: MergeFileField | 'output_name',
  messageId:
    | 'modelConfig.oneShellModel'
    | 'modelConfig.needShellModel'
    | 'modelConfig.needFloorModels'
    | 'modelConfig.outputNameInvalid',
): AppError {
  return new AppError('validation', messageId, {}, { details: [fieldDetail(field, messageId)] })
}

/** The refusal of a file that is not the image it should be, naming it. */
export function notImage(
  field: MergeFileField,
  messageId: 'modelConfig.mapNotImage' | 'modelConfig.previewNotImage',
  name: string,
): AppError {
  return new AppError(
    'unsupportedFile',
    messageId,
    { name },
    { details: [fieldDetail(field, messageId, { name })] },
  )
}

/**
 * Whether a model refers to a map: its file name appears in the model's bytes (DAE and glTF
 * name their images as text, FBX as strings in its binary). A map no model names cannot be
 * placed on any UVs, so the merge reports it and goes on without it.
 */
export function refersTo(modelBytes: Uint8Array, mapName: string): boolean {
  const text = Buffer.from(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength)
  return text.includes(Buffer.from(mapName)) || text.includes(Buffer.from(mapName.toLowerCase()))
}
