import { randomUUID } from 'node:crypto'
import type { BuildingModel, BuildingModelRole, FloorUploadDatum } from '../../../contract/building'
import { AppError, fieldError } from '../../http/app-error'
import type { AuthUser } from '../accounts/users.service'
import { recordFileReplacement } from '../orders/file-replacements'
import { type BuildingContext, fileColumnsOf, type IncomingFile } from './building-context'
import { baseNameOf, extensionOf, toBuildingFloor } from './building-views'
import { displayNameOf, inspectSbm } from './model-files'

/** The model-file uploads of the building service: floors, and one model's new file. */
export interface FloorUploads {
  /** The floor upload (`uploadZip`): many SBMs or one ZIP of SBMs. */
  uploadFloorModels(
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<FloorUploadDatum>
  /** `uploadandupdatemodel`: a model's new SBM file. */
  replaceModelFile(user: AuthUser, modelId: string, files: IncomingFile[]): Promise<BuildingModel>
}

/** Builds the floor and model-file uploads over the shared context. */
export function createFloorUploads(context: BuildingContext): FloorUploads {
  const { repository, storage } = context
  return {
    async uploadFloorModels(user, projectId, files) {
      const incoming = files.map((file) => file.sha256)
      return context.withCleanup(incoming, async () => {
        await context.loadOwnedProject(user, projectId)
        context.requireFiles(files)
        const sbms = await context.sbmsOfFiles(user.id, files, 'floor')
        // converted models and ZIP entries are stored one by one (an SBM part stores as itself)
        const stored: string[] = []
        const previews: Array<string | null> = []
        for (const sbm of sbms) {
          const put = await storage.put(sbm.bytes)
          incoming.push(put.sha256)
          stored.push(put.sha256)
          const preview = await context.storePreview(sbm.preview)
          if (preview) incoming.push(preview)
          previews.push(preview)
        }
        const replaced: string[] = []
        const changedModelIds: string[] = []
        await context.writeInProject(user, projectId, async (handle, transaction, timestamp) => {
          for (const [index, sbm] of sbms.entries()) {
            let floorId: string | null = null
            for (const floor of sbm.info.floors) {
              const id = await context.upsertFloorByKey(
                handle,
                projectId,
                { key: floor.id, name: floor.name, elevation: floor.elevationMeters },
                timestamp,
              )
              floorId ??= id
            }
            const role: BuildingModelRole = sbm.info.role === 'shell' ? 'shell' : 'floor'
            const columns = fileColumnsOf(
              sbm.info,
              stored[index]!,
              sbm.bytes.byteLength,
              previews[index] ?? null,
            )
            const existing = await handle.findModelByFileName(projectId, sbm.fileName)
            if (existing) {
              if (existing.sha256 !== columns.sha256) {
                replaced.push(existing.sha256)
                await recordFileReplacement(transaction, {
                  projectId,
                  area: 'model',
                  recordId: existing.id,
                  recordCreatedAt: existing.created_at,
                  previousSizeBytes: Number(existing.size_bytes),
                  sizeBytes: sbm.bytes.byteLength,
                  at: timestamp,
                })
              }
              if (existing.preview_sha256) replaced.push(existing.preview_sha256)
              // a new file for a model keeps the role the structure gave it
              await handle.updateModel(existing.id, {
                ...columns,
                ...(floorId === null ? {} : { floor_id: floorId }),
                updated_at: timestamp,
              })
              changedModelIds.push(existing.id)
              continue
            }
            if (floorId === null && role === 'floor') {
              floorId = randomUUID()
              await handle.insertFloor({
                id: floorId,
                project_id: projectId,
                name: baseNameOf(sbm.fileName),
                // stacked, so plain models dropped together do not overlap; the UI can change it
                elevation: await context.nextElevation(handle, projectId),
                sort_order: await context.nextSortOrder(handle, projectId),
                floor_key: null,
                created_at: timestamp,
                updated_at: timestamp,
              })
            }
            const model = { projectId, fileName: sbm.fileName, role, floorId, columns }
            changedModelIds.push(await context.insertModel(handle, model, timestamp))
          }
        })
        // the ZIP itself (if any) and replaced files are no longer used by anything
        await context.releaseUnused([...incoming, ...replaced])
        const models = await repository.listModels(projectId)
        return {
          models: changedModelIds.flatMap((id) => {
            const row = models.find((model) => model.id === id)
            return row ? [context.toModel(row)] : []
          }),
          floors: (await repository.listFloors(projectId)).map(toBuildingFloor),
        }
      })
    },

    async replaceModelFile(user, modelId, files) {
      const incoming = files.map((file) => file.sha256)
      return context.withCleanup(incoming, async () => {
        const { model } = await context.loadOwnedModel(user, modelId)
        context.requireFiles(files)
        if (files.length > 1) {
          throw fieldError('validation', 'file', 'model.oneSbmToReplace')
        }
        const file = files[0]!
        const name = displayNameOf(file.fileName)
        const sbm = inspectSbm(name, await context.readStored(file.sha256))
        if (extensionOf(name) !== 'sbm') {
          throw new AppError(
            'unsupportedFile',
            'model.notValidSbm',
            {},
            { details: [{ file: name, reason: 'the file name does not end in .sbm' }] },
          )
        }
        // the old thumbnail showed the old file; a busy queue leaves the model without one
        const previewSha256 = await context.storePreview(
          await context.conversions.previewForUser(user.id, sbm.bytes).catch(() => null),
        )
        if (previewSha256) incoming.push(previewSha256)
        await context.writeInProject(
          user,
          model.project_id,
          async (handle, transaction, timestamp) => {
            const current = await handle.findModel(model.id)
            if (!current) throw new AppError('notFound', 'model.notFound')
            if (current.sha256 !== file.sha256) {
              await recordFileReplacement(transaction, {
                projectId: model.project_id,
                area: 'model',
                recordId: model.id,
                recordCreatedAt: current.created_at,
                previousSizeBytes: Number(current.size_bytes),
                sizeBytes: sbm.bytes.byteLength,
                at: timestamp,
              })
            }
            await handle.updateModel(model.id, {
              ...fileColumnsOf(sbm.info, file.sha256, sbm.bytes.byteLength, previewSha256),
              updated_at: timestamp,
            })
          },
        )
        await context.releaseUnused([
          ...(model.sha256 === file.sha256 ? [] : [model.sha256]),
          ...(model.preview_sha256 ? [model.preview_sha256] : []),
        ])
        return context.reloadModel(model.id)
      })
    },
  }
}
