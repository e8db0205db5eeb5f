import type { BuildingModelRole, StructureUploadDatum } from '../../../contract/building'
import { AppError, fieldDetail } from '../../http/app-error'
import type { AuthUser } from '../accounts/users.service'
import { type BuildingContext, fileColumnsOf, type IncomingFile } from './building-context'
import { extensionOf, structureFileUrl } from './building-views'
import { displayNameOf } from './model-files'
import { readStructureManifest } from './structure-manifest'

/** The shell upload (`configModelFileStructureReturnUrl`) of the building service. */
export interface StructureUploads {
  /** One structure manifest, or one model that becomes the project's shell. */
  uploadStructure(
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<StructureUploadDatum>
}

/** The refusal of a shell upload that is not exactly one file or model. */
function oneShellModelError(
  problem: 'validation.exactlyOneModel' | 'validation.exactlyOneFile',
): AppError {
  return new AppError(
    'validation',
    'building.oneShellModel',
    {},
    {
      details: [fieldDetail('file', problem)],
    },
  )
}

/** Builds the shell and structure uploads over the shared context. */
export function createStructureUploads(context: BuildingContext): StructureUploads {
  const { repository, storage } = context

  /**
   * The shell upload given a model instead of a structure manifest: it becomes the project's
   * shell (converted first when it is not an SBM); a shell before it stays as a plain model.
   */
  const uploadShellModel = async (
    user: AuthUser,
    projectId: string,
    files: IncomingFile[],
  ): Promise<StructureUploadDatum> => {
    const project = await context.loadOwnedProject(user, projectId)
    const sbms = await context.sbmsOfFiles(user.id, files, 'shell')
    if (sbms.length !== 1) throw oneShellModelError('validation.exactlyOneModel')
    const sbm = sbms[0]!
    const stored = await storage.put(sbm.bytes)
    const previewSha256 = await context.storePreview(sbm.preview)
    const columns = fileColumnsOf(sbm.info, stored.sha256, sbm.bytes.byteLength, previewSha256)
    const replaced: string[] = []
    const incoming = [stored.sha256, ...(previewSha256 ? [previewSha256] : [])]
    const shellId = await context.withCleanup(incoming, () =>
      context.writeInProject(user, projectId, async (handle, _transaction, timestamp) => {
        for (const model of await handle.listModels(projectId)) {
          if (model.role === 'shell' && model.file_name !== sbm.fileName) {
            await handle.updateModel(model.id, { role: 'model', updated_at: timestamp })
          }
        }
        const existing = await handle.findModelByFileName(projectId, sbm.fileName)
        if (!existing) {
          return context.insertModel(
            handle,
            { projectId, fileName: sbm.fileName, role: 'shell', floorId: null, columns },
            timestamp,
          )
        }
        if (existing.sha256 !== stored.sha256) replaced.push(existing.sha256)
        if (existing.preview_sha256) replaced.push(existing.preview_sha256)
        await handle.updateModel(existing.id, {
          ...columns,
          role: 'shell',
          floor_id: null,
          updated_at: timestamp,
        })
        return existing.id
      }),
    )
    await context.releaseUnused([...files.map((file) => file.sha256), ...replaced])
    const shell = await repository.findModel(shellId)
    return {
      url: shell ? context.toModel(shell).url : '',
      structure: await context.structureOf(repository, projectId, project.name),
      missingModels: [],
    }
  }

  return {
    async uploadStructure(user, projectId, files) {
      return context.withCleanup(
        files.map((file) => file.sha256),
        async () => {
          const project = await context.loadOwnedProject(user, projectId)
          context.requireFiles(files)
          const isManifest = files.some((file) => extensionOf(file.fileName) === 'json')
          if (!isManifest) return uploadShellModel(user, projectId, files)
          if (files.length > 1) throw oneShellModelError('validation.exactlyOneFile')
          const file = files[0]!
          const name = displayNameOf(file.fileName)
          if (extensionOf(name) !== 'json') return uploadShellModel(user, projectId, files)
          const manifest = await readStructureManifest({ name, sizeBytes: file.sizeBytes }, () =>
            context.readStored(file.sha256),
          )
          const url = structureFileUrl(projectId, file.sha256)
          const missing = new Set<string>()
          const replaced = await context.writeInProject(
            user,
            projectId,
            async (handle, transaction, timestamp) => {
              const replacedManifest = await handle.saveStructure({
                project_id: projectId,
                sha256: file.sha256,
                name: manifest.name,
                manifest_json: JSON.stringify(manifest),
                created_at: timestamp,
                updated_at: timestamp,
              })
              const link = async (
                fileName: string,
                changes: { role: BuildingModelRole; floor_id: string | null },
              ) => {
                const model = await handle.findModelByFileName(projectId, fileName)
                if (!model) {
                  missing.add(fileName)
                  return
                }
                await handle.updateModel(model.id, { ...changes, updated_at: timestamp })
              }
              for (const [index, floor] of manifest.floors.entries()) {
                const floorId = await context.upsertFloorByKey(
                  handle,
                  projectId,
                  { key: floor.id, name: floor.name, elevation: floor.elevation, sortOrder: index },
                  timestamp,
                )
                if (floor.model) await link(floor.model, { role: 'floor', floor_id: floorId })
              }
              if (manifest.shell) {
                const shell = await handle.findModelByFileName(projectId, manifest.shell.model)
                if (!shell) missing.add(manifest.shell.model)
                // a shell that is also a floor's model keeps its floor
                else await handle.updateModel(shell.id, { role: 'shell', updated_at: timestamp })
              }
              await context.projectsOf(transaction).update(projectId, {
                shell_json_path: url,
                updated_at: timestamp,
              })
              return replacedManifest
            },
          )
          if (replaced !== undefined && replaced !== file.sha256) {
            await context.releaseUnused([replaced])
          }
          return {
            url: context.grantedStructureUrl(projectId, file.sha256),
            structure: await context.structureOf(repository, projectId, project.name),
            missingModels: [...missing],
          }
        },
      )
    },
  }
}
