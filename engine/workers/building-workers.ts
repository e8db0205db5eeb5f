import type { IndoorRouteWorkerApi } from '../../workers/indoor-route/indoor-route.worker'
import type { BvhWorkerApi } from '../../workers/bvh/bvh.worker'
import type { SbmDecodeWorkerApi } from '../../workers/sbm/sbm-decode.worker'
import type { WorkerEndpoint } from './create-worker-client'

export type { BvhWorkerApi, IndoorRouteWorkerApi, SbmDecodeWorkerApi }

/**
 * Starts an SBM decode worker (stateless; the building scene runs a small pool of them). The
 * `new URL(…)` stays here, where the bundler sees it and emits the worker chunk.
 */
export function createSbmDecodeWorker(): WorkerEndpoint {
  return new Worker(new URL('../../workers/sbm/sbm-decode.worker.ts', import.meta.url), {
    type: 'module',
    name: 'sbm-decode',
  })
}

/** Starts the picking worker, which holds the BVHs of one open building scene. */
export function createBvhWorker(): WorkerEndpoint {
  return new Worker(new URL('../../workers/bvh/bvh.worker.ts', import.meta.url), {
    type: 'module',
    name: 'bvh',
  })
}

/** Starts the IndoorGML routing worker, which holds one loaded network. */
export function createIndoorRouteWorker(): WorkerEndpoint {
  return new Worker(new URL('../../workers/indoor-route/indoor-route.worker.ts', import.meta.url), {
    type: 'module',
    name: 'indoor-route',
  })
}
