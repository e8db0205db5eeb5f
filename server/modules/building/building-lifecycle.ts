import { randomUUID } from 'node:crypto'
import type { ProjectLifecycleHook } from '../projects/projects.service'
import { createBuildingRepository } from './building.repository'
import type { BuildingContext } from './building-context'
import { structureFileUrl } from './building-views'

/** What a project's copy or delete does to its models, floors and manifest. */
export interface BuildingLifecycle {
  /** Waits for the byte clean-up scheduled by project deletes (tests, shutdown). */
  settleReleases(): Promise<void>
  /** Copies and deletes a project's models, floors and manifest with the project. */
  lifecycleHook: ProjectLifecycleHook
}

/** Builds the project lifecycle hook of the building area over the shared context. */
export function createBuildingLifecycle(context: BuildingContext): BuildingLifecycle {
  let pendingReleases: Promise<void> = Promise.resolve()
  return {
    settleReleases: () => pendingReleases,
    lifecycleHook: {
      async onCopy(transaction, fromProjectId, toProjectId) {
        const handle = createBuildingRepository(transaction)
        const timestamp = context.now()
        const copied = { project_id: toProjectId, created_at: timestamp, updated_at: timestamp }
        const floorIds = new Map<string, string>()
        for (const floor of await handle.listFloors(fromProjectId)) {
          const id = randomUUID()
          floorIds.set(floor.id, id)
          await handle.insertFloor({ ...floor, ...copied, id })
        }
        // the copies share the bytes: each row counts as a reference to its sha256
        for (const model of await handle.listModels(fromProjectId)) {
          await handle.insertModel({
            ...model,
            ...copied,
            id: randomUUID(),
            floor_id: model.floor_id === null ? null : (floorIds.get(model.floor_id) ?? null),
          })
        }
        const structure = await handle.findStructure(fromProjectId)
        if (structure) {
          await handle.saveStructure({ ...structure, ...copied })
          await context.projectsOf(transaction).update(toProjectId, {
            shell_json_path: structureFileUrl(toProjectId, structure.sha256),
          })
        }
      },
      async onDelete(transaction, projectId) {
        const sha256s = await createBuildingRepository(transaction).deleteProjectRows(projectId)
        if (sha256s.length === 0) return
        // The bytes may go only once the delete has committed: a check made earlier (on
        // PostgreSQL, from another connection) still sees the rows and keeps the bytes for good.
        // The check re-reads the rows, so bytes another project shares stay.
        return () => {
          pendingReleases = pendingReleases.then(() =>
            context.releaseUnused(sha256s).then(
              () => undefined,
              () => undefined,
            ),
          )
        }
      },
    },
  }
}
