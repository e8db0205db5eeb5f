import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  addGisModelBodySchema,
  addObliquePhotographBodySchema,
  basemapFileSchema,
  basemapFindDatumSchema,
  findObliquePhotographBodySchema,
  gisModelSchema,
  idBodySchema,
  type ObliquePhotograph,
  obliquePhotographListItemSchema,
  obliquePhotographSchema,
  projectScopeBodySchema,
  saveBasemapBodySchema,
  updateGisModelBodySchema,
  updateObliquePhotographBodySchema,
  uploadBasemapFieldsSchema,
  uploadTiltModelFieldsSchema,
} from '../../../contract/city'
import { nullDatumSchema } from '../../../contract/common'
import { AppError, fieldError } from '../../http/app-error'
import { defineRoute, parseInput } from '../../http/define-route'
import { okEnvelope } from '../../http/envelope'
import { receiveUpload } from '../../http/upload-route'
import {
  type BasemapsService,
  createBasemapsService,
} from '../../modules/basemaps/basemaps.service'
import {
  createGisModelsService,
  type GisModelsService,
} from '../../modules/gis-models/gis-models.service'
import { folderSweep, type SweepMoment } from '../../modules/files/folder-sweeper'
import type { JobKind } from '../../modules/jobs/job-queue'
import { createCityAccess } from '../../modules/tilesets/city-access'
import { cityDirectories } from '../../modules/tilesets/served-files'
import {
  type TilesetIngestInput,
  tilesetIngestJob,
} from '../../modules/tilesets/tileset-ingest-job'
import {
  createTilesetsService,
  type TilesetsService,
} from '../../modules/tilesets/tilesets.service'
import { openUrlSigner, urlSigningKeyFile } from '../../modules/access/url-signer'
import { createMapProxy, type MapProxy } from '../../modules/map-proxy/map-proxy.service'
import { projectAreaOf } from './project-area'
import { callerOrNullOf } from './project-caller'
import { registerMapProxyRoutes } from './map-proxy'
import { registerTileRoutes } from './tiles'

/** The city area's services, made once per app. */
export interface CityArea {
  tilesets: TilesetsService
  /** Tileset ingest as a job of the app's queue (fair between users, time-limited). */
  tilesetIngest: JobKind<TilesetIngestInput, ObliquePhotograph>
  gisModels: GisModelsService
  basemaps: BasemapsService
  /** Online styles through the server (server/modules/map-proxy). */
  mapProxy: MapProxy
  directories: ReturnType<typeof cityDirectories>
}

const areas = new WeakMap<FastifyInstance, Promise<CityArea>>()

/** The city area's services for an app (made on first use: the signing key is read from disk). */
export function cityAreaOf(app: FastifyInstance): Promise<CityArea> {
  let area = areas.get(app)
  if (!area) {
    area = makeCityArea(app)
    areas.set(app, area)
  }
  return area
}

async function makeCityArea(app: FastifyInstance): Promise<CityArea> {
  const { database, clock, config } = app.deps
  const directories = cityDirectories(config.dataDir)
  const access = createCityAccess({ access: projectAreaOf(app).access })
  const onBackgroundError = (error: unknown) =>
    app.log.warn({ err: error }, 'city file clean-up failed')
  const tilesets = createTilesetsService({
    database,
    clock,
    access,
    directory: directories.tilesets,
    limits: { maxUploadBytes: config.tilesetUploadLimitBytes },
    onBackgroundError,
  })
  // the proxy's addresses are signed like every served file's (one key under DATA_DIR/keys)
  const mapProxy = createMapProxy({
    settings: config.mapProxy,
    signer: openUrlSigner(urlSigningKeyFile(config.dataDir)),
    clock,
  })
  if (config.mapProxy.allowedPrivateAddresses.length > 0) {
    app.log.warn(
      { addresses: config.mapProxy.allowedPrivateAddresses },
      'MAP_PROXY_TEST_PRIVATE_ADDRESSES is set: the map proxy may reach these private addresses (tests only)',
    )
  }
  return {
    mapProxy,
    directories,
    tilesets,
    tilesetIngest: tilesetIngestJob(tilesets),
    gisModels: createGisModelsService({ database, clock, access }),
    basemaps: createBasemapsService({
      database,
      clock,
      access,
      directory: directories.basemaps,
      mapProxy,
      onBackgroundError,
    }),
  }
}

/** Uploads being received are never left this long by a live request. */
const incomingMinimumAgeMs = 24 * 3_600_000

/**
 * The city area (issue #7): oblique photography (`/obliquephotograph/*`,
 * `/findObliquePhotograph`, `/upload/uploadTiltModel`), single-building GIS models
 * (`/gismodel/*`), basemaps (`/basemap/*`, `/upload/uploadBasemap`) and the signed tile and
 * PMTiles addresses (./tiles.ts). Project copies and deletes carry these records along.
 */
