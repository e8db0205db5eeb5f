/**
 * The picking worker: a thin shell around bvh-api.ts (architecture.md §4). One per open
 * building scene, disposed with it. Clients import only the type.
 */
import { exposeWorker } from '../protocol/expose'
import { createBvhApi } from './bvh-api'

export type { AddSbmOutcome, PickableSbm, PickableSbmMesh } from './bvh-api'

const api = createBvhApi()
/** The API a client gets from `Comlink.wrap<BvhWorkerApi>(worker)`. */
export type BvhWorkerApi = typeof api
exposeWorker(api)
