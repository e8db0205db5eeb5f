import type { FastifyInstance } from 'fastify'
import type { ServerServices } from '../../deps'
import { registerAuthRoutes } from './auth'
import { registerBuildingRoutes } from './building'
import { registerCityArea } from './city'
import { registerDrawRoutes } from './draw'
import { registerTrackingRoutes } from './tracking'
import { registerLocationRoutes } from './location'
import { registerViewTourRoutes } from './view-tour'
import { registerCityModelRoutes } from './city-models'
import { registerGeoRoutes } from './geo'
import { registerGmlRoutes } from './gml'
import { registerInvestigationRoutes } from './investigations'
import { registerIotRoutes } from './iot'
import { registerIotIngestRoutes } from './iot-ingest'
import { registerIotLiveRoutes } from './iot-live'
import { registerVideoRoutes } from './video'
import { registerNoticeRoutes } from './notice'
import { registerOfflinePackageRoutes } from './offline-package'
import { registerOrderRoutes } from './orders'
import { registerModelConfigRoutes } from './model-config'
import { registerMaterialRoutes } from './materials'
import { registerCaseRoutes } from './cases'
import { registerModelCopyRoutes } from './model-copy'
import { registerPoiRoutes } from './pois'
import { registerProjectRoutes } from './project'
import { registerRegisterRoutes } from './register'
import { registerResumableUploadRoutes } from './resumable-upload'
import { registerRoleRoutes } from './role'
import { registerSessionEntryRoutes } from './session-entry'
import { registerStyleRoutes } from './style'
import { registerVisitRoutes } from './visit'
import { registerSystemRoutes } from './system'
import { registerTemplateFileRoutes } from './template-files'
import { registerTemplateRoutes } from './templates'
import { registerUploadRoutes } from './upload'
import { registerUserRoutes } from './user'

/**
 * Every /web/ area, one file each (architecture.md §5). A new area exports
 * `register<Area>Routes(app, services)` built with defineRoute (one descriptor per route in
 * contract/, listed in contract/routes.ts) and is added to this list; its
 * services, hooks and timers are made in server/composition.ts.
 */
const areas: Array<(app: FastifyInstance, services: ServerServices) => void> = [
  registerSystemRoutes,
  registerAuthRoutes,
  registerUserRoutes,
  registerNoticeRoutes,
  // projects, image uploads, regions and geocoding
  registerProjectRoutes,
  registerUploadRoutes,
  registerGeoRoutes,
  // sign-up, guest and ticket sessions, roles (the core's /login, /user/*, /notice/* are above)
  registerRegisterRoutes,
  registerSessionEntryRoutes,
  registerRoleRoutes,
  registerResumableUploadRoutes,
  registerGmlRoutes,
  registerBuildingRoutes,
  registerCityArea,
  registerTemplateRoutes,
  registerTemplateFileRoutes,
  registerPoiRoutes,
  registerDrawRoutes,
  registerTrackingRoutes,
  registerLocationRoutes,
  registerViewTourRoutes,
  registerCityModelRoutes,
  registerIotRoutes,
  registerInvestigationRoutes,
  registerIotIngestRoutes,
  (app, services) =>
    registerIotLiveRoutes(app, services, { heartbeatMs: app.deps.config.iot.liveHeartbeatMs }),
  registerVideoRoutes,
  registerOrderRoutes,
  registerOfflinePackageRoutes,
  registerStyleRoutes,
  registerVisitRoutes,
  registerModelCopyRoutes,
  registerModelConfigRoutes,
  registerMaterialRoutes,
  registerCaseRoutes,
]

/** Registers the routes of every area on the services made by composeServer. */
export function registerWebRoutes(app: FastifyInstance, services: ServerServices): void {
  for (const register of areas) register(app, services)
}