export function registerCityArea(app: FastifyInstance): void {
  const ready = cityAreaOf(app)
  const hooks = projectAreaOf(app).lifecycleHooks
  // GIS models first: the tilesets' copy hook repoints the copied models at the copied tilesets
  hooks.push(
    {
      onCopy: async (...args) => (await ready).gisModels.lifecycleHook.onCopy?.(...args),
      onDelete: async (...args) => (await ready).gisModels.lifecycleHook.onDelete?.(...args),
    },
    {
      onCopy: async (...args) => (await ready).tilesets.lifecycleHook.onCopy?.(...args),
      onDelete: async (...args) => (await ready).tilesets.lifecycleHook.onDelete?.(...args),
    },
    {
      onCopy: async (...args) => (await ready).basemaps.lifecycleHook.onCopy?.(...args),
      onDelete: async (...args) => (await ready).basemaps.lifecycleHook.onDelete?.(...args),
    },
  )
  registerObliquePhotographRoutes(app, ready)
  registerGisModelRoutes(app, ready)
  registerBasemapRoutes(app, ready)
  registerUploadRoutes(app, ready)
  registerTileRoutes(app, ready)
  registerMapProxyRoutes(app, ready)

  // leftovers go through the app's one folder sweeper (at start-up and hourly)
  const directories = cityDirectories(app.deps.config.dataDir)
  app.deps.sweeper.add(
    folderSweep({
      label: 'city uploads being received',
      directory: directories.incoming,
      owns: () => true,
      minimumAgeMs: incomingMinimumAgeMs,
      isCrashLeftover: true,
    }),
    ...['tilesets', 'basemaps'].map((service) => ({
      label: `city ${service}`,
      async sweep(moment: SweepMoment) {
        const area = await ready
        const rules =
          service === 'tilesets' ? area.tilesets.sweepRules() : area.basemaps.sweepRules()
        let removed = 0
        for (const rule of rules) removed += await folderSweep(rule).sweep(moment)
        return removed
      },
    })),
  )
}

function registerObliquePhotographRoutes(app: FastifyInstance, ready: Promise<CityArea>): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/add',
    auth: 'editor',
    summary: 'Add an oblique photography record (content comes with uploadTiltModel and its id)',
    body: addObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
    handler: async ({ body, user }) => (await ready).tilesets.add(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/update',
    auth: 'editor',
    summary: 'Rename, show/hide or place an oblique photography tileset',
    body: updateObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
    handler: async ({ body, user }) => (await ready).tilesets.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/del',
    auth: 'editor',
    summary: 'Delete an oblique photography tileset and its files',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await (await ready).tilesets.remove(user, body.id)
      return null
    },
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/find',
    auth: 'public',
    summary: "A project's oblique photography in full, with signed tileset addresses",
    description:
      'Owner or admin Token, or the project token (`ProjectToken` header or `project_token`). `root_url` is a signed address valid 12–24 h that loads without headers.',
    body: findObliquePhotographBodySchema,
    datum: z.array(obliquePhotographSchema),
    handler: async ({ body, user, request }) =>
      (await ready).tilesets.find(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
        body.id,
      ),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/findObliquePhotograph',
    auth: 'public',
    summary: "A project's oblique photography as a list of id and name (SPEC §7)",
    body: projectScopeBodySchema,
    datum: z.array(obliquePhotographListItemSchema),
    handler: async ({ body, user, request }) =>
      (await ready).tilesets.list(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
      ),
  })
}

function registerGisModelRoutes(app: FastifyInstance, ready: Promise<CityArea>): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/select',
    auth: 'public',
    summary: "A project's single-building (monomer) models: id, modelname, tileset and features",
    body: projectScopeBodySchema,
    datum: z.array(gisModelSchema),
    handler: async ({ body, user, request }) =>
      (await ready).gisModels.select(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
      ),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/add',
    auth: 'editor',
    summary: 'Save picked features of a tileset as a named single-building model',
    body: addGisModelBodySchema,
    datum: gisModelSchema,
    handler: async ({ body, user }) => (await ready).gisModels.add(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/update',
    auth: 'editor',
    summary: 'Rename a single-building model or change its features and properties',
    body: updateGisModelBodySchema,
    datum: gisModelSchema,
    handler: async ({ body, user }) => (await ready).gisModels.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/delete',
    auth: 'editor',
    summary: 'Delete a single-building model',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await (await ready).gisModels.remove(user, body.id)
      return null
    },
  })
}

