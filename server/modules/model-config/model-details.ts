import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  type addModelDetailBodySchema,
  type ModelDetail,
  type ModelDocument,
  modelDocumentFilesRoot,
  modelDocumentMaxPerDetail,
  type updateModelDetailBodySchema,
} from '../../../contract/model-config'
import { AppError, fieldError } from '../../http/app-error'
import type { UploadedFile } from '../../http/define-route'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { FileStorage, ServedStoredFile } from '../../plugins/storage'
import type { ProjectAccess } from '../access/project-access'
import { signedInReader } from '../access/project-access'
import type { AuthUser } from '../accounts/users.service'
import { createBuildingRepository } from '../building/building.repository'
import { readAll } from '../building/model-files'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { type Clock, timestampOf } from '../time/clock'
import { type CheckedDocument, checkDocument } from './model-document-files'

/** What the model details are made from. */
export interface ModelDetailsDependencies {
  database: DatabaseHandle
  storage: FileStorage
  clock: Clock
  access: ProjectAccess
}

/** Who downloads a document: a grant from a details answer, or a signed-in caller. */
export type ModelDocumentReader = { grant: string } | { user: AuthUser }

/**
 * Per-model details of building projects (SPEC §7 `findCompanyAndModel`, `findModelInfoOne`,
 * `add|update|deleteModelDetail`): manufacturer, product, serial number, install date, a note,
 * and documents as attachments (their bytes in the file store, a row each in `model_documents`).
 * Only someone who may change the model's project reads or writes them; a model of another
 * user's project is not found. Details of a deleted model are never answered (reads join the
 * models); details and their documents go with the project.
 */
export interface ModelDetailsService {
  companiesAndModels(
    user: AuthUser,
    projectId: string,
  ): Promise<Array<{ company: string; models: ModelDetail[] }>>
  findOne(user: AuthUser, modelId: string): Promise<ModelDetail | null>
  add(user: AuthUser, input: z.output<typeof addModelDetailBodySchema>): Promise<ModelDetail>
  update(user: AuthUser, input: z.output<typeof updateModelDetailBodySchema>): Promise<ModelDetail>
  /** Deletes the details and their documents. */
  remove(user: AuthUser, id: string): Promise<void>
  /**
   * Attaches uploaded documents to the details, all or none: each is checked (name, content)
   * before any row is written. Answers the details with every document.
   */
  attachDocuments(
    user: AuthUser,
    detailId: string,
    files: readonly UploadedFile[],
  ): Promise<ModelDetail>
  /** Removes one document; answers the details with the rest. */
  removeDocument(user: AuthUser, id: string): Promise<ModelDetail>
  /** A document's bytes for `GET {modelDocumentFilesRoot}:id`. */
  openDocument(reader: ModelDocumentReader, id: string): Promise<ServedStoredFile>
  lifecycleHook: ProjectLifecycleHook
}

/** Code-point order of two texts. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The resource a document's grant covers. */
function grantResource(row: { id: string; sha256: string }): string {
  return `modelDocument:${row.id}:${row.sha256}`
}

