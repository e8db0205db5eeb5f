import * as Comlink from 'comlink'
import type { WorkerEndpoint } from '../workers/create-worker-client'

/** A worker served on this thread, with hooks tests use to observe and break it. */
export interface InProcessWorker extends WorkerEndpoint {
  isTerminated(): boolean
  /** Fires an `error` event, as a Worker does when its script fails or it crashes. */
  simulateCrash(): void
}

/**
 * Serves a worker's real API object on the current thread over a MessageChannel. Messages are
 * still structured-cloned and transferred exactly as with a Worker, so clients are exercised
 * for real in Node and happy-dom, where module workers cannot start.
 */
export function createInProcessWorker(api: object): InProcessWorker {
  const channel = new MessageChannel()
  Comlink.expose(api, channel.port1)
  let isTerminated = false
  const port = channel.port2
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) =>
      port.postMessage(message, transfer ?? []),
    addEventListener: port.addEventListener.bind(port) as WorkerEndpoint['addEventListener'],
    removeEventListener: port.removeEventListener.bind(
      port,
    ) as WorkerEndpoint['removeEventListener'],
    start: () => port.start(),
    terminate: () => {
      isTerminated = true
      channel.port1.close()
      port.close()
    },
    isTerminated: () => isTerminated,
    simulateCrash: () => port.dispatchEvent(new Event('error')),
  }
}
