import { randomUUID } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { UploadPoiTemplateDatum } from '../../../contract/template-files'
import type { DatabaseHandle } from '../../plugins/db'
import { type Clock, timestampOf } from '../time/clock'
import type { MessageLanguage } from '../messaging/message-texts'
import {
  attributeColumn,
  type PoiBatchColumn,
  poiFieldColumns,
  type StaticAttributeColumnSource,
} from './poi-batch-columns'
import { buildPoiBatchWorkbook } from './poi-batch-file'
import type { PoiBatchFileReader } from './poi-batch-file-job'

/** Who asks: the signed-in user's id and role. */
export interface BatchFileCaller {
  id: string
  role: string
}

/**
 * The template side the batch file needs, answered by the templates area: a template the caller
 * may read (their own or a shared one), with its static attributes; `notFound` otherwise.
 */
export interface BatchTemplateSource {
  templateForBatch(
    caller: BatchFileCaller,
    templateId: string,
  ): Promise<{ name: string; code: string; attributes: StaticAttributeColumnSource[] }>
}

/** The batch-POI template file (issue 15 item 5). */
export interface PoiBatchFilesService {
  /** The XLSX to fill for a template, explained in `language`. */
  buildTemplateFile(
    caller: BatchFileCaller,
    templateId: string,
    language: MessageLanguage,
  ): Promise<{ fileName: string; bytes: Buffer }>
  /**
   * Validates a filled file against its template's columns and stores it (nothing is stored
   * when any cell is wrong: the refusal lists them). Creating the POIs is the POI issue's.
   */
  acceptFilledFile(
    caller: BatchFileCaller,
    templateId: string,
    upload: { fileName: string; bytes: Buffer },
  ): Promise<UploadPoiTemplateDatum>
}

/** The columns of a template's batch file: the POI fields, then its static attributes. */
export function batchColumnsOf(
  attributes: readonly StaticAttributeColumnSource[],
): PoiBatchColumn[] {
  const fieldKeys = new Set(poiFieldColumns.map((column) => column.key))
  // an attribute named like a POI field would make two columns with one key: the field wins
  return [
    ...poiFieldColumns,
    ...attributes
      .filter((attribute) => !fieldKeys.has(attribute.property_column))
      .map(attributeColumn),
  ]
}

/** Makes the service; files go to `directory/<uuid>.xlsx`, rows to `poi_batch_files`. */
export function createPoiBatchFilesService(deps: {
  database: DatabaseHandle
  clock: Clock
  directory: string
  templates: BatchTemplateSource
  fileReader: PoiBatchFileReader
}): PoiBatchFilesService {
  const { database, clock, directory, templates, fileReader } = deps
  return {
    async buildTemplateFile(caller, templateId, language) {
      const template = await templates.templateForBatch(caller, templateId)
      const bytes = await buildPoiBatchWorkbook({
        templateName: template.name,
        columns: batchColumnsOf(template.attributes),
        language,
      })
      return { fileName: `${template.code || template.name}-poi-batch.xlsx`, bytes }
    },

    async acceptFilledFile(caller, templateId, upload) {
      const template = await templates.templateForBatch(caller, templateId)
      const content = await fileReader.read(caller.id, {
        bytes: upload.bytes,
        columns: batchColumnsOf(template.attributes),
        // a stored file is the workbook the batch add reads later
        format: 'xlsx',
      })
      const id = randomUUID()
      await mkdir(directory, { recursive: true })
      const staging = join(directory, `.staging-${id}`)
      const target = join(directory, `${id}.xlsx`)
      try {
        await writeFile(staging, upload.bytes)
        await rename(staging, target)
        await database.db
          .insertInto('poi_batch_files')
          .values({
            id,
            owner_id: caller.id,
            template_id: templateId,
            file_name: upload.fileName.slice(0, 255),
            size_bytes: upload.bytes.byteLength,
            row_count: content.rowCount,
            created_at: timestampOf(clock.nowMs()),
          })
          .execute()
      } catch (error) {
        await rm(staging, { force: true })
        await rm(target, { force: true })
        throw error
      }
      return {
        uuid: id,
        pid: templateId,
        fileName: upload.fileName.slice(0, 255),
        rowCount: content.rowCount,
        columns: content.columns,
      }
    },
  }
}
