import { parentPort } from 'node:worker_threads'
import { FenceIndex } from '../../../workers/geodesy/fence-index'
import type { FenceThreadReply, FenceThreadRequest } from './fence-checker'

/**
 * The body of the fence thread (started through fence-checker-thread.mjs): keeps each project's
 * fence index by the key the request thread gave it, and answers batches of points with the
 * fences containing each (null for a key it no longer has).
 */
const port = parentPort
if (!port) throw new Error('fence-checker-worker.ts runs only as a worker thread')

const indexes = new Map<number, FenceIndex>()

port.on('message', (request: FenceThreadRequest) => {
  if (request.type === 'index') indexes.set(request.key, new FenceIndex(request.shapes))
  else if (request.type === 'drop') indexes.delete(request.key)
  else {
    const index = indexes.get(request.key)
    let ids: string[][] | null = null
    if (index) {
      const { points } = request
      ids = new Array<string[]>(points.length / 2)
      for (let at = 0; at < ids.length; at++)
        ids[at] = index.containing([points[at * 2]!, points[at * 2 + 1]!])
    }
    port.postMessage({ batch: request.batch, ids } satisfies FenceThreadReply)
  }
})
