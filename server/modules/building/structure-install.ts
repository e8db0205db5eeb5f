import type { ModelInfoDatum, StructureManifest } from '../../../contract/building'
import type { SbmInfo } from '../../../workers/sbm/sbm-info'
import type { AuthUser } from '../accounts/users.service'
import { recordFileReplacement } from '../orders/file-replacements'
import { type BuildingContext, fileColumnsOf } from './building-context'
import { structureFileUrl } from './building-views'

/** One checked SBM of a structure to install, with its thumbnail. */
export interface StructureModel {
  fileName: string
  bytes: Uint8Array
  info: SbmInfo
  preview: Uint8Array | null
}

/** Installing a whole structure (made by the structure merge) into a building project. */
export interface StructureInstall {
  /**
   * Stores the SBMs and the manifest and, in one transaction under the project's lock, adds or
   * replaces the models by file name, their floors by the manifest's floor ids, the shell and
   * the project's `shell_json_path`: the project opens the structure as it is, or is unchanged.
   */
  installStructure(
    user: AuthUser,
    projectId: string,
    structure: { manifest: StructureManifest; models: StructureModel[] },
  ): Promise<ModelInfoDatum['structure']>
}

/** Builds the structure install over the shared context. */
export function createStructureInstall(context: BuildingContext): StructureInstall {
  const { repository, storage } = context
  return {
    async installStructure(user, projectId, { manifest, models }) {
      const project = await context.loadOwnedProject(user, projectId)
      const incoming: string[] = []
      const stored: Array<{ model: StructureModel; sha256: string; previewSha256: string | null }> =
        []
      return context.withCleanup(incoming, async () => {
        for (const model of models) {
          const put = await storage.put(model.bytes)
          incoming.push(put.sha256)
          const previewSha256 = await context.storePreview(model.preview)
          if (previewSha256) incoming.push(previewSha256)
          stored.push({ model, sha256: put.sha256, previewSha256 })
        }
        const manifestBytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2))
        const manifestFile = await storage.put(manifestBytes)
        incoming.push(manifestFile.sha256)
        const replaced: string[] = []
        await context.writeInProject(user, projectId, async (handle, transaction, timestamp) => {
          const floorIds = new Map<string, string>()
          for (const [index, floor] of manifest.floors.entries()) {
            const id = await context.upsertFloorByKey(
              handle,
              projectId,
              { key: floor.id, name: floor.name, elevation: floor.elevation, sortOrder: index },
              timestamp,
            )
            if (floor.model) floorIds.set(floor.model, id)
          }
          // an earlier shell of the project stays as a plain model
          for (const model of await handle.listModels(projectId)) {
            if (model.role === 'shell' && model.file_name !== manifest.shell?.model) {
              await handle.updateModel(model.id, { role: 'model', updated_at: timestamp })
            }
          }
          for (const { model, sha256, previewSha256 } of stored) {
            const columns = fileColumnsOf(model.info, sha256, model.bytes.byteLength, previewSha256)
            const isShell = model.fileName === manifest.shell?.model
            const role = isShell ? 'shell' : 'floor'
            const floorId = isShell ? null : (floorIds.get(model.fileName) ?? null)
            const existing = await handle.findModelByFileName(projectId, model.fileName)
            if (!existing) {
              await context.insertModel(
                handle,
                { projectId, fileName: model.fileName, role, floorId, columns },
                timestamp,
              )
              continue
            }
            if (existing.sha256 !== sha256) {
              replaced.push(existing.sha256)
              await recordFileReplacement(transaction, {
                projectId,
                area: 'model',
                recordId: existing.id,
                recordCreatedAt: existing.created_at,
                previousSizeBytes: Number(existing.size_bytes),
                sizeBytes: model.bytes.byteLength,
                at: timestamp,
              })
            }
            if (existing.preview_sha256 && existing.preview_sha256 !== previewSha256) {
              replaced.push(existing.preview_sha256)
            }
            await handle.updateModel(existing.id, {
              ...columns,
              role,
              floor_id: floorId,
              updated_at: timestamp,
            })
          }
          const replacedManifest = await handle.saveStructure({
            project_id: projectId,
            sha256: manifestFile.sha256,
            name: manifest.name,
            manifest_json: JSON.stringify(manifest),
            created_at: timestamp,
            updated_at: timestamp,
          })
          if (replacedManifest !== undefined && replacedManifest !== manifestFile.sha256) {
            replaced.push(replacedManifest)
          }
          await context.projectsOf(transaction).update(projectId, {
            shell_json_path: structureFileUrl(projectId, manifestFile.sha256),
            updated_at: timestamp,
          })
        })
        await context.releaseUnused(replaced)
        return context.structureOf(repository, projectId, project.name)
      })
    },
  }
}
