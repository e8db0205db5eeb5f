import * as Comlink from 'comlink'
import { keepErrorCodesAcrossComlink } from './error-transport'

/**
 * The one way a worker entry serves its API: installs the error transport that keeps error
 * codes across comlink, then exposes the object on the worker's global scope (or on `endpoint`,
 * e.g. a Node worker_threads port wrapped by comlink's node adapter).
 */
export function exposeWorker(api: object, endpoint?: Comlink.Endpoint): void {
  keepErrorCodesAcrossComlink()
  Comlink.expose(api, endpoint)
}
