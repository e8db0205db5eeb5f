/**
 * The 3D Tiles content parse worker: a thin shell around tile-parse-api.ts (architecture.md §4).
 * Stateless, so the city scene runs a small pool of them. Clients import only the type.
 */
import { exposeWorker } from '../protocol/expose'
import { tileParseApi } from './tile-parse-api'

export type { TileParseOutcome } from './tile-parse-api'

const api = tileParseApi
/** The API a client gets from `Comlink.wrap<TileParseWorkerApi>(worker)`. */
export type TileParseWorkerApi = typeof api
exposeWorker(api)
