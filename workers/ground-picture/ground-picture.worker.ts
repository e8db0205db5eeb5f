/**
 * The ground-picture worker: paints the city's saved drawings into one picture off the page's
 * thread (a thin shell around ground-picture-api.ts, architecture.md §4). Clients import only
 * the type.
 */
import { exposeWorker } from '../protocol/expose'
import { groundPictureApi } from './ground-picture-api'

const api = groundPictureApi
/** The API a client gets from `Comlink.wrap<GroundPictureWorkerApi>(worker)`. */
export type GroundPictureWorkerApi = typeof api
exposeWorker(api)
