import { join } from 'node:path'
import { availableParallelism } from 'node:os'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config'
import type {
  BuildingServices,
  CityServices,
  PoiServices,
  ProjectServices,
  ServerDeps,
  TemplateServices,
  TemplateFileServices,
} from './deps'
import { createProjectAccess, type ProjectAccess } from './modules/access/project-access'
import { resolveUrlSigningKey } from './modules/access/signing-key'
import { deferredUrlSigner, type UrlSigner, urlSigningKeyFile } from './modules/access/url-signer'
import { sweepAccountLeftovers } from './modules/accounts/account-maintenance'
import { createAccountDeps } from './modules/accounts/accounts'
import { createUsersRepository } from './modules/accounts/users.repository'
import { createUsersService } from './modules/accounts/users.service'
import { createAuthService } from './modules/auth/auth.service'
import { createSessionsRepository } from './modules/auth/sessions.repository'
import { createBasemapsService } from './modules/basemaps/basemaps.service'
import { createBuildingService } from './modules/building/building.service'
import { type ConversionPool, createConversionPool } from './modules/building/conversion-pool'
import { createFolderSweeper, folderSweep, type SweepMoment } from './modules/files/folder-sweeper'
import { storeSweep } from './modules/files/store-sweep'
import { shippedGeocoderInstance } from './modules/geo/geocoder'
import {
  createFallbackGeocodingService,
  createNominatimGeocoder,
  type GeocodingService,
  offlineGeocodingService,
} from './modules/geo/online-geocoder'
import { shippedRegions } from './modules/geo/regions'
import { createGisModelsService } from './modules/gis-models/gis-models.service'
import { createDrawService } from './modules/draw/draw.service'
import { createTrackingService } from './modules/draw/tracking.service'
import { createLocationAnchorsService } from './modules/draw/location-anchors.service'
import { createViewTourService } from './modules/draw/view-tour.service'
import { createCityModelsService } from './modules/city-models/city-models.service'
import { createGmlService, gmlIncomingDirectory } from './modules/gml/gml.service'
import { createInvestigationsService } from './modules/iot/investigations.service'
import { composeIot } from './modules/iot/iot'
import { createLiveHub, type LiveHub } from './modules/iot/live-hub'
import { relayLiveHub } from './modules/iot/live-relay'
import { createCamerasService } from './modules/video/cameras.service'
import type { JobQueue } from './modules/jobs/job-queue'
import { openJobQueue } from './modules/jobs/open-job-queue'
import { createModelDetailsService } from './modules/model-config/model-details'
import { createMaterialsService } from './modules/materials/materials.service'
import { createStructureAdds } from './modules/model-config/structure-add'
import { createStructureMerges } from './modules/model-config/structure-merge'
import { createMapProxy } from './modules/map-proxy/map-proxy.service'
import { createNoticesRepository } from './modules/notices/notices.repository'
import { createNoticesService } from './modules/notices/notices.service'
import { createOfflinePackagesService } from './modules/orders/offline-packages.service'
import { createOrdersService } from './modules/orders/orders.service'
import { openPaymentProviders } from './modules/orders/payment-providers'
import { createPricesService } from './modules/orders/price-items'
import { createRechargesService } from './modules/orders/recharges.service'
import { createModelCopyService } from './modules/pois/model-copy.service'
import { createPoiBatchService } from './modules/pois/poi-batch.service'
import { createPoiListBodies } from './modules/pois/poi-list-body-job'
import { createPoisService } from './modules/pois/pois.service'
import { seedProjectCases } from './modules/projects/project-cases'
import {
  createProjectsService,
  type ProjectLifecycleHook,
} from './modules/projects/projects.service'
import { createUploadsService } from './modules/projects/uploads.service'
import { createStyleService } from './modules/style/style.service'
import { createCapturesService } from './modules/visit/captures.service'
import { createCasesService } from './modules/cases/cases.service'
import { createResumableUploads } from './modules/resumable-uploads/resumable-uploads'
import { createCityAccess } from './modules/tilesets/city-access'
import { cityDirectories } from './modules/tilesets/served-files'
import { tilesetIngestJob } from './modules/tilesets/tileset-ingest-job'
import { createBatchTemplateSource } from './modules/template-files/batch-template-source'
import { createPoiBatchFilesService } from './modules/template-files/poi-batch-files.service'
import { createPoiBatchFileReader } from './modules/template-files/poi-batch-file-job'
import { packageDirectories } from './modules/orders/offline-package-contents'
import { seedTemplateModels } from './modules/template-files/seed-template-models'
import { createTemplateModelsService } from './modules/template-files/template-models.service'
import { createTilesetsService } from './modules/tilesets/tilesets.service'
import {
  type CategoriesService,
  createCategoriesService,
} from './modules/templates/categories.service'
import { createTemplatePartsService } from './modules/templates/template-parts.service'
import { createTemplatePoisService } from './modules/templates/template-pois.service'
import { seedTemplateLibrary } from './modules/templates/template-seed'
import { createTemplatesService } from './modules/templates/templates.service'
import { type Clock, timestampOf } from './modules/time/clock'
import type { ProcessCoordination } from './plugins/coordination'
import type { DatabaseHandle } from './plugins/db'
import { type FileStorage, storageSweep } from './plugins/storage'
import { appVersion } from './version'

