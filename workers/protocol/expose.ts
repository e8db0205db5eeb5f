import * as Comlink from 'comlink'
import { keepErrorCodesAcrossComlink } from './error-transport'

/**
 * The one way a worker entry serves its API: installs the error transport that keeps error
 * codes across comlink, then exposes the object on the worker's global scope.
 */
export function exposeWorker(api: object): void {
  keepErrorCodesAcrossComlink()
  Comlink.expose(api)
}
