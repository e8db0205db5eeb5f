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
import type { CityServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { defineUploadRoute } from '../../http/upload-route'
import { callerOrNullOf } from './project-caller'
import { registerMapProxyRoutes } from './map-proxy'
import { registerTileRoutes } from './tiles'

/**
 * The city area (issue #7): oblique photography (`/obliquephotograph/*`,
 * `/findObliquePhotograph`, `/upload/uploadTiltModel`), single-building GIS models
 * (`/gismodel/*`), basemaps (`/basemap/*`, `/upload/uploadBasemap`) and the signed tile and
 * PMTiles addresses (./tiles.ts). Project copies and deletes carry these records along.
 */
export function registerCityArea(app: FastifyInstance, city: CityServices): void {
  registerObliquePhotographRoutes(app, city)
  registerGisModelRoutes(app, city)
  registerBasemapRoutes(app, city)
  registerUploadRoutes(app, city)
  registerTileRoutes(app, city)
  registerMapProxyRoutes(app, city)
}

function registerObliquePhotographRoutes(app: FastifyInstance, city: CityServices): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/add',
    auth: 'editor',
    summary: 'Add an oblique photography record (content comes with uploadTiltModel and its id)',
    body: addObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
    handler: async ({ body, user }) => city.tilesets.add(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/update',
    auth: 'editor',
    summary: 'Rename, show/hide or place an oblique photography tileset',
    body: updateObliquePhotographBodySchema,
    datum: obliquePhotographSchema,
    handler: async ({ body, user }) => city.tilesets.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/obliquephotograph/del',
    auth: 'editor',
    summary: 'Delete an oblique photography tileset and its files',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await city.tilesets.remove(user, body.id)
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
      city.tilesets.find(
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
      city.tilesets.list(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
}

function registerGisModelRoutes(app: FastifyInstance, city: CityServices): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/select',
    auth: 'public',
    summary: "A project's single-building (monomer) models: id, modelname, tileset and features",
    body: projectScopeBodySchema,
    datum: z.array(gisModelSchema),
    handler: async ({ body, user, request }) =>
      city.gisModels.select(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/add',
    auth: 'editor',
    summary: 'Save picked features of a tileset as a named single-building model',
    body: addGisModelBodySchema,
    datum: gisModelSchema,
    handler: async ({ body, user }) => city.gisModels.add(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/update',
    auth: 'editor',
    summary: 'Rename a single-building model or change its features and properties',
    body: updateGisModelBodySchema,
    datum: gisModelSchema,
    handler: async ({ body, user }) => city.gisModels.update(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/gismodel/delete',
    auth: 'editor',
    summary: 'Delete a single-building model',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await city.gisModels.remove(user, body.id)
      return null
    },
  })
}

function registerBasemapRoutes(app: FastifyInstance, city: CityServices): void {
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/find',
    auth: 'public',
    summary: "A project's basemap setting (offline by default) and its uploaded PMTiles",
    body: projectScopeBodySchema,
    datum: basemapFindDatumSchema,
    handler: async ({ body, user, request }) =>
      city.basemaps.find(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/save',
    auth: 'editor',
    summary: "Save a project's basemap: offline, an online style URL, or an uploaded PMTiles",
    body: saveBasemapBodySchema,
    datum: basemapFindDatumSchema,
    handler: async ({ body, user }) => city.basemaps.save(user, body),
  })
  defineRoute(app, {
    method: 'POST',
    url: '/web/basemap/del',
    auth: 'editor',
    summary: 'Delete an uploaded PMTiles basemap (refused while it is the chosen basemap)',
    body: idBodySchema,
    datum: nullDatumSchema,
    handler: async ({ body, user }) => {
      await city.basemaps.remove(user, body.id)
      return null
    },
  })
}

const mebibyte = 1024 * 1024

// Not defineRoute: that stores files in the content-addressed store, while a tileset archive
// (up to TILESET_UPLOAD_LIMIT_MB) or a basemap only passes through on its way to its service.
function registerUploadRoutes(app: FastifyInstance, city: CityServices): void {
  const { config } = app.deps

  defineUploadRoute(app, {
    url: '/web/upload/uploadTiltModel',
    summary: 'Upload or update oblique photography: a 3D Tiles zip or .3tz',
    description:
      'Multipart `project_id`, optional `id` (the tileset to update) and `name`, and one `file`; or form/JSON with `upload_id` of a finished resumable upload instead of the file. The archive is inspected before anything is extracted; the previous version stays served until the new one is complete.',
    body: uploadTiltModelFieldsSchema,
    datum: obliquePhotographSchema,
    receive: () => ({
      incomingDirectory: city.cityDirectories.incoming,
      maxFileBytes: config.tilesetUploadLimitBytes,
      tooLargeError: () =>
        new AppError('tooLarge', 'tileset.archiveTooLarge', {
          limitMb: Math.round(config.tilesetUploadLimitBytes / mebibyte),
        }),
    }),
    handler: ({ body, file, user }) =>
      app.deps.jobs.submit(city.tilesetIngest, user.id, {
        user,
        projectId: body.project_id,
        tilesetId: body.id,
        name: body.name,
        archive: { path: file.path, fileName: file.fileName },
      }).result,
  })

  defineUploadRoute(app, {
    url: '/web/upload/uploadBasemap',
    summary: 'Upload a PMTiles (v3) basemap for a city project',
    description:
      'Multipart `project_id`, optional `name` and one `file`; or form/JSON with `upload_id` of a finished resumable upload. Choose it with /basemap/save.',
    body: uploadBasemapFieldsSchema,
    datum: basemapFileSchema,
    receive: () => ({
      incomingDirectory: city.cityDirectories.incoming,
      maxFileBytes: config.basemapUploadLimitBytes,
      tooLargeError: () =>
        new AppError('tooLarge', 'basemap.archiveTooLarge', {
          limitMb: Math.round(config.basemapUploadLimitBytes / mebibyte),
        }),
    }),
    handler: ({ body, file, user }) =>
      city.basemaps.accept({
        user,
        projectId: body.project_id,
        name: body.name,
        filePath: file.path,
        fileName: file.fileName,
      }),
  })
}