/**
 * The server's one composition root (issue 14 item 5). Every repository and service is made
 * here, once per app; so are the lifecycle hooks (what a project copy or delete carries along,
 * the seed on ready, what closes with the app) and every timer (the folder sweeper, the session
 * and account sweeps). Route files receive the services and only validate, call and wrap.
 */

/** How often the folder sweeper looks for leftovers after the start-up sweep. */
const folderSweepIntervalMs = 3_600_000

/** Ended sessions are deleted this long after they end, and the sweep runs this often. */
const sessionSweepIntervalMs = 3_600_000

/** How often the leftovers of sign-up, limits, tickets and guests are swept. */
const accountSweepIntervalMs = 3_600_000

/** City uploads being received are never left this long by a live request. */
const cityIncomingMinimumAgeMs = 24 * 3_600_000

/** GML uploads cut short by a crash are removed at start when older than this. */
const gmlIncomingMinimumAgeMs = 3_600_000

/** What the app has opened before composing: the rest is made from these. */
export interface ComposeParts {
  config: Config
  clock: Clock
  database: DatabaseHandle
  storage: FileStorage
  coordination: ProcessCoordination
  role: ServerRole
}

/**
 * What a process is for: `api` serves requests and owns the start-up and periodic work (the
 * crash sweep, the seeds, the hourly sweeps); `jobWorker` (`npm run worker`) only runs queued
 * jobs, so it composes the same services but installs none of that work.
 */
export type ServerRole = 'api' | 'jobWorker'

/**
 * Makes every repository and service of the app and installs its hooks and timers (they run in
 * the order written here, after the hooks app.ts added before calling it).
 */
