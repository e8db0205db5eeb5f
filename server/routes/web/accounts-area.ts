import type { FastifyInstance } from 'fastify'
import { sweepAccountLeftovers } from '../../modules/accounts/account-maintenance'
import { registerRegisterRoutes } from './register'
import { registerRoleRoutes } from './role'
import { registerSessionEntryRoutes } from './session-entry'

/** How often the leftovers of sign-up, limits, tickets and guests are swept. */
const accountSweepIntervalMs = 3_600_000

/**
 * Sign-up, guest and ticket sessions, roles, and the hourly sweep of what they leave behind
 * (the core's `/login`, `/user/*` and `/notice/*` routes live in auth.ts, user.ts, notice.ts).
 */
export function registerAccountArea(app: FastifyInstance): void {
  registerRegisterRoutes(app)
  registerSessionEntryRoutes(app)
  registerRoleRoutes(app)

  let timer: NodeJS.Timeout | undefined
  const sweep = async () => {
    const { clock, repositories, services } = app.deps
    try {
      const removed = await sweepAccountLeftovers({
        rateLimits: repositories.rateLimits,
        codes: repositories.verificationCodes,
        tickets: repositories.sessionTickets,
        outbox: repositories.outbox,
        guests: services.guests,
        clock,
      })
      if (Object.values(removed).some((count) => count > 0)) {
        app.log.info({ removed }, 'account leftovers removed')
      }
    } catch (error) {
      app.log.warn({ err: error }, 'sweep of account leftovers failed')
    }
  }
  app.addHook('onReady', async () => {
    timer = setInterval(sweep, accountSweepIntervalMs)
    timer.unref()
  })
  app.addHook('onClose', async () => {
    if (timer !== undefined) clearInterval(timer)
  })
}
