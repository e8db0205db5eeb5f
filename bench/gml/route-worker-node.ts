import { parentPort } from 'node:worker_threads'
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs'
import { createIndoorRouteApi } from '../../workers/indoor-route/indoor-route-api'
import { exposeWorker } from '../../workers/protocol/expose'

/**
 * The routing service behind comlink in a Node worker_threads worker: the same object the
 * browser worker exposes, so the round-trip benchmark measures the real message path
 * (structured clone + comlink) without a browser.
 */
const api = createIndoorRouteApi()

/** What the benchmark's comlink proxy talks to. */
export type NodeRouteWorkerApi = typeof api

if (!parentPort) throw new Error('route-worker-node.ts must run in a worker thread')
exposeWorker(api, nodeEndpoint(parentPort))