export function composeServer(app: FastifyInstance, parts: ComposeParts): ServerDeps {
  const { config, clock, database, storage, coordination } = parts
  const sweeper = createFolderSweeper((task, error) =>
    app.log.warn({ err: error, task }, 'sweep of leftover files failed'),
  )
  const users = createUsersRepository(database.db)
  const sessions = createSessionsRepository(database.db)
  const notices = createNoticesRepository(database.db)
  const auth = createAuthService({
    users,
    sessions,
    clock,
    policy: { idleMs: config.tokenIdleMs, lifetimeMs: config.tokenLifetimeMs },
  })
  const usersService = createUsersService({ users, clock })
  const accounts = createAccountDeps({
    config,
    clock,
    database,
    users,
    sessions,
    auth,
    usersService,
  })
  // conversions take one core of two (the other serves requests); ingests mostly wait on disk
  const jobs = openJobQueue(config.jobQueue, config.database, {
    // a job's large bytes (a model to convert, its SBM) travel as files of the store, not in rows
    bytes: storage.named('job-files'),
    slots: { cpu: Math.max(1, Math.floor(availableParallelism() / 2)), io: 2 },
    onError: (error) => app.log.warn({ err: error }, 'the shared job queue had trouble'),
  })
  // one key signs every served file's address and the map proxy's, the same in every process:
  // URL_SIGNING_KEY, else the database's (read once it is migrated, before the first request)
  const signer = deferredUrlSigner()
  const loadSigningKey = async (readOnly: boolean) => {
    const resolved = await resolveUrlSigningKey({
      configured: config.urlSigningKey,
      db: database.db,
      legacyKeyFile: urlSigningKeyFile(config.dataDir),
      nowMs: clock.nowMs(),
      readOnly,
    })
    if (resolved === undefined) return false
    signer.load(resolved.key)
    if (resolved.source === 'keyFile') {
      app.log.info('the URL-signing key of DATA_DIR/keys now lives in the database')
    }
    return true
  }
  if (parts.role === 'api') {
    app.addHook('onReady', async () => {
      await loadSigningKey(false)
    })
  } else {
    // a job worker (its ingests answer signed addresses) may start before any API process has
    // migrated the database and stored the key: it reads it once it is there
    retryUntilLoaded(app, () => loadSigningKey(true))
  }
  const access = createProjectAccess({ database, clock, signer })

  // the projects service reads this array on every copy/delete; the order below is the order
  // the areas' records are carried along
  const lifecycleHooks: ProjectLifecycleHook[] = []
  const project = composeProjectArea(app, parts, access, lifecycleHooks)
  const gml = createGmlService({
    database,
    storage,
    clock,
    access,
    jobs,
    maxSizeBytes: config.gmlUploadLimitBytes,
    onWarning: (message, error) => app.log.warn({ err: error }, message),
  })
  const building = composeBuildingArea(parts, access, jobs)
  const templateFiles = composeTemplateFileArea(app, parts, building.conversions, jobs)
  // the live stream's fan-out carries the devices' events (IoT) and the location POIs' (city)
  // ... and those of the other server processes on the database, for the streams open here
  const live = relayLiveHub(
    createLiveHub(() => clock.nowMs()),
    coordination,
    () => clock.nowMs(),
    (error) => app.log.warn({ err: error }, 'a live event could not reach the other processes'),
  )
  app.addHook('onReady', () => live.start())
  app.addHook('onClose', async () => live.close())
  const categories = createCategoriesService({ database, clock })
  const city = composeCityArea(app, parts, access, signer, { categories, live })
  // a worker process (npm run worker) runs ingests submitted by any API process
  jobs.register(city.tilesetIngest)
  lifecycleHooks.push(
    gml.lifecycleHook,
    building.building.lifecycleHook,
    // GIS models before tilesets: the tilesets' copy hook repoints the copied models at the
    // copied tilesets
    city.gisModels.lifecycleHook,
    // anchors before tilesets too: the tilesets' copy hook repoints them at the copied tilesets
    city.locationAnchors.lifecycleHook,
    city.tilesets.lifecycleHook,
    city.basemaps.lifecycleHook,
    city.draw.lifecycleHook,
    city.tracking.lifecycleHook,
    city.viewTour.lifecycleHook,
    city.cityModels.lifecycleHook,
  )
  const templates: TemplateServices = {
    categories,
    templates: createTemplatesService({
      database,
      clock,
      categories,
      templateModels: templateFiles.templateModels,
    }),
    templateParts: createTemplatePartsService({ database, clock }),
    templatePois: createTemplatePoisService({ database, clock, access }),
  }
  const pois = createPoisService({ database, clock, access })
  const poiServices: PoiServices = {
    pois,
    poiBatch: createPoiBatchService({
      database,
      clock,
      access,
      // written by template-files, read by the batch add
      batchFiles: storage.named('poi-batch-files'),
      fileReader: templateFiles.poiBatchFileReader,
    }),
    poiListBodies: createPoiListBodies({ jobs }),
    modelCopy: createModelCopyService({ database, clock, access }),
  }
  // POIs (made from templates) go with their project: after floors and models, which they name
  lifecycleHooks.push(pois.lifecycleHook)
  // devices, their telemetry and alarms (issue 17) go with their project
  const iot = composeIot(app, {
    database,
    clock,
    access,
    settings: config.iot,
    live,
    mqtt: { settings: config.mqtt, defaultHost: config.host, dataDir: config.dataDir },
    coordination,
  })
  lifecycleHooks.push(iot.devices.lifecycleHook, iot.eventLinks.lifecycleHook)
  const investigations = createInvestigationsService({
    database,
    clock,
    access,
    uploads: project.uploads,
    live: iot.live,
  })
  lifecycleHooks.push(investigations.lifecycleHook)
  const style = createStyleService({ database, clock, access })
  lifecycleHooks.push(style.lifecycleHook)
  const modelDetails = createModelDetailsService({ database, storage, clock, access })
  lifecycleHooks.push(modelDetails.lifecycleHook)
  const materials = createMaterialsService({ database, clock, access, uploads: project.uploads })
  lifecycleHooks.push(materials.lifecycleHook)
  const captures = createCapturesService({
    database,
    storage,
    uploads: project.uploads,
    clock,
    access,
  })
  lifecycleHooks.push(captures.lifecycleHook)
  const cases = createCasesService({
    database,
    clock,
    uploads: project.uploads,
    projects: project.projects,
  })
  lifecycleHooks.push(cases.lifecycleHook)
  const resumableUploads = createResumableUploads({
    directory: config.resumableDir,
    // with an S3 file store, the uploads' bytes go to its bucket as they arrive: any process
    // takes the next piece of any upload
    ...(config.storage.kind === 's3' ? { objectStore: config.storage } : {}),
    onStoreError: (error) => app.log.warn({ err: error }, 'the object store failed'),
    maxSizeBytes: config.resumableUploadLimitBytes,
    expiryMs: config.resumableUploadExpiryMs,
    // a claim holds its upload across processes: no other may claim, patch or sweep it
    claims: coordination,
  })

  const orders = createOrdersService({ database, clock, access })
  const structureMergeFiles = storage.named('model-merges')
  const deps: ServerDeps = {
    config,
    clock,
    database,
    storage,
    coordination,
    sweeper,
    jobs,
    repositories: { users, sessions, notices, ...accounts.repositories },
    services: {
      auth,
      users: usersService,
      notices: createNoticesService({ notices, clock }),
      ...accounts.services,
      ...project,
      ...building,
      ...city,
      ...templates,
      ...templateFiles,
      ...poiServices,
      ...iot,
      investigations,
      cameras: createCamerasService({ database, access }),
      gml,
      style,
      captures,
      cases,
      resumableUploads,
      modelDetails,
      materials,
      structureMerges: createStructureMerges({
        database,
        storage,
        clock,
        access,
        building: building.building,
        conversions: building.conversions,
        jobs,
        files: structureMergeFiles,
      }),
      structureMergeFiles,
      structureAdds: createStructureAdds({
        database,
        storage,
        clock,
        access,
        building: building.building,
        conversions: building.conversions,
        jobs,
      }),
      orders,
      recharges: createRechargesService({
        database,
        clock,
        limiter: accounts.services.rateLimiter,
      }),
      paymentProviders: openPaymentProviders(config.dataDir),
      prices: createPricesService({ db: database.db, now: () => timestampOf(clock.nowMs()) }),
      offlinePackages: createOfflinePackagesService({
        database,
        databaseConfig: config.database,
        storage,
        clock,
        access,
        orders,
        jobs,
        directory: join(config.dataDir, 'offline-packages'),
        sources: packageDirectories(),
        onWarning: (message, error) => app.log.warn({ err: error }, message),
      }),
    },
  }
  installClosing(app, deps)
  if (parts.role === 'api') {
    addSweeperTasks(deps)
    installStartUpAndSweeps(app, deps)
  }
  return deps
}

