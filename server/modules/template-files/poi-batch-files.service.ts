import { randomUUID } from 'node:crypto'
import type { UploadPoiTemplateDatum } from '../../../contract/template-files'
import type { DatabaseHandle } from '../../plugins/db'
import type { NamedFiles } from '../../plugins/storage'
import type { SweepTask } from '../files/folder-sweeper'
import { storeSweep } from '../files/store-sweep'
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
  /** What the sweeper removes: stored files no row names (a write cut short before its row). */
  sweepTask(): SweepTask
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

/** The name of a stored filled file in the store's poi-batch-files area. */
export function poiBatchFileName(id: string): string {
  return `${id}.xlsx`
}

/** A stored file, or the staging file earlier versions wrote first (folder only). */
const storedNamePattern =
  /^(\.staging-)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.xlsx)?$/
/** A file is stored just before its row: a younger one may be a live upload's. */
const unreferencedMinimumAgeMs = 3_600_000

/**
 * Makes the service; files go to the store's poi-batch-files area as `<uuid>.xlsx`
 * (DATA_DIR/poi-batch-files on a folder, as before, or the bucket), rows to `poi_batch_files`.
 */
export function createPoiBatchFilesService(deps: {
  database: DatabaseHandle
  clock: Clock
  files: NamedFiles
  templates: BatchTemplateSource
  fileReader: PoiBatchFileReader
}): PoiBatchFilesService {
  const { database, clock, files, templates, fileReader } = deps
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
      // read only once its row names it, which is written after it
      await files.write(poiBatchFileName(id), upload.bytes)
      try {
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
        // the row's failure is the answer; a file left behind goes at the sweep
        await files.remove(poiBatchFileName(id)).catch(() => undefined)
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

    sweepTask: () =>
      storeSweep(
        {
          label: 'filled batch-POI files no row names',
          entryOf: (name) => storedNamePattern.exec(name)?.[2],
          // anything but the stored name: the staging files of earlier versions on a folder
          isUnfinished: (name) => name !== poiBatchFileName(storedNamePattern.exec(name)![2]!),
          minimumAgeMs: unreferencedMinimumAgeMs,
          isCrashLeftover: true,
          async keep(ids) {
            const rows = await database.db
              .selectFrom('poi_batch_files')
              .select('id')
              .where('id', 'in', ids)
              .execute()
            return new Set(rows.map((row) => row.id))
          },
        },
        files,
      ),
  }
}
