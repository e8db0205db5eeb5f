import { formatServerMessage, type ServerMessage } from '../../../contract/messages'
import { randomUUID } from 'node:crypto'
import { open } from 'node:fs/promises'
import { posix } from 'node:path'
import { type TemplateModelDatum, templateModelFilesRoot } from '../../../contract/template-files'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { NamedFiles } from '../../plugins/storage'
import type { SweepTask } from '../files/folder-sweeper'
import { storeSweep, topFolderOf } from '../files/store-sweep'
import type { ConversionPool, PooledConversion } from '../building/conversion-pool'
import { extensionOf, inspectSbm } from '../building/model-files'
import { type Clock, timestampOf } from '../time/clock'
import { ConversionError } from '../convert/conversion-error'
import { encodePng } from '../convert/png'
import { previewSidePixels } from '../convert/preview-image'
import { fileArchiveSource } from '../tilesets/file-archive'
import {
  templateModelFileName,
  templateModelFileNames,
  templateModelFolder,
} from './template-model-files'
import { readTemplateZip } from './template-zip'

/** A received template zip: a private file the route disposes of afterwards. */
export interface TemplateZipUpload {
  path: string
  /** The name the client gave; for display only, never a path. */
  fileName: string
  sizeBytes: number
}

/** Who asks: the signed-in user's id and role. */
export interface TemplateModelCaller {
  id: string
  role: string
}

/** A served file of a template model: its name in the store's template-models area. */
export interface TemplateModelFile {
  name: string
  contentType: string
}

/** The 3D template models (SPEC §5 "templates, images, 3D template zip"). */
export interface TemplateModelsService {
  /**
   * Makes a template model from an uploaded zip: the zip is inspected, its one model converted
   * to SBM by the conversion pool and its preview drawn by the conversion (or the conversion pool's preview job), and the files and the
   * row are written together (a refusal or failure leaves nothing behind). `gltfOnly` refuses
   * zips whose model is not glTF/GLB (`/upload/upload3DGLBFPoi`).
   */
  createFromZip(
    caller: TemplateModelCaller,
    upload: TemplateZipUpload,
    options?: { gltfOnly?: boolean },
  ): Promise<TemplateModelDatum>
  /**
   * Makes a template model from an SBM already converted (the seed, `uploadGltfForSbm`).
   * `ownerId` null makes a system model everyone sees.
   */
  createFromSbm(
    ownerId: string | null,
    sourceName: string,
    sbm: Uint8Array,
    options?: { preview?: Uint8Array; warnings?: readonly ServerMessage[]; id?: string },
  ): Promise<TemplateModelDatum>
  /**
   * Replaces the SBM (and preview) of a template model the caller owns (`uploadGltfForSbm`
   * with `category_zip_uuid`): the answer of the original upload stays valid.
   */
  replaceSbm(
    caller: TemplateModelCaller,
    uuid: string,
    sourceName: string,
    sbm: Uint8Array,
  ): Promise<TemplateModelDatum>
  /**
   * The template model `uuid` if the caller may use it in a template: their own, or a system
   * one; an admin may use any. Throws `notFound` otherwise (another user's id is not revealed).
   */
  findUsable(caller: TemplateModelCaller, uuid: string): Promise<TemplateModelDatum>
  /** Throws `notFound` unless the caller owns `uuid` (an admin owns every model). */
  checkOwned(caller: TemplateModelCaller, uuid: string): Promise<void>
  /** A served file (`<uuid>.sbm`, `.png`, `.xml`) by its address parts. */
  openFile(uuid: string, name: string): Promise<TemplateModelFile>
  /** What the sweeper removes: folders of the area no model names (cut-short writes). */
  sweepTask(): SweepTask
}

const contentTypes = {
  sbm: 'model/gltf-binary',
  png: 'image/png',
  xml: 'application/xml; charset=utf-8',
} as const
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A model's files are written before its row: a younger folder may be a live upload's. */
const unreferencedMinimumAgeMs = 3_600_000

/**
 * The template model service. Files live in the store's `template-models` area (a folder,
 * DATA_DIR/template-models as before, or the bucket), under the folder the row names; rows in
 * `template_models`. A folder is read only once a row names it, and a row names only a folder
 * whose files are all written: a model is whole or absent, and a replaced SBM switches to
 * whole new files in one update of the row.
 */
