import { randomUUID } from 'node:crypto'
import type { ModelInfoDatum, StructureManifest } from '../../../contract/building'
import { AppError } from '../../http/app-error'
import type { Database } from '../../plugins/db'
import type { AuthUser } from '../accounts/users.service'
import { recordFileReplacement } from '../orders/file-replacements'
import type { BuildingRepository } from './building.repository'
import { type BuildingContext, fileColumnsOf } from './building-context'
import { baseNameOf, structureFileUrl } from './building-views'
import type { StructureModel } from './structure-install'

/** What a structure add saves: a new shell and floor models, each checked and converted. */
export interface StructureExtension {
  /** The new shell, or null to keep the shell. */
  shell: StructureModel | null
  /** Floors to add, or whose floor model to replace (matched by name, case aside). */
  floors: Array<{ name: string; elevation: number; model: StructureModel }>
}

/** Adding floors to, or replacing the shell of, a project's structure. */
export interface StructureExtend {
  /**
   * Stores the SBMs, then in one transaction under the project's lock: each floor named like
   * an existing floor gets the new file on its floor model (the model keeps its id, so its
   * details and material assignments stay), other floors are added; a new shell replaces the
   * shell's file the same way. The manifest is written again from the rows. All or nothing.
   */
  extendStructure(
    user: AuthUser,
    projectId: string,
    extension: StructureExtension,
  ): Promise<ModelInfoDatum['structure']>
}

const sameName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) === 0

