import { buildApp } from './app'
import { closeOnSignals } from './close-on-signals'
import { type Config, ConfigError, loadConfig } from './config'

/** Running jobs get this long to hand themselves back to the queue before the process exits. */
const shutdownGraceMs = 10_000

/**
 * `npm run worker`: a job worker for the shared queue (JOB_QUEUE=postgres). It composes the same
 * services as an API process, with the same configuration (database, store, DATA_DIR), but
 * listens on no port and starts no MQTT broker: it only runs conversions, tileset ingests and
 * offline-package builds submitted by any API process, as many at once as it has slots. Run as
 * many as the work needs, on any machine that reaches the database, the store and DATA_DIR.
 * It is composed as a job worker: no routes, no start-up sweep, no seeds and no periodic sweeps
 * (the API processes do those), so it may start before any API process has migrated.
 * SIGTERM/SIGINT stop it; its running jobs are handed back to the queue for another worker.
 */
async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
    if (config.jobQueue.kind !== 'postgres') {
      throw new ConfigError(
        'npm run worker needs JOB_QUEUE=postgres (and a postgres:// DATABASE_URL)',
      )
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee docs/deploy.md.\n`)
      process.exit(1)
    }
    throw error
  }
  const app = await buildApp(
    {
      ...config,
      jobQueue: { ...config.jobQueue, runsJobsHere: true },
      mqtt: { ...config.mqtt, mode: 'off' },
    },
    { role: 'jobWorker' },
  )
  // the API processes migrate the database; a worker only waits for its jobs
  await app.ready()
  // the signal handlers first: whoever reads "running" may stop the worker at once
  closeOnSignals(app, shutdownGraceMs, 'running jobs')
  app.log.info({ schema: config.jobQueue.schema }, 'job worker running')
}

await main()
