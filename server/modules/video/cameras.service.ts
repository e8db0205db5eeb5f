import { type Camera, readStreamUrl, streamUrlProperty } from '../../../contract/video'
import type { DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'

/**
 * A project's cameras (issue 17 §8, contract/video.ts): its POIs with a `stream_url` custom
 * property, each with what the browser plays or the §8 reason it cannot.
 */
export interface CamerasService {
  list(caller: ProjectCaller, projectId: string): Promise<Camera[]>
}

/** Builds the service. */
export function createCamerasService(dependencies: {
  database: DatabaseHandle
  access: ProjectAccess
}): CamerasService {
  const { database, access } = dependencies
  return {
    async list(caller, projectId) {
      await access.requireReadable(caller, projectId)
      const rows = await database.db
        .selectFrom('pois')
        .innerJoin('poi_custom_properties as custom', 'custom.poi_id', 'pois.id')
        .select(['pois.id', 'pois.name', 'pois.devicecode', 'custom.column_value'])
        .where('pois.project_id', '=', projectId)
        .where('custom.property_column', '=', streamUrlProperty)
        .orderBy('pois.name')
        .orderBy('pois.id')
        .execute()
      return rows.map((row) => {
        const read = readStreamUrl(row.column_value)
        return {
          poi_id: row.id,
          name: row.name,
          devicecode: row.devicecode,
          stream_url: row.column_value,
          play: read.source,
          problem: read.problem,
        }
      })
    },
  }
}
