import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { type Config, ConfigError, loadConfig } from './config'
import { migrateToLatest } from './migrations'
import { seedDatabase } from './modules/accounts/seed'

/** In-flight requests get this long to finish after SIGTERM/SIGINT before the process exits anyway. */
const shutdownGraceMs = 10_000

/**
 * Runs the server: configuration from the environment, migrations, the seed of an empty
 * database, then listen. SIGTERM/SIGINT stop accepting connections, let in-flight requests
 * finish and close the database; a second signal exits at once.
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

  const app = await buildApp(config)
  try {
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
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    app.log.fatal({ err: error }, 'the server could not start')
    await app.close().catch(() => undefined)
    process.exit(1)
  }
  handleShutdownSignals(app)
}

function handleShutdownSignals(app: FastifyInstance): void {
  let isClosing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (isClosing) {
      app.log.warn({ signal }, 'second signal: exiting without waiting')
      process.exit(1)
    }
    isClosing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const forceExit = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time: exiting')
      process.exit(1)
    }, shutdownGraceMs)
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
}

await main()
