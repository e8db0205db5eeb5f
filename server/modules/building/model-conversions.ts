import { randomUUID } from 'node:crypto'
import { type ConversionDatum, convertedModelFilesRoot } from '../../../contract/building'
import { formatServerMessage } from '../../../contract/messages'
import { describeSbm } from '../../../workers/sbm/sbm-info'
import { AppError, fieldError } from '../../http/app-error'
import type { AuthUser } from '../accounts/users.service'
import { ConversionError, conversionRefusal } from '../convert/conversion-error'
import { textureBudget } from '../images/image-header'
import { createBuildingRepository } from './building.repository'
import { type BuildingContext, fileColumnsOf, type IncomingFile } from './building-context'
import { baseNameOf, extensionOf } from './building-views'
import type { ConversionPool } from './conversion-pool'
import { displayNameOf } from './model-files'

/** Which converter a conversion upload goes to. */
export type ConversionKind = 'gltf' | 'daeOrFbx'

/** A conversion upload: its files and, to add the result to a library, the project. */
export interface ConversionInput {
  kind: ConversionKind
  files: IncomingFile[]
  projectId?: string | undefined
  categoryZipUuid?: string | undefined
}

/** Conversions of uploaded models to SBM (`uploadGltfForSbm`, `convertSbm`). */
export interface ModelConversions {
  /** Converts an upload to SBM in a worker thread; with a project, adds it to its library. */
  convert(user: AuthUser, input: ConversionInput): Promise<ConversionDatum>
}

type NamedFile = IncomingFile & { name: string }

/** The file the converter starts from: the one .gltf/.glb, or the one .dae/.fbx. */
function entryOf(kind: ConversionKind, named: NamedFile[]): NamedFile {
  if (kind === 'gltf') {
    const mains = named.filter((file) => ['glb', 'gltf'].includes(extensionOf(file.name)))
    if (mains.length !== 1) {
      throw fieldError('validation', 'glbf_arr', 'model.oneGltf')
    }
    return mains[0]!
  }
  if (named.length !== 1) {
    throw fieldError('validation', 'file', 'model.oneDaeOrFbx')
  }
  const entry = named[0]!
  if (!['dae', 'fbx'].includes(extensionOf(entry.name))) {
    throw new AppError(
      'unsupportedFile',
      'model.onlyDaeOrFbx',
      {},
      { details: [{ file: entry.name, reason: 'not .dae or .fbx' }] },
    )
  }
  return entry
}

/** A converter's failure as the refusal the user sees, naming the entry file. */
function refusalOf(error: unknown, entryName: string): unknown {
  if (error instanceof ConversionError && error.reason === 'oversizedTextures') {
    return new AppError(
      'tooLarge',
      'convert.oversizedTextures',
      { maxSide: textureBudget.maxSidePixels, names: error.names.join(', ') },
      { details: [{ file: entryName, reason: error.code, names: error.names }] },
    )
  }
  if (error instanceof ConversionError) return conversionRefusal(error, entryName)
  return error
}

/** Builds the conversions over the shared context. */
export function createModelConversions(context: BuildingContext): ModelConversions {
  const { repository, storage, conversions } = context
  return {
    async convert(user, input) {
      const sources = input.files.map((file) => file.sha256)
      try {
        if (input.projectId !== undefined) await context.loadOwnedProject(user, input.projectId)
        context.requireFiles(input.files)
        const named = input.files.map((file) => ({ ...file, name: displayNameOf(file.fileName) }))
        const entry = entryOf(input.kind, named)
        const paths = named.map((file) => file.name)
        const repeated = paths.find((path, index) => paths.indexOf(path) !== index)
        if (repeated !== undefined) {
          throw fieldError('validation', 'glbf_arr', 'model.duplicateFile', { name: repeated })
        }
        const files = await Promise.all(
          named.map(async (file) => ({
            path: file.name,
            bytes: await context.readStored(file.sha256),
          })),
        )
        let conversion: Awaited<ReturnType<ConversionPool['convert']>>
        try {
          conversion = await conversions.convertForUser(user.id, {
            entryPath: entry.name,
            files,
            role: 'model',
            // one DAE/FBX file is all this upload takes, so textures beside it cannot come along
            allowMissingTextures: input.kind === 'daeOrFbx',
          })
        } catch (error) {
          throw refusalOf(error, entry.name)
        }
        const info = describeSbm(conversion.sbm)
        const stored = await storage.put(conversion.sbm)
        const previewSha256 = await context.storePreview(conversion.preview)
        const columns = fileColumnsOf(info, stored.sha256, stored.sizeBytes, previewSha256)
        const convertedId = randomUUID()
        const modelId = randomUUID()
        const incoming = [stored.sha256, ...(previewSha256 ? [previewSha256] : [])]
        await context.withCleanup(incoming, () =>
          context.db.transaction().execute(async (transaction) => {
            const handle = createBuildingRepository(transaction)
            const timestamp = context.now()
            await handle.insertConverted({
              id: convertedId,
              owner_id: user.id,
              source_name: entry.name,
              source_format: conversion.summary.sourceFormat,
              category_zip_uuid: input.categoryZipUuid ?? null,
              ...columns,
              created_at: timestamp,
            })
            if (input.projectId === undefined) return
            // converted without a project is kept for createModelByCategory; with one, it is
            // added to the library under the project's lock
            await context.access.lockEditable(transaction, user, input.projectId)
            const model = {
              id: modelId,
              projectId: input.projectId,
              fileName: `${baseNameOf(entry.name)}.sbm`,
              role: 'model' as const,
              floorId: null,
              columns,
            }
            await context.insertModel(handle, model, timestamp)
          }),
        )
        const model =
          input.projectId === undefined ? undefined : await repository.findModel(modelId)
        return {
          uuid: convertedId,
          rootPath: convertedModelFilesRoot,
          sbmName: `${convertedId}.sbm`,
          downloadName: `${baseNameOf(entry.name)}.sbm`,
          sizeBytes: stored.sizeBytes,
          triangleCount: info.triangleCount,
          warnings: conversion.summary.warnings.map((warning) => ({
            messageId: warning.id,
            params: warning.params,
            message: formatServerMessage(warning.id, warning.params),
          })),
          model: model ? context.toModel(model) : null,
        }
      } finally {
        // the sources are only the converter's input; the SBM is what is kept
        await context.releaseUnused(sources)
      }
    },
  }
}
