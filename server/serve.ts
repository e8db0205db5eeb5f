import cluster, { type Worker } from 'node:cluster'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { closeOnSignals } from './close-on-signals'
import { type Config, ConfigError, loadConfig } from './config'
import { migrateToLatest } from './migrations'
import { seedDatabase } from './modules/accounts/seed'

/** In-flight requests get this long to finish after SIGTERM/SIGINT before the process exits anyway. */
const shutdownGraceMs = 10_000

/** A worker that ends sooner than this after its start is restarted only after this long. */
const workerRestartDelayMs = 5_000

/**
 * Runs the server: configuration from the environment, migrations, the seed of an empty
 * database, then listen. SIGTERM/SIGINT stop accepting connections, let in-flight requests
 * finish and close the database; a second signal exits at once. With CLUSTER_WORKERS=N (on
 * PostgreSQL) this process starts N such processes sharing the port (node:cluster) and
 * restarts any that ends.
 */
async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee docs/configuration.md.\n`)
      process.exit(1)
    }
    throw error
  }
  if (config.clusterWorkers > 1 && cluster.isPrimary) {
    runWorkers(config.clusterWorkers)
    return
  }

  const app = await buildApp(config)
  const { coordination } = app.deps
  try {
    // processes starting together migrate, seed and sweep one at a time
    await coordination.duringStartUp(async () => {
      await prepare(app, config)
      await coordination.join()
      await app.ready()
    })
    // the signal handlers before "listening": whoever reads it may stop the server at once
    closeOnSignals(app, shutdownGraceMs, 'in-flight requests')
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    app.log.fatal({ err: error }, 'the server could not start')
    await app.close().catch(() => undefined)
    process.exit(1)
  }
}

/** Migrations, then the seed of an empty database (the admin's password printed once). */
async function prepare(app: FastifyInstance, config: Config): Promise<void> {
  const applied = await migrateToLatest(app.deps.database.db, {
    schema: app.deps.database.schema,
  })
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated')
  const seed = await seedDatabase({
    config,
    users: app.deps.repositories.users,
    usersService: app.deps.services.users,
  })
  if (seed.generatedAdminPassword !== undefined) {
    // Printed once, to stdout only (never into the structured log, which may be shipped).
    process.stdout.write(
      `\n  Twinscape admin account created.\n  name:     ${config.adminName}\n` +
        `  password: ${seed.generatedAdminPassword}\n  Save it now: it is not shown again.\n\n`,
    )
  } else if (seed.hasSeeded) {
    app.log.info({ admin: config.adminName }, 'admin account created')
  }
}

/**
 * The primary of CLUSTER_WORKERS: forks the workers (each a whole server on the shared port),
 * forks again any that ends, and on SIGTERM/SIGINT asks each to finish and exits after them.
 * Only the first worker runs the MQTT broker: one machine has one MQTT port.
 */
function runWorkers(count: number): void {
  let isStopping = false
  const fork = (index: number) => {
    const startedAtMs = Date.now()
    const worker: Worker = cluster.fork({
      CLUSTER_WORKER_INDEX: String(index),
      ...(index === 0 ? {} : { MQTT: 'off' }),
    })
    worker.on('exit', (code, signal) => {
      if (isStopping) return
      const delayMs = Date.now() - startedAtMs < workerRestartDelayMs ? workerRestartDelayMs : 0
      process.stderr.write(
        `server process ${index + 1} of ${count} ended (${signal ?? code}): starting it again\n`,
      )
      setTimeout(() => fork(index), delayMs)
    })
  }
  for (let index = 0; index < count; index++) fork(index)
  const stop = () => {
    if (isStopping) return
    isStopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send('shutdown')
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
    })
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

await main()
