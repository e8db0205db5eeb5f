/**
 * The unzip worker: a thin shell around the pure modules (architecture.md §4). Clients import
 * only the type, so none of this enters the main bundle.
 */
import { exposeWorker } from '../protocol/expose'
import { unzipApi } from './unzip-api'

const api = unzipApi
/** The API a client gets from `Comlink.wrap<UnzipWorkerApi>(worker)`. */
export type UnzipWorkerApi = typeof api
exposeWorker(api)
