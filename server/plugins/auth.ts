import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../http/app-error'
import type { RouteAuth } from '../http/openapi'
import type { AuthService } from '../modules/auth/auth.service'
import type { AuthUser } from '../modules/accounts/users.service'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null (server/plugins/auth.ts). */
    user: AuthUser | null
    /** The session the token belongs to, or null; `/logout` revokes it. */
    sessionId: string | null
  }
}

/** The message of code '2011' (SPEC §9 "overtime"). */

const rolesAllowed: Record<Exclude<RouteAuth, 'public'>, ReadonlySet<AuthUser['role']>> = {
  user: new Set(['admin', 'editor', 'guest']),
  editor: new Set(['admin', 'editor']),
  admin: new Set(['admin']),
}

/** The token of a request: the `Token` header (SPEC §6). */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.token
  const value = Array.isArray(header) ? header[0] : header
  return value === undefined || value === '' ? undefined : value
}

/**
 * Resolves the `Token` header of every route that declares `config.auth` (defineRoute does) into
 * `request.user`, before the body is read, so an unauthorised upload is refused unread.
 * A route that needs a user answers '2011' without a valid token, and `forbidden` for a role
 * below the route's. On public routes a bad token is ignored.
 */
export function registerAuthHook(app: FastifyInstance, auth: AuthService): void {
  app.decorateRequest('user', null)
  app.decorateRequest('sessionId', null)
  app.addHook('onRequest', async (request) => {
    const required = request.routeOptions.config.auth
    if (required === undefined) return
    const token = tokenOf(request)
    if (token !== undefined) {
      const session = await auth.authenticate(token)
      if (session !== undefined) {
        request.user = session.user
        request.sessionId = session.sessionId
      }
    }
    if (required === 'public') return
    if (request.user === null) throw new AppError('sessionTimeout', 'auth.sessionTimeout')
    if (!rolesAllowed[required].has(request.user.role)) {
      throw new AppError('forbidden', 'auth.notAllowed')
    }
  })
}