/** Builds the model details service. */
export function createModelDetailsService(
  dependencies: ModelDetailsDependencies,
): ModelDetailsService {
  const { database, storage, clock, access } = dependencies
  const { db } = database
  const now = () => timestampOf(clock.nowMs())

  const selectDetails = (handle: Database) =>
    handle
      .selectFrom('model_details')
      .innerJoin('building_models', 'building_models.id', 'model_details.model_id')
      .select([
        'model_details.id',
        'model_details.model_id',
        'model_details.project_id',
        'building_models.name as model_name',
        'model_details.company',
        'model_details.product',
        'model_details.serial_number',
        'model_details.install_date',
        'model_details.description',
        'model_details.created_at',
        'model_details.updated_at',
      ])

  /** The details' documents, oldest first, each with a download address. */
  const documentsOf = async (handle: Database, detailIds: readonly string[]) => {
    const byDetail = new Map<string, ModelDocument[]>()
    if (detailIds.length === 0) return byDetail
    const rows = await handle
      .selectFrom('model_documents')
      .selectAll()
      .where('detail_id', 'in', detailIds)
      .execute()
    // oldest first; those of one upload (one timestamp) by name, in code-point order so both
    // databases answer the same order whatever their collation
    rows.sort((a, b) =>
      a.created_at === b.created_at
        ? compareText(a.file_name, b.file_name)
        : compareText(a.created_at, b.created_at),
    )
    for (const row of rows) {
      const document: ModelDocument = {
        id: row.id,
        detail_id: row.detail_id,
        file_name: row.file_name,
        content_type: row.content_type,
        size_bytes: Number(row.size_bytes),
        url: `${modelDocumentFilesRoot}${row.id}?grant=${access.fileGrant(grantResource(row), signedInReader)}`,
        created_at: row.created_at,
      }
      byDetail.set(row.detail_id, [...(byDetail.get(row.detail_id) ?? []), document])
    }
    return byDetail
  }

  /** Details rows as answered: each with its documents. */
  const withDocuments = async <Row extends { id: string }>(
    rows: readonly Row[],
  ): Promise<Array<Row & { documents: ModelDocument[] }>> => {
    const documents = await documentsOf(
      db,
      rows.map((row) => row.id),
    )
    return rows.map((row) => ({ ...row, documents: documents.get(row.id) ?? [] }))
  }

  /** Bytes no document, model, upload or library row names any more leave the store. */
  const releaseUnused = async (sha256s: Iterable<string>) => {
    const building = createBuildingRepository(db)
    for (const sha256 of new Set(sha256s)) {
      const row = await db
        .selectFrom('model_documents')
        .select('id')
        .where('sha256', '=', sha256)
        .executeTakeFirst()
      if (!row && !(await building.isContentUsed(sha256))) await storage.remove(sha256)
    }
  }

  /** The model, if the user may change its project; another user's model is not found. */
  const loadModel = async (user: AuthUser, modelId: string) => {
    const model = await db
      .selectFrom('building_models')
      .select(['id', 'project_id', 'name'])
      .where('id', '=', modelId)
      .executeTakeFirst()
    if (!model) throw new AppError('notFound', 'model.notFound')
    try {
      await access.requireEditable(user, model.project_id)
    } catch (error) {
      if (error instanceof AppError && error.kind === 'forbidden') {
        throw new AppError('notFound', 'model.notFound')
      }
      throw error
    }
    return model
  }

  const loadDetail = async (user: AuthUser, id: string) => {
    const detail = await selectDetails(db).where('model_details.id', '=', id).executeTakeFirst()
    if (!detail) throw new AppError('notFound', 'modelDetail.notFound')
    await loadModel(user, detail.model_id)
    return detail
  }

  /** The details as answered, with their documents. */
  const answerDetail = async (user: AuthUser, id: string): Promise<ModelDetail> => {
    const [detail] = await withDocuments([await loadDetail(user, id)])
    return detail!
  }

  /** Deletes documents' rows in a transaction; answers their bytes' hashes to release after. */
  const deleteDocumentRows = async (
    handle: Database,
    column: 'detail_id' | 'project_id' | 'id',
    value: string,
  ): Promise<string[]> => {
    const rows = await handle
      .selectFrom('model_documents')
      .select('sha256')
      .where(column, '=', value)
      .execute()
    await handle.deleteFrom('model_documents').where(column, '=', value).execute()
    return rows.map((row) => row.sha256)
  }

  return {
    async companiesAndModels(user, projectId) {
      await access.requireEditable(user, projectId)
      const details = await selectDetails(db)
        .where('model_details.project_id', '=', projectId)
        .orderBy('model_details.company')
        .orderBy('building_models.name')
        .execute()
      const groups = new Map<string, ModelDetail[]>()
      for (const detail of await withDocuments(details)) {
        groups.set(detail.company, [...(groups.get(detail.company) ?? []), detail])
      }
      return [...groups].map(([company, models]) => ({ company, models }))
    },

    async findOne(user, modelId) {
      await loadModel(user, modelId)
      const detail = await selectDetails(db)
        .where('model_details.model_id', '=', modelId)
        .executeTakeFirst()
      return detail ? ((await withDocuments([detail]))[0] ?? null) : null
    },

    async add(user, input) {
      const model = await loadModel(user, input.model_id)
      const id = randomUUID()
      const timestamp = now()
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, model.project_id)
        const existing = await transaction
          .selectFrom('model_details')
          .select('id')
          .where('model_id', '=', model.id)
          .executeTakeFirst()
        if (existing) throw new AppError('conflict', 'modelDetail.exists')
        await transaction
          .insertInto('model_details')
          .values({
            id,
            model_id: model.id,
            project_id: model.project_id,
            company: input.company,
            product: input.product,
            serial_number: input.serial_number,
            install_date: input.install_date,
            description: input.description,
            created_at: timestamp,
            updated_at: timestamp,
          })
          .execute()
      })
      return answerDetail(user, id)
    },

    async update(user, input) {
      const detail = await loadDetail(user, input.id)
      const { id, ...fields } = input
      const changes = Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      )
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, detail.project_id)
        await transaction
          .updateTable('model_details')
          .set({ ...changes, updated_at: now() })
          .where('id', '=', id)
          .execute()
      })
      return answerDetail(user, id)
    },

    async remove(user, id) {
      const detail = await loadDetail(user, id)
      const released = await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, detail.project_id)
        await transaction.deleteFrom('model_details').where('id', '=', id).execute()
        return deleteDocumentRows(transaction, 'detail_id', id)
      })
      await releaseUnused(released)
    },

    async attachDocuments(user, detailId, files) {
      try {
        const detail = await loadDetail(user, detailId)
        if (files.length === 0) throw fieldError('validation', 'file', 'validation.required')
        const checked: Array<CheckedDocument & { file: UploadedFile }> = []
        for (const file of files) {
          const bytes = await readAll(await storage.open(file.sha256))
          checked.push({ ...(await checkDocument(file.fileName, bytes)), file })
        }
        const names = checked.map((document) => document.fileName.toLowerCase())
        const twice = checked.find((_, index) => names.indexOf(names[index]!) !== index)
        if (twice)
          throw new AppError('conflict', 'modelDocument.nameTaken', { name: twice.fileName })
        const timestamp = now()
        await db.transaction().execute(async (transaction) => {
          // the lock keeps a delete of the project from running between the checks and the insert
          await access.lockEditable(transaction, user, detail.project_id)
          const existing = await transaction
            .selectFrom('model_documents')
            .select('file_name')
            .where('detail_id', '=', detailId)
            .execute()
          if (existing.length + checked.length > modelDocumentMaxPerDetail) {
            throw new AppError('conflict', 'modelDocument.tooMany', {
              max: modelDocumentMaxPerDetail,
            })
          }
          const taken = new Set(existing.map((row) => row.file_name.toLowerCase()))
          const clash = checked.find((document) => taken.has(document.fileName.toLowerCase()))
          if (clash) {
            throw new AppError('conflict', 'modelDocument.nameTaken', { name: clash.fileName })
          }
          // still there: a delete of the details in the meantime leaves nothing to attach to
          const current = await transaction
            .selectFrom('model_details')
            .select('id')
            .where('id', '=', detailId)
            .executeTakeFirst()
          if (!current) throw new AppError('notFound', 'modelDetail.notFound')
          await transaction
            .insertInto('model_documents')
            .values(
              checked.map((document) => ({
                id: randomUUID(),
                detail_id: detailId,
                project_id: detail.project_id,
                file_name: document.fileName,
                content_type: document.contentType,
                sha256: document.file.sha256,
                size_bytes: document.file.sizeBytes,
                created_at: timestamp,
              })),
            )
            .execute()
        })
        return await answerDetail(user, detailId)
      } finally {
        // everything of a refused upload, unless another row names the same bytes
        await releaseUnused(files.map((file) => file.sha256))
      }
    },

    async removeDocument(user, id) {
      const row = await db
        .selectFrom('model_documents')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'modelDocument.notFound')
      const detail = await loadDetail(user, row.detail_id)
      await db.transaction().execute(async (transaction) => {
        await access.lockEditable(transaction, user, detail.project_id)
        await deleteDocumentRows(transaction, 'id', id)
      })
      await releaseUnused([row.sha256])
      return answerDetail(user, detail.id)
    },

    async openDocument(reader, id) {
      const row = await db
        .selectFrom('model_documents')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('notFound', 'file.notFound')
      if ('grant' in reader) {
        if (!(await access.checkFileGrant(grantResource(row), reader.grant))) {
          throw new AppError('forbidden', 'file.grantRefused')
        }
      } else {
        await loadDetail(reader.user, row.detail_id)
      }
      return { sha256: row.sha256, contentType: row.content_type, downloadName: row.file_name }
    },

    lifecycleHook: {
      async onDelete(handle, projectId) {
        await handle.deleteFrom('model_details').where('project_id', '=', projectId).execute()
        const released = await deleteDocumentRows(handle, 'project_id', projectId)
        return () => {
          void releaseUnused(released).catch(() => {})
        }
      },
    },
  }
}
