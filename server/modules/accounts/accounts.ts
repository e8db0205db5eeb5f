import type { Config } from '../../config'
import type { DatabaseHandle } from '../../plugins/db'
import type { AuthService } from '../auth/auth.service'
import type { Clock } from '../time/clock'
import { createGuestsService, type GuestsService } from './guests.service'
import type { MessageSender } from '../messaging/message-sender'
import { createOutboxRepository, type OutboxRepository } from '../messaging/outbox.repository'
import { createOutboxSender } from '../messaging/outbox-sender'
import { createWebhookSender } from '../messaging/webhook-sender'
import { createRateLimiter, type RateLimiter } from '../auth/rate-limiter'
import {
  createRateLimitsRepository,
  type RateLimitsRepository,
} from '../auth/rate-limits.repository'
import { createRegistrationService, type RegistrationService } from './registration.service'
import { createRolesRepository, type RolesRepository } from './roles.repository'
import { createRolesService, type RolesService } from './roles.service'
import {
  createSessionTicketsRepository,
  type SessionTicketsRepository,
} from '../auth/session-tickets.repository'
import {
  createSessionTicketsService,
  type SessionTicketsService,
} from '../auth/session-tickets.service'
import type { SessionsRepository } from '../auth/sessions.repository'
import { createSignInCodes, type SignInCodes } from '../auth/sign-in-codes'
import { createSignInGuard, type SignInGuard } from '../auth/sign-in-guard'
import { messageTexts } from '../messaging/message-texts'
import { timestampOf } from '../time/clock'
import { randomUUID } from 'node:crypto'
import { createUploadsRepository } from '../projects/uploads.repository'
import { createUserAccountsService, type UserAccountsService } from './user-accounts.service'
import type { UsersRepository } from './users.repository'
import type { UsersService } from './users.service'
import { createVerificationCodes } from '../auth/verification-codes'
import {
  createVerificationCodesRepository,
  type VerificationCodesRepository,
} from '../auth/verification-codes.repository'

/** Repositories of sign-up, limits, tickets and roles (part of `app.deps.repositories`). */
export interface AccountRepositories {
  outbox: OutboxRepository
  verificationCodes: VerificationCodesRepository
  rateLimits: RateLimitsRepository
  sessionTickets: SessionTicketsRepository
  roles: RolesRepository
}

/** Services of sign-up, limits, guests, tickets, roles and account management. */
export interface AccountServices {
  messages: MessageSender
  rateLimiter: RateLimiter
  signInGuard: SignInGuard
  signInCodes: SignInCodes
  registration: RegistrationService
  guests: GuestsService
  sessionTickets: SessionTicketsService
  roles: RolesService
  userAccounts: UserAccountsService
}

/**
 * Wires the account features on the core's users, sessions and auth (server/deps.ts spreads the
 * result into `app.deps`). Messages go to MESSAGE_WEBHOOK_URL when set, else to the outbox.
 */
export function createAccountDeps(parts: {
  config: Config
  clock: Clock
  database: DatabaseHandle
  users: UsersRepository
  sessions: SessionsRepository
  auth: AuthService
  usersService: UsersService
}): { repositories: AccountRepositories; services: AccountServices } {
  const { config, clock, database, users, sessions, auth, usersService } = parts
  const settings = config.accountSecurity
  const outbox = createOutboxRepository(database.db)
  const verificationCodes = createVerificationCodesRepository(database.db)
  const rateLimits = createRateLimitsRepository(database.db)
  const sessionTickets = createSessionTicketsRepository(database.db)
  const rolesRepository = createRolesRepository(database.db)
  const uploads = createUploadsRepository(database.db)

  const messages =
    settings.messageWebhookUrl === undefined
      ? createOutboxSender({ outbox, outboxFile: config.outboxFile, clock })
      : createWebhookSender({ url: settings.messageWebhookUrl })
  const rateLimiter = createRateLimiter({ rateLimits, clock })
  const signInGuard = createSignInGuard({
    rateLimits,
    limiter: rateLimiter,
    clock,
    settings,
    alertAdmins: async (accountName) => {
      const text = messageTexts.ko.guessingAlert(accountName)
      for (const admin of await users.findAdmins()) {
        if (admin.email) await messages.send({ channel: 'email', to: admin.email, text })
        else if (admin.tel) await messages.send({ channel: 'sms', to: admin.tel, text })
        else {
          // an admin with no phone or e-mail still finds it in the local outbox
          await outbox.insert({
            id: randomUUID(),
            channel: 'email',
            recipient: `admin:${admin.name}`,
            subject: null,
            text,
            created_at: timestampOf(clock.nowMs()),
          })
        }
      }
    },
  })
  const verificationCodeService = createVerificationCodes({ codes: verificationCodes, clock })
  const roles = createRolesService({ roles: rolesRepository, clock })
  return {
    repositories: {
      outbox,
      verificationCodes,
      rateLimits,
      sessionTickets,
      roles: rolesRepository,
    },
    services: {
      messages,
      rateLimiter,
      signInGuard,
      signInCodes: createSignInCodes({
        users,
        codes: verificationCodeService,
        limiter: rateLimiter,
        sender: messages,
        guard: signInGuard,
        settings,
      }),
      registration: createRegistrationService({
        users,
        usersService,
        sessions,
        auth,
        codes: verificationCodeService,
        limiter: rateLimiter,
        signInGuard,
        sender: messages,
        clock,
        settings,
      }),
      guests: createGuestsService({ users, auth, limiter: rateLimiter, clock, settings }),
      sessionTickets: createSessionTicketsService({
        tickets: sessionTickets,
        sessions,
        users,
        auth,
        clock,
      }),
      roles,
      userAccounts: createUserAccountsService({
        users,
        usersService,
        sessions,
        roles,
        signInGuard,
        findUpload: (uploadId) => uploads.findById(uploadId),
        clock,
      }),
    },
  }
}
