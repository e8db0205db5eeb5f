/**
 * The SBM decode worker: a thin shell around sbm-decode-api.ts (architecture.md §4). Stateless,
 * so the building scene runs a small pool of them. Clients import only the type.
 */
import { exposeWorker } from '../protocol/expose'
import { sbmDecodeApi } from './sbm-decode-api'

export type { DecodedModel, DecodeRequestOptions, DecodeSbmOutcome } from './sbm-decode-api'

const api = sbmDecodeApi
/** The API a client gets from `Comlink.wrap<SbmDecodeWorkerApi>(worker)`. */
export type SbmDecodeWorkerApi = typeof api
exposeWorker(api)
