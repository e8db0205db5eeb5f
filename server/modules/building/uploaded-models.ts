import { posix } from 'node:path'
import { convertibleModelExtensions, modelResourceExtensions } from '../../../contract/building'
import { AppError, fieldDetail, fieldError } from '../../http/app-error'
import { ConversionError } from '../convert/conversion-error'
import type { ConversionPool, PooledConversion } from './conversion-pool'
import {
  displayNameOf,
  extensionOf,
  type FileRefusal,
  type InspectedSbm,
  inspectSbm,
  isModelName,
  readModelFilesFromZip,
} from './model-files'

/** A file of an upload by its path (a part's name, or an entry's path inside the ZIP). */
export interface UploadedModelFile {
  path: string
  bytes: Uint8Array
}

/** A checked SBM of an upload, with its thumbnail (null when there is nothing to draw). */
export interface UploadedSbm extends InspectedSbm {
  preview: Uint8Array | null
}

/**
 * THE call into the conversion worker pool for building uploads (and the conversion page), kept
 * in one place so the job interface that will wrap the pool changes one function. A converter
 * refusal becomes `building.conversionRefused` naming the file, with the converter's reason in
 * the details.
 */
export async function convertToSbm(
  conversions: ConversionPool,
  userId: string,
  job: {
    entryPath: string
    files: UploadedModelFile[]
    role: 'shell' | 'floor' | 'model'
    allowMissingTextures: boolean
  },
): Promise<PooledConversion> {
  try {
    return await conversions.convertForUser(userId, {
      entryPath: job.entryPath,
      // copies: the pool transfers (detaches) what it is given, and one upload's files serve
      // several conversions (a ZIP's shared textures, the next model of the same request)
      files: job.files.map((file) => ({ path: file.path, bytes: new Uint8Array(file.bytes) })),
      role: job.role,
      allowMissingTextures: job.allowMissingTextures,
    })
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error
    const file = posix.basename(job.entryPath)
    throw new AppError(
      error.errorKind,
      'building.conversionRefused',
      { file },
      {
        details: [{ file, reason: error.code, names: error.names, message: error.message }],
        englishText: `${file} could not be converted: ${error.message}`,
      },
    )
  }
}

/**
 * The SBMs of a floor or shell upload, checked: `.sbm` files as they are, `.glb`/`.gltf`/
 * `.dae`/`.fbx` converted on the server (a `.gltf` finds its `.bin` and images among the other
 * files; textures a DAE/FBX names but the upload lacks are left out), and one `.zip` of any of
 * these opened first. Each model is named `<its base name>.sbm`, so a structure manifest can
 * link it. Anything else is refused with the file named.
 */
export async function sbmsOfUpload(
  uploaded: UploadedModelFile[],
  options: { conversions: ConversionPool; role: 'shell' | 'floor'; userId: string },
): Promise<UploadedSbm[]> {
  const refuse = (path: string): never => {
    const file = posix.basename(path)
    throw new AppError(
      'unsupportedFile',
      'building.modelFileNotAccepted',
      { file },
      {
        details: [{ file, reason: 'not a model file' }],
      },
    )
  }
  let files = uploaded.map((file) => ({ ...file, path: displayNameOf(file.path) }))
  /** The ZIP the models came in, if they did. */
  let zipName: string | undefined
  const notAccepted = files.find((file) => !isAccepted(file.path))
  if (notAccepted) refuse(notAccepted.path)
  const zips = files.filter((file) => extensionOf(file.path) === 'zip')
  if (zips.length > 0) {
    if (files.length > 1) {
      throw new AppError(
        'validation',
        'building.oneZipOnly',
        {},
        {
          details: [fieldDetail('file', 'validation.oneZipOrModels')],
        },
      )
    }
    zipName = zips[0]!.path
    files = await readModelFilesFromZip(zipName, zips[0]!.bytes)
  }
  const models = files.filter((file) => isModelName(file.path))
  // buffers or images alone are no model
  if (models.length === 0) refuse(files[0]?.path ?? '')
  const sbms: UploadedSbm[] = []
  for (const model of models) {
    const base = posix.basename(model.path)
    if (extensionOf(base) === 'sbm') {
      const sbm =
        zipName === undefined
          ? inspectSbm(base, model.bytes)
          : inspectSbmEntry(zipName, model.path, model.bytes)
      // a thumbnail is a nicety: a busy queue leaves the model without one, not refused
      const preview = await options.conversions
        .previewForUser(options.userId, sbm.bytes)
        .catch(() => null)
      sbms.push({ ...sbm, preview })
      continue
    }
    const converted = await convertToSbm(options.conversions, options.userId, {
      entryPath: model.path,
      files,
      role: options.role,
      // a model dropped alone still becomes a building; missing textures are listed as warnings
      allowMissingTextures: true,
    })
    sbms.push({
      ...inspectSbm(
        `${base.slice(0, base.length - posix.extname(base).length)}.sbm`,
        converted.sbm,
      ),
      preview: converted.preview,
    })
  }
  const names = sbms.map((sbm) => sbm.fileName)
  const duplicate = names.find((name, index) => names.indexOf(name) !== index)
  if (duplicate !== undefined) {
    throw fieldError('validation', 'file', 'model.duplicateName', { name: duplicate })
  }
  return sbms
}

/**
 * {@link inspectSbm} for an entry of a floor or shell ZIP: a file named `.sbm` that is not one
 * is refused naming the entry (its path in the archive) and the ZIP, so the user knows which of
 * many floors to fix.
 */
function inspectSbmEntry(zipName: string, entryPath: string, bytes: Uint8Array): InspectedSbm {
  try {
    return inspectSbm(posix.basename(entryPath), bytes)
  } catch (error) {
    if (!(error instanceof AppError) || error.messageId !== 'model.notValidSbm') throw error
    const refusal = (error.details as FileRefusal[] | undefined)?.[0]
    throw new AppError(
      'unsupportedFile',
      'building.zipEntryNotSbm',
      { entry: entryPath, file: zipName },
      { details: [{ file: entryPath, reason: refusal?.reason ?? 'not an SBM' }] },
    )
  }
}

/** What may travel in a floor or shell upload at all (models, their resources, one ZIP). */
function isAccepted(name: string): boolean {
  const extension = extensionOf(name)
  return (
    extension === 'zip' ||
    extension === 'sbm' ||
    (convertibleModelExtensions as readonly string[]).includes(extension) ||
    (modelResourceExtensions as readonly string[]).includes(extension)
  )
}