export function createTemplateModelsService(deps: {
  database: DatabaseHandle
  conversions: ConversionPool
  clock: Clock
  /** The store's template-models area. */
  files: NamedFiles
  onBackgroundError?: (error: unknown) => void
}): TemplateModelsService {
  const { database, conversions, clock, files } = deps
  const db = database.db
  /** A clean-up that failed: logged; what it left (no row names it) goes at the sweep. */
  const report = (error: unknown) => {
    deps.onBackgroundError?.(error)
  }
  const datumOf = (
    row: {
      id: string
      source_name: string
      size_bytes: number | string | bigint
      triangle_count: number | string | bigint
    },
    warnings: readonly ServerMessage[] = [],
  ): TemplateModelDatum => ({
    uuid: row.id,
    rootPath: `${templateModelFilesRoot}${row.id}/`,
    jpgName: `${row.id}.png`,
    xmlName: `${row.id}.xml`,
    sbmName: `${row.id}.sbm`,
    sourceName: row.source_name,
    triangleCount: Number(row.triangle_count),
    sizeBytes: Number(row.size_bytes),
    warnings: warnings.map((warning) => ({
      messageId: warning.id,
      params: warning.params,
      message: formatServerMessage(warning.id, warning.params),
    })),
  })

  // the conversion pool's preview job draws it (the same renderer as a conversion's preview);
  // a model it cannot draw gets a blank square, since every template model has its picture
  const renderPreview = async (ownerId: string | null, sbm: Uint8Array) =>
    (await conversions.previewForUser(ownerId ?? 'system', sbm)) ??
    encodePng(
      new Uint8Array(previewSidePixels * previewSidePixels * 4),
      previewSidePixels,
      previewSidePixels,
    )

  /**
   * Writes a model's files into `folder`, which no row names yet (the caller writes the row
   * after, so a folder is complete or unread): its preview is rendered first (given, or drawn
   * in a job thread), so a model that fails there writes nothing. A failed write removes the
   * folder.
   */
  const writeFolder = async (
    folder: string,
    ownerId: string | null,
    sbm: Uint8Array,
    preview: Uint8Array | undefined,
    xml: string,
  ): Promise<void> => {
    const png = preview ?? (await renderPreview(ownerId, sbm))
    try {
      await files.write(`${folder}/${templateModelFileNames.sbm}`, sbm)
      await files.write(`${folder}/${templateModelFileNames.png}`, png)
      await files.write(`${folder}/${templateModelFileNames.xml}`, Buffer.from(xml))
    } catch (error) {
      // the write's failure is the answer; what is left of the folder goes at the sweep
      await files.removeFolder(folder).catch(report)
      throw error
    }
  }

  const store = async (
    ownerId: string | null,
    sourceName: string,
    sourceFormat: string,
    sbm: Uint8Array,
    warnings: readonly ServerMessage[],
    preview?: Uint8Array,
    fixedId?: string,
    convertedTriangleCount?: number,
  ): Promise<TemplateModelDatum> => {
    // our converter's output is checked already and counted by it: parsing the SBM again here
    // would cost the request thread ~20 ms per 800k triangles (bench/templates/template-zip-health)
    const triangleCount = convertedTriangleCount ?? inspectSbm(sourceName, sbm).info.triangleCount
    const id = fixedId ?? randomUUID()
    const row = {
      id,
      owner_id: ownerId,
      source_name: sourceName,
      source_format: sourceFormat,
      size_bytes: sbm.byteLength,
      triangle_count: triangleCount,
      created_at: timestampOf(clock.nowMs()),
      // a new model's folder is its id, as before the store
      files_folder: null,
    }
    const datum = datumOf(row, warnings)
    // a fixed (seeded) id's folder without its row is left from an earlier database on the
    // same data folder: it is written anew
    if (fixedId !== undefined) await files.removeFolder(id)
    await writeFolder(id, ownerId, sbm, preview, describeModelXml(datum, sourceFormat))
    try {
      await db.insertInto('template_models').values(row).execute()
    } catch (error) {
      await files.removeFolder(id).catch(report)
      throw error
    }
    return datum
  }

  const findRow = async (uuid: string) =>
    uuidPattern.test(uuid)
      ? db.selectFrom('template_models').selectAll().where('id', '=', uuid).executeTakeFirst()
      : undefined

  const notFound = () => new AppError('notFound', 'templateModel.notFound')

  return {
    async createFromZip(caller, upload, options = {}) {
      const handle = await open(upload.path, 'r')
      let content: Awaited<ReturnType<typeof readTemplateZip>>
      try {
        content = await readTemplateZip(
          fileArchiveSource(handle, upload.sizeBytes),
          upload.fileName,
        )
      } finally {
        await handle.close()
      }
      const modelName = posix.basename(content.modelPath)
      const format = extensionOf(modelName)
      if (options.gltfOnly && format !== 'glb' && format !== 'gltf') {
        throw new AppError('unsupportedFile', 'templateModel.onlyGltf', { file: modelName })
      }
      if (format === 'sbm') {
        const sbm = content.files.find((file) => file.path === content.modelPath)!.bytes
        return store(caller.id, modelName, 'sbm', sbm, [])
      }
      let converted: PooledConversion
      try {
        // the zip's files go to the pool as they are (transferred, not copied): nothing else
        // reads them afterwards
        converted = await conversions.convertForUser(caller.id, {
          entryPath: content.modelPath,
          files: content.files,
          role: 'model',
          // a model without some of its textures still makes a recognisable template
          allowMissingTextures: true,
        })
      } catch (error) {
        if (!(error instanceof ConversionError)) throw error
        throw new AppError(
          error.errorKind,
          'templateModel.conversionRefused',
          { file: modelName },
          {
            details: [
              { file: modelName, reason: error.code, names: error.names, message: error.message },
            ],
            englishText: `${modelName} could not be converted: ${error.message}`,
          },
        )
      }
      return store(
        caller.id,
        modelName,
        format,
        converted.sbm,
        converted.summary.warnings,
        converted.preview ?? undefined,
        undefined,
        converted.summary.triangleCount,
      )
    },

    createFromSbm: (ownerId, sourceName, sbm, options = {}) =>
      store(ownerId, sourceName, 'sbm', sbm, options.warnings ?? [], options.preview, options.id),

    async replaceSbm(caller, uuid, sourceName, sbm) {
      const row = await findRow(uuid)
      if (!row || (row.owner_id !== caller.id && caller.role !== 'admin')) throw notFound()
      const info = inspectSbm(sourceName, sbm).info
      const updated = {
        ...row,
        source_name: sourceName,
        size_bytes: sbm.byteLength,
        triangle_count: info.triangleCount,
      }
      const datum = datumOf(updated)
      // the new files go to a new folder and the row switches to it in one update: a reader
      // sees the old model or the new one whole, on a folder and in a bucket alike
      const folder = randomUUID()
      await writeFolder(folder, caller.id, sbm, undefined, describeModelXml(datum, 'sbm'))
      try {
        await db
          .updateTable('template_models')
          .set({
            source_name: sourceName,
            source_format: 'sbm',
            size_bytes: sbm.byteLength,
            triangle_count: info.triangleCount,
            files_folder: folder,
          })
          .where('id', '=', uuid)
          .execute()
      } catch (error) {
        await files.removeFolder(folder).catch(report)
        throw error
      }
      // the old files are no longer named; one left by a failure here goes at the sweep
      await files.removeFolder(templateModelFolder(row)).catch(report)
      return datum
    },

    async findUsable(caller, uuid) {
      const row = await findRow(uuid)
      const isUsable =
        row !== undefined &&
        (row.owner_id === null || row.owner_id === caller.id || caller.role === 'admin')
      if (!isUsable) throw notFound()
      return datumOf(row)
    },

    async checkOwned(caller, uuid) {
      const row = await findRow(uuid)
      if (!row || (row.owner_id !== caller.id && caller.role !== 'admin')) throw notFound()
    },

    async openFile(uuid, name) {
      const match = /^([0-9a-f-]{36})\.(sbm|png|xml)$/.exec(name)
      if (!match || match[1] !== uuid || !uuidPattern.test(uuid)) throw notFound()
      const kind = match[2] as keyof typeof templateModelFileNames
      const row = await findRow(uuid)
      if (!row) throw notFound()
      return { name: templateModelFileName(row, kind), contentType: contentTypes[kind] }
    },

    // the staging and retired folders of earlier versions on a folder are named by no model
    sweepTask: () =>
      storeSweep(
        {
          label: 'template model folders no model names',
          entryOf: topFolderOf,
          minimumAgeMs: unreferencedMinimumAgeMs,
          isCrashLeftover: true,
          async keep(folders) {
            const rows = await db
              .selectFrom('template_models')
              .select(['id', 'files_folder'])
              .where((where) =>
                where.or([where('id', 'in', folders), where('files_folder', 'in', folders)]),
              )
              .execute()
            return new Set(rows.map(templateModelFolder))
          },
        },
        files,
      ),
  }
}

/** The XML description served as `xmlName`: what the model is, for tools and the offline package. */
export function describeModelXml(datum: TemplateModelDatum, sourceFormat: string): string {
  const escapeXml = (text: string) =>
    text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<templateModel uuid="${datum.uuid}">`,
    `  <source name="${escapeXml(datum.sourceName)}" format="${escapeXml(sourceFormat)}"/>`,
    `  <model file="${datum.sbmName}" format="sbm" sizeBytes="${datum.sizeBytes}" triangles="${datum.triangleCount}"/>`,
    `  <preview file="${datum.jpgName}" format="png"/>`,
    '</templateModel>',
    '',
  ].join('\n')
}
