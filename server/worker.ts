import { buildApp } from './app'
import { type Config, ConfigError, loadConfig } from './config'

/**
 * `npm run worker`: a job worker for the shared queue (JOB_QUEUE=postgres). It composes the same
 * services as an API process, with the same configuration (database, store, DATA_DIR), but
 * listens on no port and starts no MQTT broker: it only runs conversions, tileset ingests and
 * offline-package builds submitted by any API process, as many at once as it has slots. Run as
 * many as the work needs, on any machine that reaches the database, the store and DATA_DIR.
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
  const app = await buildApp({
    ...config,
    jobQueue: { ...config.jobQueue, runsJobsHere: true },
    mqtt: { ...config.mqtt, mode: 'off' },
  })
  // the API processes migrate the database; a worker only waits for its jobs
  await app.ready()
  app.log.info({ schema: config.jobQueue.schema }, 'job worker running')
  let isClosing = false
  const shutdown = () => {
    if (isClosing) process.exit(1)
    isClosing = true
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'worker shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}

await main()
