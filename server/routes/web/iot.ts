import type { FastifyInstance } from 'fastify'
import { eventLinkRoutes } from '../../../contract/event-links'
import { iotRoutes as routes } from '../../../contract/iot'
import type { ServerServices } from '../../deps'
import { defineRoute } from '../../http/define-route'
import { callerOf } from './project-caller'

/** A bulk provisioning names up to 10,000 POI ids (~40 bytes of JSON each). */
const provisionBodyLimitBytes = 1024 * 1024

/** Devices, time series and alarm records (issue 17, contract/iot.ts). */
export function registerIotRoutes(
  app: FastifyInstance,
  {
    devices,
    timeseries,
    alarms,
    eventLinks,
  }: Pick<ServerServices, 'devices' | 'timeseries' | 'alarms' | 'eventLinks'>,
): void {
  defineRoute(app, routes.provisionDevice, {
    handler: ({ body, user }) => devices.provision(user, body),
  })
  defineRoute(app, routes.provisionDevices, {
    bodyLimitBytes: provisionBodyLimitBytes,
    handler: ({ body, user }) => devices.provisionMany(user, body.projectid, body.poi_ids),
  })
  defineRoute(app, routes.findDevices, {
    handler: ({ body, user, request }) =>
      devices.list(callerOf(request, user, body.project_token), body.projectid),
  })
  defineRoute(app, routes.rotateDeviceToken, {
    handler: ({ body, user }) => devices.rotateToken(user, body.id),
  })
  defineRoute(app, routes.revokeDeviceToken, {
    handler: ({ body, user }) => devices.revokeToken(user, body.id),
  })
  defineRoute(app, routes.getDeviceTimeseries, {
    handler: ({ body, user, request }) =>
      timeseries.query(callerOf(request, user, body.project_token), body),
  })
  defineRoute(app, routes.addAlarm, {
    handler: ({ body, user }) => alarms.add(user, body),
  })
  defineRoute(app, routes.updateAlarm, {
    handler: ({ body, user }) => alarms.update(user, body),
  })
  defineRoute(app, routes.deleteAlarm, {
    handler: ({ body, user }) => alarms.remove(user, body.id),
  })
  defineRoute(app, routes.findAlarms, {
    handler: ({ body, user, request }) =>
      alarms.find(callerOf(request, user, body.project_token), body),
  })
  defineRoute(app, eventLinkRoutes.addEventLink, {
    handler: ({ body, user }) => eventLinks.add(user, body),
  })
  defineRoute(app, eventLinkRoutes.deleteEventLink, {
    handler: ({ body, user }) => eventLinks.remove(user, body.id),
  })
  defineRoute(app, eventLinkRoutes.findEventLinks, {
    handler: ({ body, user, request }) =>
      eventLinks.find(callerOf(request, user, body.project_token), body),
  })
  defineRoute(app, eventLinkRoutes.findAllEventLinks, {
    handler: ({ body, user, request }) =>
      eventLinks.findAll(callerOf(request, user, body.project_token), body.projectid),
  })
}
