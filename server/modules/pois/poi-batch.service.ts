import { buffer } from 'node:stream/consumers'
import type { BatchCreatePoiDatum } from '../../../contract/pois'
import type { PoiBatchRowError } from '../../../contract/template-files'
import { formatServerMessage } from '../../../contract/messages'
import { AppError } from '../../http/app-error'
import type { DatabaseHandle } from '../../plugins/db'
import type { NamedFiles } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { poiFieldColumns } from '../template-files/poi-batch-columns'
import type { PoiBatchRow } from '../template-files/poi-batch-file'
import type { PoiBatchFileReader } from '../template-files/poi-batch-file-job'
import { batchColumnsOf, poiBatchFileName } from '../template-files/poi-batch-files.service'
import { createBatchTemplateSource } from '../template-files/batch-template-source'
import { createEventLoopSlices, mapInSlices } from '../jobs/event-loop-slices'
import { type Clock, timestampOf } from '../time/clock'
import type { PoiProblem } from './poi-checks'
import { type CreateItem, createPois, lockProject, PoiProblems } from './poi-writes'

/**
 * Batch add (issue 16 item 5): a filled batch-POI file (the XLSX of the templates issue, or a
 * CSV with its header keys) creates its POIs of one template in one project, in one
 * transaction. Every cell is checked by the file's columns first, then every row as a POI of
 * the project (coordinates of its kind, floor, device codes): any problem refuses the whole
 * file with `{ row, column, messageId }` per cell, and nothing is created.
 */
export interface PoiBatchService {
  createFromFile(
    user: AuthUser,
    input: {
      projectId: string
      templateId: string
      file?: { fileName: string; bytes: Buffer }
      /** A file stored by `/poi/uploadPoiTemplate`. */
      uuid?: string
      isDryRun: boolean
    },
  ): Promise<BatchCreatePoiDatum>
}

/** Thrown inside the transaction of a dry run, so nothing it wrote stays. */
class DryRunDone extends Error {
  constructor(readonly count: number) {
    super('dry run')
  }
}

/** The POI fields a batch row may fill (its other columns are the template's attributes). */
const fieldKeys = new Set(poiFieldColumns.map((column) => column.key))

/** Builds the service; stored batch files are read from the store's poi-batch-files area. */
export function createPoiBatchService(dependencies: {
  database: DatabaseHandle
  clock: Clock
  access: ProjectAccess
  batchFiles: NamedFiles
  /** Reads and checks the file in a worker thread (a full sheet takes the CPU for a while). */
  fileReader: PoiBatchFileReader
}): PoiBatchService {
  const { database, access } = dependencies
  const { db } = database
  const templates = createBatchTemplateSource(db)

  const storedFile = async (user: AuthUser, uuid: string, templateId: string) => {
    const row = await db
      .selectFrom('poi_batch_files')
      .select(['id', 'owner_id', 'template_id', 'file_name'])
      .where('id', '=', uuid)
      .executeTakeFirst()
    if (!row || row.owner_id !== user.id || row.template_id !== templateId) {
      throw new AppError('notFound', 'poiBatch.fileNotFound')
    }
    // at most the upload limit (10 MB), read whole as the file reader takes it
    const bytes = await dependencies.batchFiles
      .open(poiBatchFileName(row.id))
      .then(buffer)
      .catch((error: unknown) => {
        if (error instanceof AppError && error.kind === 'notFound') {
          throw new AppError('notFound', 'poiBatch.fileNotFound')
        }
        throw error
      })
    return { fileName: row.file_name, bytes }
  }

  return {
    async createFromFile(user, input) {
      // the project first: a stranger learns nothing of the template or the file
      await access.requireEditable(user, input.projectId)
      const template = await templates.templateForBatch(user, input.templateId)
      const columns = batchColumnsOf(template.attributes)
      const file =
        input.file ??
        (input.uuid === undefined
          ? undefined
          : await storedFile(user, input.uuid, input.templateId))
      if (file === undefined) throw new AppError('validation', 'poiBatch.chooseFileOrCsv')
      const content = await dependencies.fileReader.read(user.id, {
        bytes: file.bytes,
        columns,
        keepRows: true,
      })
      const rows = content.rows ?? []
      const items = await mapInSlices(createEventLoopSlices(), rows, (row) =>
        itemOf(row, input.templateId),
      )

      try {
        return await db.transaction().execute(async (transaction) => {
          const project = await lockProject(transaction, access, user, input.projectId)
          const created = await createPois(transaction, user, project, items, {
            nowIso: timestampOf(dependencies.clock.nowMs()),
            isCopyProperties: false,
          })
          if (input.isDryRun) throw new DryRunDone(created.count)
          return {
            count: created.count,
            isDryRun: false,
            ids: created.list.map((poi) => poi.id),
          }
        })
      } catch (error) {
        if (error instanceof DryRunDone) return { count: error.count, isDryRun: true, ids: [] }
        if (error instanceof PoiProblems) throw rowErrors(error.problems, rows)
        throw error
      }
    },
  }
}

/** A checked row as a create item: its POI fields, and its attribute cells as custom values. */
function itemOf(row: PoiBatchRow, templateId: string): CreateItem {
  const number = (key: string) => {
    const text = row.values[key] ?? ''
    return text === '' ? undefined : Number(text)
  }
  const customs = Object.entries(row.values)
    // an empty attribute cell keeps the template's example value
    .filter(([key, value]) => !fieldKeys.has(key) && value !== '')
    .map(([key, value]) => ({ property_column: key, column_value: value }))
  return {
    name: row.values.name ?? '',
    category_id: templateId,
    x: number('x') ?? 0,
    y: number('y') ?? 0,
    z: number('z') ?? 0,
    heading: number('heading') ?? 0,
    pitch: number('pitch') ?? 0,
    roll: number('roll') ?? 0,
    floor_id: row.values.floor_id ?? '',
    pid: '',
    level: 0,
    state: '',
    orientation: '',
    pack: '',
    poiid: '',
    poiType: '',
    poi_style: '',
    view_type: '',
    cameraPs: '',
    cameraPss: '',
    devicecode: row.values.devicecode ?? '',
    distance_min: number('distance_min') ?? null,
    distance_max: number('distance_max') ?? null,
    event_code: '',
    event_image: '',
    gatecode: '',
    modelList: [],
    customs,
  }
}

/** The refusal of a batch whose rows break POI rules: each problem at its sheet row. */
function rowErrors(problems: readonly PoiProblem[], rows: readonly PoiBatchRow[]): AppError {
  const details: PoiBatchRowError[] = problems.slice(0, 100).map((problem) => {
    const row = rows[problem.index]?.row ?? 0
    // the template is the file's, not a column of it
    const column = problem.field === 'category_id' ? 'pid' : problem.field
    return {
      row,
      column,
      field: `${row}:${column}`,
      message: formatServerMessage(problem.message.id, problem.message.params),
      messageId: problem.message.id,
      params: problem.message.params,
    }
  })
  return new AppError('validation', 'poiBatch.rowErrors', { count: problems.length }, { details })
}
