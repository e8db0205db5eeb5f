import type { z } from 'zod'

/** Who may call a route: anyone, any signed-in user (guests too), editors and admins, or admins. */
export type RouteAuth = 'public' | 'user' | 'editor' | 'admin'

/** HTTP methods a /web/ route may use. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One /web/ endpoint as both halves see it: the server's `defineRoute` registers and documents
 * it from this, the web client calls it with input and answer types inferred from it. The
 * schemas are written once, here; the handler and server-only limits stay on the server.
 */
export interface RouteDescriptor<
  Datum extends z.ZodType = z.ZodType,
  Auth extends RouteAuth = RouteAuth,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
> {
  readonly method: RouteMethod
  /** The full path, e.g. '/web/user/findUserName'. */
  readonly path: `/web/${string}`
  readonly auth: Auth
  /** One line for the OpenAPI document. */
  readonly summary: string
  readonly description?: string
  /** OpenAPI tags; defaults to the path segment after /web/. */
  readonly tags?: readonly string[]
  /**
   * Body schema (JSON, form-encoded or multipart fields). Form values are strings: use
   * form-fields.ts (`formNumber`, `formBoolean`, `formList`) for non-string fields.
   */
  readonly body?: Body
  /** Query-string schema; values are strings, as for forms. */
  readonly query?: Query
  /** Schema of the answer's datum. */
  readonly datum: Datum
  /** Multipart fields that may carry files; set only for upload routes. */
  readonly fileFields?: readonly string[]
}

/**
 * Declares one endpoint; only gives the descriptor its precise type (a route without `body`
 * takes no body, and so on).
 *
 * ```ts
 * export const noticeRoutes = {
 *   queryNotices: webRoute({
 *     method: 'POST', path: '/web/notice/queryNotices', auth: 'user',
 *     summary: 'The newest notices', datum: queryNoticesDatumSchema,
 *   }),
 * }
 * ```
 */
export function webRoute<
  Datum extends z.ZodType,
  Auth extends RouteAuth,
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
>(
  descriptor: RouteDescriptor<Datum, Auth, Body, Query>,
): RouteDescriptor<Datum, Auth, Body, Query> {
  return descriptor
}

/** What a route's body schema accepts (the client's side); `undefined` for routes without one. */
export type RouteBodyInput<Route extends RouteDescriptor> =
  Route extends RouteDescriptor<z.ZodType, RouteAuth, infer Body, z.ZodType | undefined>
    ? Body extends z.ZodType
      ? z.input<Body>
      : undefined
    : never

/** What a route's query schema accepts; `undefined` for routes without one. */
export type RouteQueryInput<Route extends RouteDescriptor> =
  Route extends RouteDescriptor<z.ZodType, RouteAuth, z.ZodType | undefined, infer Query>
    ? Query extends z.ZodType
      ? z.input<Query>
      : undefined
    : never

/** The datum a route answers, as the client reads it. */
export type RouteDatum<Route extends RouteDescriptor> = z.output<Route['datum']>
