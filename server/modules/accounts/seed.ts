import type { Config } from '../../config'
import { generatePassword } from '../auth/passwords'
import type { UsersRepository } from './users.repository'
import type { UsersService } from './users.service'

/** The demo editor account created with a new database (docs/configuration.md). */
export const demoAccount = { name: 'demo', password: 'demo-twinscape-2026' } as const

/** What the seed did. */
export interface SeedResult {
  /** False when the database already had users and nothing was created. */
  hasSeeded: boolean
  /** Set only when the admin's password was generated: it must be shown to the operator once. */
  generatedAdminPassword?: string
}

/**
 * Fills an empty database: the first admin (ADMIN_NAME / ADMIN_PASSWORD, or a generated
 * password) and, unless SEED_DEMO_USER is false, the demo editor. Does nothing once any user
 * exists, so restarting never resets a password.
 */
export async function seedDatabase(dependencies: {
  config: Pick<Config, 'adminName' | 'adminPassword' | 'seedDemoUser'>
  users: UsersRepository
  usersService: UsersService
}): Promise<SeedResult> {
  const { config, users, usersService } = dependencies
  if ((await users.countAll()) > 0) return { hasSeeded: false }
  const adminPassword = config.adminPassword ?? generatePassword()
  await usersService.createUser({ name: config.adminName, password: adminPassword, role: 'admin' })
  if (config.seedDemoUser && config.adminName !== demoAccount.name) {
    await usersService.createUser({ ...demoAccount, role: 'editor', nickname: 'Demo' })
  }
  return config.adminPassword === undefined
    ? { hasSeeded: true, generatedAdminPassword: adminPassword }
    : { hasSeeded: true }
}
