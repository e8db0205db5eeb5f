/**
 * Long-lived IndoorGML routing worker: a thin shell around indoor-route-api.ts (architecture.md
 * §4). It holds the network of the open scene between queries and is disposed with the scene.
 * Errors keep their `gml.*` code across the boundary (protocol/error-transport.ts).
 */
import { exposeWorker } from '../protocol/expose'
import { createIndoorRouteApi } from './indoor-route-api'

const api = createIndoorRouteApi()
/** What the main thread gets from `Comlink.wrap<IndoorRouteWorkerApi>(worker)`. */
export type IndoorRouteWorkerApi = typeof api
exposeWorker(api)
