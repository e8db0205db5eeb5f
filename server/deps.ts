import { availableParallelism } from 'node:os'
import type { Config } from './config'
import type { OpenApiRegistry } from './http/openapi'
import {
  type AccountRepositories,
  type AccountServices,
  createAccountDeps,
} from './modules/accounts/accounts'
import { createAuthService, type AuthService } from './modules/auth/auth.service'
import type { Clock } from './modules/time/clock'
import type { FolderSweeper } from './modules/files/folder-sweeper'
import { createJobQueue, type JobQueue } from './modules/jobs/job-queue'
import {
  createNoticesRepository,
  type NoticesRepository,
} from './modules/notices/notices.repository'
import { createNoticesService, type NoticesService } from './modules/notices/notices.service'
import {
  createSessionsRepository,
  type SessionsRepository,
} from './modules/auth/sessions.repository'
import { createUsersRepository, type UsersRepository } from './modules/accounts/users.repository'
import { createUsersService, type UsersService } from './modules/accounts/users.service'
import type { DatabaseHandle } from './plugins/db'
import type { FileStorage } from './plugins/storage'

/**
 * Everything routes build on, made once per app (`app.deps`). A new area adds its repository
 * and service here; services receive only the pieces they use (architecture.md §5).
 */
export interface ServerDeps {
  config: Config
  clock: Clock
  database: DatabaseHandle
  storage: FileStorage
  /** The one queue of background work (conversions, tileset ingest …), fair between users. */
  jobs: JobQueue
  /** The one sweeper of leftover files: areas add their tasks; it runs at start-up and hourly. */
  sweeper: FolderSweeper
  repositories: {
    users: UsersRepository
    sessions: SessionsRepository
    notices: NoticesRepository
  } & AccountRepositories
  services: {
    auth: AuthService
    users: UsersService
    notices: NoticesService
  } & AccountServices
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's database, storage, repositories and services. */
    deps: ServerDeps
    /** The routes registered through defineRoute, for `GET /web/openapi.json`. */
    openApi: OpenApiRegistry
  }
}

/** Wires repositories and services on an open database and file store. */
export function createServerDeps(parts: {
  config: Config
  clock: Clock
  database: DatabaseHandle
  storage: FileStorage
  sweeper: FolderSweeper
}): ServerDeps {
  const { config, clock, database, storage, sweeper } = parts
  const users = createUsersRepository(database.db)
  const sessions = createSessionsRepository(database.db)
  const notices = createNoticesRepository(database.db)
  const auth = createAuthService({
    users,
    sessions,
    clock,
    policy: { idleMs: config.tokenIdleMs, lifetimeMs: config.tokenLifetimeMs },
  })
  const usersService = createUsersService({ users, clock })
  const accounts = createAccountDeps({
    config,
    clock,
    database,
    users,
    sessions,
    auth,
    usersService,
  })
  return {
    config,
    clock,
    database,
    storage,
    sweeper,
    // conversions take one core of two (the other serves requests); ingests mostly wait on disk
    jobs: createJobQueue({
      slots: { cpu: Math.max(1, Math.floor(availableParallelism() / 2)), io: 2 },
    }),
    repositories: { users, sessions, notices, ...accounts.repositories },
    services: {
      auth,
      users: usersService,
      notices: createNoticesService({ notices, clock }),
      ...accounts.services,
    },
  }
}
