import * as Comlink from 'comlink'
import { keepErrorCodesAcrossComlink } from './comlink-errors'
import { createIndoorRouteApi, type RouteAnswer } from './indoor-route-api'

/**
 * Long-lived IndoorGML routing worker: it holds the network of the open scene between
 * queries and is disposed with the scene. Errors keep their `gml.*` code across the boundary.
 */
const service = createIndoorRouteApi()

const api = {
  ...service,
  /** Same as the service's route, with the polyline transferred instead of copied. */
  async route(...args: Parameters<typeof service.route>): Promise<RouteAnswer> {
    const answer = await service.route(...args)
    return 'polyline' in answer ? Comlink.transfer(answer, [answer.polyline.buffer]) : answer
  },
}

/** What the main thread gets from `Comlink.wrap<IndoorRouteWorkerApi>(worker)`. */
export type IndoorRouteWorkerApi = typeof api

keepErrorCodesAcrossComlink()
Comlink.expose(api)
