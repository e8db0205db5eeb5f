import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/app-error'
import type { ProjectCaller } from '../../modules/projects/projects.service'
import type { AuthUser } from '../../modules/accounts/users.service'

/** The header a project token may travel in (decisions.md "project token"). */
export const projectTokenHeaderName = 'ProjectToken'

/** Where else than the body and the header a project token may be looked for. */
export interface ProjectTokenSources {
  /**
   * Also accept `?project_token=`: raw file GETs have no body, and an `<img>` or the engine's
   * fetch cannot always set headers. Off by default so envelope routes keep to body and header.
   */
  fromQuery?: boolean
}

/**
 * The project token a request carries: the body field first, then the `ProjectToken` header,
 * then (when asked) the query string. The body wins because a client that names a token
 * explicitly means that one over a header its HTTP layer may add to every call.
 */
export function projectTokenOf(
  request: FastifyRequest,
  bodyToken: string | undefined,
  sources: ProjectTokenSources = {},
): string | undefined {
  const header = request.headers[projectTokenHeaderName.toLowerCase()]
  const headerToken = Array.isArray(header) ? header[0] : header
  const query = sources.fromQuery
    ? (request.query as { project_token?: unknown } | undefined)?.project_token
    : undefined
  return bodyToken ?? headerToken ?? (typeof query === 'string' ? query : undefined)
}

/**
 * Who asks: the signed-in user, else the holder of a project token, else null. For reads that
 * anonymous visitors may still make (e.g. a project case), where the service decides.
 */
export function callerOrNullOf(
  request: FastifyRequest,
  user: AuthUser | null,
  bodyToken: string | undefined,
  sources: ProjectTokenSources = {},
): ProjectCaller | null {
  if (user) return user
  const token = projectTokenOf(request, bodyToken, sources)
  return token ? { projectToken: token } : null
}

/**
 * Who asks: the signed-in user, else the holder of a project token (body field or header), else
 * nobody ('2011'). Shared by every area whose reads a public preview may make.
 */
export function callerOf(
  request: FastifyRequest,
  user: AuthUser | null,
  bodyToken: string | undefined,
  sources: ProjectTokenSources = {},
): ProjectCaller {
  const caller = callerOrNullOf(request, user, bodyToken, sources)
  if (caller) return caller
  throw new AppError('sessionTimeout', 'auth.sessionTimeout')
}