function registerBasemapRoutes(app: FastifyInstance, ready: Promise<CityArea>): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/find',
    auth: 'public',
    summary: "A project's basemap setting (offline by default) and its uploaded PMTiles",
    body: projectScopeBodySchema,
    datum: basemapFindDatumSchema,
    handler: async ({ body, user, request }) =>
      (await ready).basemaps.find(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
      ),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/save',
    auth: 'editor',
    summary: "Save a project's basemap: offline, an online style URL, or an uploaded PMTiles",
    body: saveBasemapBodySchema,
    datum: basemapFindDatumSchema,
    handler: async ({ body, user }) => (await ready).basemaps.save(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/del',
    auth: 'editor',
    summary: 'Delete an uploaded PMTiles basemap (refused while it is the chosen basemap)',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await (await ready).basemaps.remove(user, body.id)
      return null
    },
  })
}

const mebibyte = 1024 * 1024

function registerUploadRoutes(app: FastifyInstance, ready: Promise<CityArea>): void {
  const { config } = app.deps

  app.openApi.add({
    method: 'POST',
    url: '/web/upload/uploadTiltModel',
    auth: 'editor',
    summary: 'Upload or update oblique photography: a 3D Tiles zip or .3tz',
    description:
      'Multipart `project_id`, optional `id` (the tileset to update) and `name`, and one `file`; or form/JSON with `upload_id` of a finished resumable upload instead of the file. The archive is inspected before anything is extracted; the previous version stays served until the new one is complete.',
    tags: ['upload'],
    body: uploadTiltModelFieldsSchema,
    datum: obliquePhotographSchema,
    fileFields: ['file'],
  })
  // Not defineRoute: that stores files in the content-addressed store, while a tileset archive
  // (up to TILESET_UPLOAD_LIMIT_MB) only passes through on its way to being extracted.
  app.post('/web/upload/uploadTiltModel', { config: { auth: 'editor' } }, async (request) => {
    const area = await ready
    const tooLargeError = () =>
      new AppError('tooLarge', 'tileset.archiveTooLarge', {
        limitMb: Math.round(config.tilesetUploadLimitBytes / mebibyte),
      })
    const { fields, file } = await receiveUpload(app, request, {
      incomingDirectory: area.directories.incoming,
      maxFileBytes: config.tilesetUploadLimitBytes,
      tooLargeError,
    })
    let outcome: 'done' | 'refused' | 'failed' = 'failed'
    try {
      const body = parseInput(uploadTiltModelFieldsSchema, fields)
      if (!file) {
        throw fieldError('validation', 'file', 'upload.fileOrUploadId')
      }
      const datum = await app.deps.jobs.submit(area.tilesetIngest, request.user!.id, {
        user: request.user!,
        projectId: body.project_id,
        tilesetId: body.id,
        name: body.name,
        archive: { path: file.path, fileName: file.fileName },
      }).result
      outcome = 'done'
      return okEnvelope(obliquePhotographSchema.parse(datum))
    } catch (error) {
      if (error instanceof AppError) outcome = 'refused'
      throw error
    } finally {
      await file?.dispose(outcome)
    }
  })

  app.openApi.add({
    method: 'POST',
    url: '/web/upload/uploadBasemap',
    auth: 'editor',
    summary: 'Upload a PMTiles (v3) basemap for a city project',
    description:
      'Multipart `project_id`, optional `name` and one `file`; or form/JSON with `upload_id` of a finished resumable upload. Choose it with /basemap/save.',
    tags: ['upload'],
    body: uploadBasemapFieldsSchema,
    datum: basemapFileSchema,
    fileFields: ['file'],
  })
  app.post('/web/upload/uploadBasemap', { config: { auth: 'editor' } }, async (request) => {
    const area = await ready
    const { fields, file } = await receiveUpload(app, request, {
      incomingDirectory: area.directories.incoming,
      maxFileBytes: config.basemapUploadLimitBytes,
      tooLargeError: () =>
        new AppError('tooLarge', 'basemap.archiveTooLarge', {
          limitMb: Math.round(config.basemapUploadLimitBytes / mebibyte),
        }),
    })
    let outcome: 'done' | 'refused' | 'failed' = 'failed'
    try {
      const body = parseInput(uploadBasemapFieldsSchema, fields)
      if (!file) {
        throw fieldError('validation', 'file', 'upload.fileOrUploadId')
      }
      const datum = await area.basemaps.accept({
        user: request.user!,
        projectId: body.project_id,
        name: body.name,
        filePath: file.path,
        fileName: file.fileName,
      })
      outcome = 'done'
      return okEnvelope(basemapFileSchema.parse(datum))
    } catch (error) {
      if (error instanceof AppError) outcome = 'refused'
      throw error
    } finally {
      await file?.dispose(outcome)
    }
  })
}
