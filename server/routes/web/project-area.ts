import type { FastifyInstance } from 'fastify'
import { createProjectAccess, type ProjectAccess } from '../../modules/access/project-access'
import { openUrlSigner, urlSigningKeyFile } from '../../modules/access/url-signer'
import { seedProjectCases } from '../../modules/projects/project-cases'
import { cityDirectories } from '../../modules/tilesets/served-files'
import { shippedGeocoderInstance } from '../../modules/geo/geocoder'
import {
  createFallbackGeocodingService,
  createNominatimGeocoder,
  type GeocodingService,
  offlineGeocodingService,
} from '../../modules/geo/online-geocoder'
import {
  createProjectsService,
  type ProjectLifecycleHook,
  type ProjectsService,
} from '../../modules/projects/projects.service'
import { shippedRegions } from '../../modules/geo/regions'
import { createUploadsService, type UploadsService } from '../../modules/projects/uploads.service'
import { appVersion } from '../../version'
import { registerGeoRoutes } from './geo'
import { registerProjectRoutes } from './project'
import { registerUploadRoutes } from './upload'

/** The services of the project area, made once per app. */
export interface ProjectArea {
  projects: ProjectsService
  uploads: UploadsService
  /** The map picker's search and reverse geocoding: online when configured, else offline. */
  geocoding: GeocodingService
  /**
   * Who may do what on a project, and the signing of file addresses: every area checks
   * project access and signs and checks its file addresses through this one module.
   */
  access: ProjectAccess
  /** What other areas do when a project is copied or deleted: they push their hook here. */
  lifecycleHooks: ProjectLifecycleHook[]
}

const areas = new WeakMap<FastifyInstance, ProjectArea>()

/**
 * The project area's services for an app. Other areas reach them here, e.g.
 * `projectAreaOf(app).projects.verifyProjectToken(token)` for project-scoped calls.
 */
export function projectAreaOf(app: FastifyInstance): ProjectArea {
  let area = areas.get(app)
  if (!area) {
    const { database, storage, clock, config } = app.deps
    const access = createProjectAccess({
      database,
      clock,
      signer: openUrlSigner(urlSigningKeyFile(config.dataDir)),
    })
    const uploads = createUploadsService({ database, storage, clock, access })
    // the service reads this array on every copy/delete, so hooks pushed later take part
    const lifecycleHooks: ProjectLifecycleHook[] = []
    area = {
      uploads,
      access,
      lifecycleHooks,
      projects: createProjectsService({
        database,
        uploads,
        clock,
        regions: shippedRegions,
        hooks: lifecycleHooks,
        access,
      }),
      geocoding: geocodingServiceFor(app, config.geocoderUrl, config.geocoderTimeoutMs),
    }
    areas.set(app, area)
  }
  return area
}

function geocodingServiceFor(
  app: FastifyInstance,
  geocoderUrl: string | undefined,
  timeoutMs: number,
): GeocodingService {
  const offline = offlineGeocodingService(shippedGeocoderInstance)
  if (geocoderUrl === undefined) return offline
  return createFallbackGeocodingService({
    online: createNominatimGeocoder({
      baseUrl: geocoderUrl,
      userAgent: `Twinscape/${appVersion} (self-hosted digital-twin console)`,
    }),
    offline,
    timeoutMs,
    onFallback: ({ operation, reason, error }) => {
      // an empty answer or a resting service is routine; a failure is worth a line
      if (reason === 'timeout' || reason === 'error') {
        app.log.warn({ operation, reason, err: error }, 'online geocoder failed, answered offline')
      }
    },
  })
}

/**
 * Projects, uploads of images, regions and offline geocoding: the routes, the seed of the
 * project cases on an empty database (once the database is migrated and the admin exists,
 * i.e. when the app is ready) and the hourly sweep of abandoned uploads.
 */
export function registerProjectArea(app: FastifyInstance): void {
  const area = projectAreaOf(app)
  registerProjectRoutes(app)
  registerUploadRoutes(app)
  registerGeoRoutes(app, area.geocoding)

  // the database decides what is abandoned (6 h unattached), so start-up changes nothing here
  app.deps.sweeper.add({
    label: 'abandoned image uploads',
    sweep: (moment) =>
      moment === 'periodic' ? area.uploads.collectAbandoned() : Promise.resolve(0),
  })
  app.addHook('onReady', async () => {
    const { database, storage, clock, config, repositories } = app.deps
    const seeded = await seedProjectCases({
      database,
      storage,
      clock,
      users: repositories.users,
      adminName: config.adminName,
      tilesetsDirectory: cityDirectories(config.dataDir).tilesets,
    })
    if (seeded > 0) app.log.info({ cases: seeded }, 'project cases seeded')
  })
}
