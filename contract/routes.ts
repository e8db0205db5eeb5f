import { authRoutes } from './auth'
import { buildingRoutes } from './building'
import { cityRoutes } from './city'
import { cityModelRoutes } from './city-models'
import { drawRoutes } from './draw'
import { embeddedProductRoutes } from './embedded-products'
import { eventLinkRoutes } from './event-links'
import { trackingRoutes } from './tracking'
import { locationRoutes } from './location'
import { viewTourRoutes } from './view-tour'
import { fileRoutes } from './files'
import { geoRoutes } from './geo'
import { gmlRoutes } from './gml'
import { investigationRoutes } from './investigations'
import { iotRoutes } from './iot'
import { modelConfigRoutes, modelDetailRoutes, structureAddRoutes } from './model-config'
import { materialRoutes } from './materials'
import { caseRoutes } from './cases'
import { modelCopyRoutes } from './model-copy'
import { noticeRoutes } from './notice'
import { offlinePackageRoutes } from './offline-package'
import { orderRoutes } from './orders'
import { poiRoutes } from './pois'
import { projectRoutes } from './project'
import { roleRoutes } from './role'
import type { RouteDescriptor } from './route'
import { styleRoutes } from './style'
import { systemRoutes } from './system'
import { templateRoutes } from './templates'
import { templateFileRoutes } from './template-files'
import { userRoutes } from './user'
import { videoRoutes } from './video'
import { visitRoutes } from './visit'

/**
 * The route table: every /web/ endpoint that answers an envelope, by area. The server
 * registers each (server/routes/web/) and the web client calls them (src/api/); a test checks
 * that the server's routes and this table are the same set (server/routes/web/route-table.test.ts).
 * Raw byte routes (files, tiles, the map proxy's tiles) and the resumable (tus) protocol are
 * not in it: they answer no envelope.
 */
export const webRouteAreas = {
  auth: authRoutes,
  building: buildingRoutes,
  city: cityRoutes,
  cityModels: cityModelRoutes,
  draw: drawRoutes,
  embeddedProducts: embeddedProductRoutes,
  eventLinks: eventLinkRoutes,
  tracking: trackingRoutes,
  location: locationRoutes,
  viewTour: viewTourRoutes,
  files: fileRoutes,
  geo: geoRoutes,
  gml: gmlRoutes,
  iot: iotRoutes,
  investigations: investigationRoutes,
  modelConfig: modelConfigRoutes,
  modelDetails: modelDetailRoutes,
  structureAdd: structureAddRoutes,
  materials: materialRoutes,
  cases: caseRoutes,
  modelCopy: modelCopyRoutes,
  notice: noticeRoutes,
  offlinePackage: offlinePackageRoutes,
  orders: orderRoutes,
  pois: poiRoutes,
  project: projectRoutes,
  role: roleRoutes,
  style: styleRoutes,
  system: systemRoutes,
  templates: templateRoutes,
  templateFiles: templateFileRoutes,
  user: userRoutes,
  video: videoRoutes,
  visit: visitRoutes,
} as const

/** Every descriptor of {@link webRouteAreas}, in one list. */
export const webRoutes: readonly RouteDescriptor[] = Object.values(webRouteAreas).flatMap(
  (area) => Object.values(area) as RouteDescriptor[],
)