/** Builds the structure extension over the shared context. */
export function createStructureExtend(context: BuildingContext): StructureExtend {
  const { repository, storage } = context

  /** Puts a new file on an existing model row, or a new row when there is none to reuse. */
  const placeModel = async (
    handle: BuildingRepository,
    transaction: Database,
    target: { projectId: string; existingId: string | null; role: 'shell' | 'floor' },
    stored: { model: StructureModel; sha256: string; previewSha256: string | null },
    floorId: string | null,
    replaced: string[],
    timestamp: string,
  ) => {
    const { model, sha256, previewSha256 } = stored
    const columns = fileColumnsOf(model.info, sha256, model.bytes.byteLength, previewSha256)
    const sameFile = await handle.findModelByFileName(target.projectId, model.fileName)
    const existingId = target.existingId ?? sameFile?.id ?? null
    if (existingId === null) {
      await context.insertModel(
        handle,
        {
          projectId: target.projectId,
          fileName: model.fileName,
          role: target.role,
          floorId,
          columns,
        },
        timestamp,
      )
      return
    }
    if (sameFile && sameFile.id !== existingId) {
      // the plan gave a free name; another model took it since (a concurrent change)
      throw new AppError('conflict', 'error.conflict')
    }
    const existing = await handle.findModel(existingId)
    if (existing && existing.sha256 !== sha256) {
      replaced.push(existing.sha256)
      // update traffic (orders/metering.ts): the model's new file replaced its earlier one
      await recordFileReplacement(transaction, {
        projectId: target.projectId,
        area: 'model',
        recordId: existingId,
        recordCreatedAt: existing.created_at,
        previousSizeBytes: Number(existing.size_bytes),
        sizeBytes: model.bytes.byteLength,
        at: timestamp,
      })
    }
    if (existing?.preview_sha256 && existing.preview_sha256 !== previewSha256) {
      replaced.push(existing.preview_sha256)
    }
    await handle.updateModel(existingId, {
      ...columns,
      file_name: model.fileName,
      name: baseNameOf(model.fileName),
      role: target.role,
      floor_id: floorId,
      updated_at: timestamp,
    })
  }

  return {
    async extendStructure(user, projectId, { shell, floors }) {
      const project = await context.loadOwnedProject(user, projectId)
      const incoming: string[] = []
      const store = async (model: StructureModel) => {
        const put = await storage.put(model.bytes)
        incoming.push(put.sha256)
        const previewSha256 = await context.storePreview(model.preview)
        if (previewSha256) incoming.push(previewSha256)
        return { model, sha256: put.sha256, previewSha256 }
      }
      return context.withCleanup(incoming, async () => {
        const storedShell = shell ? await store(shell) : null
        const storedFloors: Array<
          StructureExtension['floors'][number] & { stored: Awaited<ReturnType<typeof store>> }
        > = []
        for (const floor of floors) {
          storedFloors.push({ ...floor, stored: await store(floor.model) })
        }
        const replaced: string[] = []
        await context.writeInProject(user, projectId, async (handle, transaction, timestamp) => {
          for (const floor of storedFloors) {
            const rows = await handle.listFloors(projectId)
            let row = rows.find((candidate) => sameName(candidate.name, floor.name))
            if (!row) {
              const keyTaken = await handle.findFloorByKey(projectId, floor.name)
              const id = randomUUID()
              await handle.insertFloor({
                id,
                project_id: projectId,
                name: floor.name,
                elevation: floor.elevation,
                sort_order: 0,
                floor_key: keyTaken ? null : floor.name,
                created_at: timestamp,
                updated_at: timestamp,
              })
              row = await handle.findFloor(id)
            }
            const floorId = row!.id
            const floorModels = (await handle.listModels(projectId)).filter(
              (model) => model.floor_id === floorId && model.role === 'floor',
            )
            // one floor model per floor: extra ones stay on the floor as plain models
            for (const extra of floorModels.slice(1)) {
              await handle.updateModel(extra.id, { role: 'model', updated_at: timestamp })
            }
            await placeModel(
              handle,
              transaction,
              { projectId, existingId: floorModels[0]?.id ?? null, role: 'floor' },
              floor.stored,
              floorId,
              replaced,
              timestamp,
            )
          }
          if (storedShell) {
            const shells = (await handle.listModels(projectId)).filter(
              (model) => model.role === 'shell',
            )
            for (const extra of shells.slice(1)) {
              await handle.updateModel(extra.id, { role: 'model', updated_at: timestamp })
            }
            await placeModel(
              handle,
              transaction,
              { projectId, existingId: shells[0]?.id ?? null, role: 'shell' },
              storedShell,
              null,
              replaced,
              timestamp,
            )
          }
          // the scene stacks floors by sort order: bottom-up by elevation, ties as they were
          const ordered = [...(await handle.listFloors(projectId))].sort(
            (a, b) => a.elevation - b.elevation || a.sort_order - b.sort_order,
          )
          for (const [index, floor] of ordered.entries()) {
            if (floor.sort_order !== index) {
              await handle.updateFloor(floor.id, { sort_order: index, updated_at: timestamp })
            }
          }
          // the manifest follows the rows, so a download of it opens the same building
          const models = await handle.listModels(projectId)
          const before = await handle.findStructure(projectId)
          const previous = before ? (JSON.parse(before.manifest_json) as StructureManifest) : null
          const manifest: StructureManifest = {
            version: 1,
            kind: 'building',
            name: before?.name ?? project.name,
            shell: (() => {
              const row = models.find((model) => model.role === 'shell')
              return row ? { model: row.file_name } : null
            })(),
            floors: ordered.map((floor) => ({
              id: floor.floor_key ?? floor.id,
              name: floor.name,
              elevation: floor.elevation,
              model:
                models.find((model) => model.floor_id === floor.id && model.role === 'floor')
                  ?.file_name ?? null,
              maps: previous?.floors.find((entry) => entry.name === floor.name)?.maps ?? [],
            })),
            preview: previous?.preview ?? null,
          }
          const manifestFile = await storage.put(
            new TextEncoder().encode(JSON.stringify(manifest, null, 2)),
          )
          incoming.push(manifestFile.sha256)
          const replacedManifest = await handle.saveStructure({
            project_id: projectId,
            sha256: manifestFile.sha256,
            name: manifest.name,
            manifest_json: JSON.stringify(manifest),
            created_at: before?.created_at ?? timestamp,
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
