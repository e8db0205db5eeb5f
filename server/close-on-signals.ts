import type { FastifyInstance } from 'fastify'

/**
 * How a server or job-worker process stops: SIGTERM/SIGINT (or the cluster primary's
 * `shutdown` message) close the app, which lets in-flight requests and jobs finish or hands the
 * jobs back to the queue, then exit 0. A close that takes longer than `graceMs` exits 1 anyway,
 * and so does a second signal, so neither an orchestrator nor a person waits forever.
 */
export function closeOnSignals(app: FastifyInstance, graceMs: number, what: string): void {
  let isClosing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (isClosing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting')
      process.exit(1)
    }
    isClosing = true
    app.log.info({ signal }, `shutting down: finishing ${what}`)
    const forceExit = setTimeout(() => {
      app.log.error(`${what} did not finish in time: exiting`)
      process.exit(1)
    }, graceMs)
    forceExit.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
  // a worker of CLUSTER_WORKERS: the primary asks once (a terminal's Ctrl-C also signals it)
  process.on('message', (message) => {
    if (message === 'shutdown' && !isClosing) shutdown('SIGTERM')
  })
}
