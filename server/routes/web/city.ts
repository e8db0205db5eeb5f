import type { FastifyInstance } from 'fastify'
import type { CityServices } from '../../deps'
import { AppError } from '../../http/app-error'
import { defineRoute } from '../../http/define-route'
import { defineUploadRoute } from '../../http/upload-route'
import { callerOrNullOf } from './project-caller'
import { registerMapProxyRoutes } from './map-proxy'
import { registerTileRoutes } from './tiles'
import { cityRoutes, gisModelBodyMaxBytes } from '../../../contract/city'
import { listProjectRecords, removeRecordById } from './record-handlers'

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
  defineRoute(app, cityRoutes.obliquephotographAdd, {
    handler: async ({ body, user }) => city.tilesets.add(user, body),
  })
  defineRoute(app, cityRoutes.obliquephotographUpdate, {
    handler: async ({ body, user }) => city.tilesets.update(user, body),
  })
  defineRoute(app, cityRoutes.obliquephotographDel, {
    handler: removeRecordById(city.tilesets),
  })
  defineRoute(app, cityRoutes.obliquephotographFind, {
    handler: async ({ body, user, request }) =>
      city.tilesets.find(
        callerOrNullOf(request, user, body.project_token),
        body.project_id,
        body.id,
      ),
  })
  defineRoute(app, cityRoutes.findObliquePhotograph, {
    handler: listProjectRecords(city.tilesets),
  })
}

function registerGisModelRoutes(app: FastifyInstance, city: CityServices): void {
  defineRoute(app, cityRoutes.gismodelSelect, {
    handler: async ({ body, user, request }) =>
      city.gisModels.select(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, cityRoutes.gismodelAdd, {
    bodyLimitBytes: gisModelBodyMaxBytes,
    handler: async ({ body, user }) => city.gisModels.add(user, body),
  })
  defineRoute(app, cityRoutes.gismodelUpdate, {
    bodyLimitBytes: gisModelBodyMaxBytes,
    handler: async ({ body, user }) => city.gisModels.update(user, body),
  })
  defineRoute(app, cityRoutes.gismodelDelete, {
    handler: removeRecordById(city.gisModels),
  })
}

function registerBasemapRoutes(app: FastifyInstance, city: CityServices): void {
  defineRoute(app, cityRoutes.basemapFind, {
    handler: async ({ body, user, request }) =>
      city.basemaps.find(callerOrNullOf(request, user, body.project_token), body.project_id),
  })
  defineRoute(app, cityRoutes.basemapSave, {
    handler: async ({ body, user }) => city.basemaps.save(user, body),
  })
  defineRoute(app, cityRoutes.basemapDel, {
    handler: removeRecordById(city.basemaps),
  })
}

const mebibyte = 1024 * 1024

// Not defineRoute: that stores files in the content-addressed store, while a tileset archive
// (up to TILESET_UPLOAD_LIMIT_MB) or a basemap only passes through on its way to its service.
function registerUploadRoutes(app: FastifyInstance, city: CityServices): void {
  const { config } = app.deps

  defineUploadRoute(app, cityRoutes.uploadTiltModel, {
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

  defineUploadRoute(app, cityRoutes.uploadBasemap, {
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
