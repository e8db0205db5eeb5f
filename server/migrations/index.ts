import { type Kysely, type Migration, Migrator } from 'kysely'
import type { Tables } from './tables'
import * as accounts from './0001-accounts'
import * as projects from './0002-projects'
import * as accountSecurity from './0003-account-security'
import * as buildingModels from './0004-building-models'
import * as uploadsAndGml from './0005-uploads-and-gml'
import * as city from './0006-city'
import * as poiTemplates from './0007-poi-templates'
import * as templateFiles from './0009-template-files'
import * as modelPreviews from './0010-model-previews'
import * as pois from './0011-pois'
import * as orders from './0012-orders'
import * as style from './0013-style'
import * as draw from './0014-draw'
import * as iot from './0015-iot'
import * as offlinePackages from './0016-offline-packages'
import * as captures from './0017-captures'
import * as tracking from './0018-tracking'
import * as fileReplacements from './0019-file-replacements'
import * as eventLinks from './0020-event-links'
import * as modelConfig from './0021-model-config'
import * as investigations from './0023-investigations'
import * as materials from './0024-materials'
import * as cases from './0025-cases'
import * as anchorsAndTours from './0026-anchors-and-tours'
import * as locationPoisAndPlacement from './0027-location-pois-and-placement'
import * as cityModels from './0028-city-models'
import * as libraryModelsInBuildings from './0030-library-models-in-buildings'
import * as contactChangeCodes from './0031-contact-change-codes'
import * as modelDocuments from './0032-model-documents'
import * as structureJobs from './0033-structure-jobs'
import * as offlinePackageJobs from './0035-offline-package-jobs'
import * as templateModelFolders from './0036-template-model-folders'
import * as serverKeys from './0037-server-keys'

/**
 * Every migration, imported in code (not read from a folder at run time) so the server runs the
 * same way from source, a bundle or a test. Names sort in order: add the next as '0002-…'.
 */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-projects': projects,
  '0003-account-security': accountSecurity,
  '0004-building-models': buildingModels,
  '0005-uploads-and-gml': uploadsAndGml,
  '0006-city': city,
  '0007-poi-templates': poiTemplates,
  '0009-template-files': templateFiles,
  '0010-model-previews': modelPreviews,
  '0011-pois': pois,
  '0012-orders': orders,
  '0013-style': style,
  '0014-draw': draw,
  '0015-iot': iot,
  '0016-offline-packages': offlinePackages,
  '0017-captures': captures,
  '0018-tracking': tracking,
  '0019-file-replacements': fileReplacements,
  '0020-event-links': eventLinks,
  '0021-model-config': modelConfig,
  '0023-investigations': investigations,
  '0024-materials': materials,
  '0025-cases': cases,
  '0026-anchors-and-tours': anchorsAndTours,
  '0027-location-pois-and-placement': locationPoisAndPlacement,
  '0028-city-models': cityModels,
  '0030-library-models-in-buildings': libraryModelsInBuildings,
  '0031-contact-change-codes': contactChangeCodes,
  '0032-model-documents': modelDocuments,
  '0033-structure-jobs': structureJobs,
  '0035-offline-package-jobs': offlinePackageJobs,
  '0036-template-model-folders': templateModelFolders,
  '0037-server-keys': serverKeys,
}

/**
 * Brings the schema to the latest migration; throws (and changes nothing more) on failure.
 * Pass the PostgreSQL schema when one is configured (`DatabaseHandle.schema`): Kysely looks for
 * its bookkeeping tables across all schemas otherwise, and finds another schema's.
 */
export async function migrateToLatest(
  db: Kysely<Tables>,
  options: { schema?: string | undefined } = {},
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Capabilities land in parallel, each with its own tables: a database that already ran a
    // later-numbered one (e.g. 0015) still takes an earlier one that landed after it (0012).
    allowUnorderedMigrations: true,
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${String(error)}`, {
      cause: error,
    })
  }
  return (results ?? []).map((result) => result.migrationName)
}