function composeProjectArea(
  app: FastifyInstance,
  parts: ComposeParts,
  access: ProjectAccess,
  lifecycleHooks: ProjectLifecycleHook[],
): ProjectServices {
  const { database, storage, clock, config } = parts
  const uploads = createUploadsService({ database, storage, clock, access })
  return {
    uploads,
    access,
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

function composeBuildingArea(
  parts: ComposeParts,
  access: ProjectAccess,
  jobs: JobQueue,
): BuildingServices {
  const { database, storage, clock } = parts
  const conversions = createConversionPool({ jobs })
  return {
    conversions,
    building: createBuildingService({ database, storage, clock, conversions, access }),
  }
}

function composeTemplateFileArea(
  app: FastifyInstance,
  parts: ComposeParts,
  conversions: ConversionPool,
  jobs: JobQueue,
): TemplateFileServices {
  const { database, clock, config } = parts
  const poiBatchFileReader = createPoiBatchFileReader({ jobs })
  const templateModelFiles = parts.storage.named('template-models')
  return {
    poiBatchFileReader,
    templateModels: createTemplateModelsService({
      database,
      clock,
      conversions,
      files: templateModelFiles,
      onBackgroundError: (error) =>
        app.log.warn({ err: error }, 'template model file clean-up failed'),
    }),
    templateModelFiles,
    poiBatchFiles: createPoiBatchFilesService({
      database,
      clock,
      files: parts.storage.named('poi-batch-files'),
      templates: createBatchTemplateSource(database.db),
      fileReader: poiBatchFileReader,
    }),
    templateFileDirectories: { incoming: join(config.dataDir, 'incoming', 'template-files') },
  }
}

function composeCityArea(
  app: FastifyInstance,
  parts: ComposeParts,
  projectAccess: ProjectAccess,
  signer: UrlSigner,
  shared: { categories: CategoriesService; live: LiveHub },
): CityServices {
  const { database, clock, config } = parts
  const directories = cityDirectories(config.dataDir)
  const access = createCityAccess({ access: projectAccess })
  const onBackgroundError = (error: unknown) =>
    app.log.warn({ err: error }, 'city file clean-up failed')
  const tilesetFiles = parts.storage.named('tilesets')
  const basemapFiles = parts.storage.named('basemaps')
  const tilesets = createTilesetsService({
    database,
    clock,
    access,
    files: tilesetFiles,
    directory: directories.tilesets,
    limits: { maxUploadBytes: config.tilesetUploadLimitBytes },
    onBackgroundError,
  })
  const mapProxy = createMapProxy({ settings: config.mapProxy, signer, clock })
  if (config.mapProxy.allowedPrivateAddresses.length > 0) {
    app.log.warn(
      { addresses: config.mapProxy.allowedPrivateAddresses },
      'MAP_PROXY_TEST_PRIVATE_ADDRESSES is set: the map proxy may reach these private addresses (tests only)',
    )
  }
  const tracking = createTrackingService({
    database,
    clock,
    access,
    projectAccess,
    ...shared,
  })
  return {
    mapProxy,
    cityDirectories: directories,
    tilesetFiles,
    basemapFiles,
    tilesets,
    tilesetIngest: tilesetIngestJob(tilesets),
    gisModels: createGisModelsService({ database, clock, access }),
    // a changed or deleted drawing may be a fence: its project's fence index is built again
    draw: createDrawService({ database, clock, access, onChange: tracking.drawingChanged }),
    tracking,
    // anchor points place building models as well as tilesets: any project kind
    locationAnchors: createLocationAnchorsService({ database, clock, access: projectAccess }),
    viewTour: createViewTourService({ database, clock, access, projectAccess }),
    cityModels: createCityModelsService({
      database,
      storage: parts.storage,
      clock,
      access: projectAccess,
    }),
    basemaps: createBasemapsService({
      database,
      clock,
      access,
      files: basemapFiles,
      mapProxy,
      onBackgroundError,
    }),
  }
}

/** Every leftover the areas make goes through the app's one folder sweeper. */
function addSweeperTasks(deps: ServerDeps): void {
  const { sweeper, services, config, jobs } = deps
  const gmlIncoming = folderSweep({
    label: 'GML uploads being received',
    directory: gmlIncomingDirectory(config.dataDir),
    owns: () => true,
    minimumAgeMs: gmlIncomingMinimumAgeMs,
    isCrashLeftover: false,
  })
  sweeper.add(
    storageSweep(config.filesDir),
    // the database decides what is abandoned (6 h unattached), so start-up changes nothing here
    {
      label: 'abandoned image uploads',
      sweep: (moment) =>
        moment === 'periodic' ? services.uploads.collectAbandoned() : Promise.resolve(0),
    },
    // expired uploads only, at start-up too: an upload cut short by a restart is resumed after it
    {
      label: 'expired resumable uploads',
      sweep: () => services.resumableUploads.sweepExpired(),
    },
    // at start-up only, as before the one sweeper: a GML upload is received in minutes
    {
      label: 'GML uploads being received',
      sweep: (moment) => (moment === 'startup' ? gmlIncoming.sweep(moment) : Promise.resolve(0)),
    },
    folderSweep({
      label: 'city uploads being received',
      directory: services.cityDirectories.incoming,
      owns: () => true,
      minimumAgeMs: cityIncomingMinimumAgeMs,
      isCrashLeftover: true,
    }),
    // ended jobs' files whose submitter went away (the shared queue; none in-process)
    { label: 'files of ended jobs', sweep: () => jobs.sweepLeftovers() },
    {
      label: 'city tilesets',
      async sweep(moment: SweepMoment) {
        let removed = 0
        for (const rule of services.tilesets.sweepRules()) {
          removed += await folderSweep(rule).sweep(moment)
        }
        return removed
      },
    },
    // in a bucket the folder above is empty: its tileset versions are swept through the store
    ...(deps.storage.location.kind === 's3'
      ? [storeSweep(services.tilesets.unservedVersionsRule(), services.tilesetFiles)]
      : []),
    services.basemaps.sweepTask(),
    services.templateModels.sweepTask(),
    services.structureMerges.sweepTask(),
    services.poiBatchFiles.sweepTask(),
  )
}

/** What closes with the app, in every role: the queue first (its runs stop), then the services. */
function installClosing(app: FastifyInstance, deps: ServerDeps): void {
  const { services } = deps
  app.addHook('onClose', async () => {
    await deps.jobs.close()
  })
  app.addHook('onClose', async () => {
    await services.building.settleReleases()
    await services.conversions.close()
    await services.poiListBodies.close()
    await services.poiBatchFileReader.close()
    await services.offlinePackages.close()
    await services.tracking.close()
  })
}

/** An API process's start-up work and its periodic sweeps, in one place. */
function installStartUpAndSweeps(app: FastifyInstance, deps: ServerDeps): void {
  const { config, services, sweeper, coordination } = deps
  // before the first request: leftovers of a crash belong to no live request, so they go now,
  // not a day later (and before the seed below looks at what is on disk); with another
  // process already serving, they may be its work in progress, so only old ones go
  app.addHook('onReady', async () => {
    const removed = await sweeper.sweep(coordination.isFirstProcess() ? 'startup' : 'periodic')
    if (Object.values(removed).some((count) => count > 0)) {
      app.log.info({ removed }, 'leftover files removed at start-up')
    }
  })
  repeatWhileOpen(app, folderSweepIntervalMs, 'folder sweep', async () => {
    await sweeper.sweep('periodic')
  })
  app.addHook('onReady', async () => {
    // once the database is migrated and the admin exists: the project cases on an empty one
    const seeded = await seedProjectCases({
      database: deps.database,
      storage: deps.storage,
      clock: deps.clock,
      users: deps.repositories.users,
      adminName: config.adminName,
    })
    if (seeded > 0) app.log.info({ cases: seeded }, 'project cases seeded')
    // the system 3D template models on an empty database (shipped SBMs and previews), before
    // the library, whose 3D templates are made from them
    const models = await seedTemplateModels({
      database: deps.database,
      models: services.templateModels,
    })
    if (models > 0) app.log.info({ templateModels: models }, 'template models seeded')
    // after the cases, which seed only while no upload exists (the library's icons are uploads)
    const library = await seedTemplateLibrary({
      database: deps.database,
      storage: deps.storage,
      clock: deps.clock,
      users: deps.repositories.users,
      adminName: config.adminName,
    })
    if (library > 0) app.log.info({ templates: library }, 'template library seeded')
    // the price items orders are priced by (an admin's changes stay)
    const prices = await services.prices.seed()
    if (prices > 0) app.log.info({ priceItems: prices }, 'price items seeded')
    // offline package builds a crash or restart cut short: failed, their files removed (with
    // another process serving, a build in progress may be its own)
    if (!coordination.isFirstProcess()) return
    const interrupted = await services.offlinePackages.recover()
    if (interrupted > 0) app.log.warn({ interrupted }, 'offline package builds were interrupted')
  })
  // ended sessions are deleted an hour after they end, so the table does not grow forever
  repeatWhileOpen(app, sessionSweepIntervalMs, 'session sweep', async () => {
    try {
      const cutoff = timestampOf(deps.clock.nowMs() - sessionSweepIntervalMs)
      const deleted = await deps.repositories.sessions.deleteEndedBefore(cutoff)
      if (deleted > 0) app.log.info({ deleted }, 'ended sessions removed')
    } catch (error) {
      app.log.warn({ err: error }, 'session sweep failed')
    }
  })
  repeatWhileOpen(app, accountSweepIntervalMs, 'account sweep', async () => {
    const { repositories, clock } = deps
    try {
      const removed = await sweepAccountLeftovers({
        rateLimits: repositories.rateLimits,
        codes: repositories.verificationCodes,
        tickets: repositories.sessionTickets,
        outbox: repositories.outbox,
        guests: services.guests,
        clock,
      })
      if (Object.values(removed).some((count) => count > 0)) {
        app.log.info({ removed }, 'account leftovers removed')
      }
    } catch (error) {
      app.log.warn({ err: error }, 'sweep of account leftovers failed')
    }
  })
}

/**
 * Runs `task` every `intervalMs` from when the app is ready until it closes (unref'd timer),
 * skipped while another server process on the database runs the task of that name.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  intervalMs: number,
  name: string,
  task: () => Promise<void>,
): void {
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      app.deps.coordination.runOnce(name, task).catch((error: unknown) => {
        app.log.warn({ err: error, task: name }, 'a periodic task could not run')
      })
    }, intervalMs)
    timer.unref()
  })
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearInterval(timer)
  })
}

/** How often a job worker looks for the URL-signing key an API process has not stored yet. */
const signingKeyRetryMs = 2_000

/** Runs `load` when the app is ready and again every little while until it says it loaded. */
function retryUntilLoaded(app: FastifyInstance, load: () => Promise<boolean>): void {
  let timer: NodeJS.Timeout | undefined
  const attempt = async () => {
    timer = undefined
    const loaded = await load().catch((error: unknown) => {
      app.log.debug({ err: error }, 'the URL-signing key could not be read yet')
      return false
    })
    if (!loaded && !isClosing) {
      timer = setTimeout(attempt, signingKeyRetryMs)
      timer.unref()
    }
  }
  let isClosing = false
  app.addHook('onReady', async () => {
    await attempt()
  })
  app.addHook('onClose', async () => {
    isClosing = true
    if (timer !== undefined) clearTimeout(timer)
  })
}
