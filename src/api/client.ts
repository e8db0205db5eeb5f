import { tokenHeaderName } from '../../contract/auth'
import type { Envelope } from '../../contract/envelope'
import { OK_CODE, OVERTIME_CODE } from '../../contract/errors'
import type {
  RouteBodyInput,
  RouteDatum,
  RouteDescriptor,
  RouteQueryInput,
} from '../../contract/route'

/** SPEC §9 "Request time-out". */
export const requestTimeoutMs = 600_000

/** Why a call failed: the server said no, or no usable answer arrived. */
export type ApiFailureReason = 'server' | 'network' | 'timeout' | 'aborted'

/**
 * A failed call. When the server answered, `envelope` is its body (SPEC §7 "Request failures
 * reject with the server response body") and `code`/`message`/`datum` mirror it, so callers can
 * treat the rejection as the envelope.
 */
export class ApiError extends Error {
  readonly code: string
  readonly datum: unknown
  readonly envelope: Envelope | null
  readonly httpStatus: number | null
  readonly reason: ApiFailureReason

  constructor(init: {
    reason: ApiFailureReason
    envelope: Envelope | null
    httpStatus: number | null
    fallbackMessage: string
  }) {
    super(init.envelope?.message || init.fallbackMessage)
    this.name = 'ApiError'
    this.reason = init.reason
    this.envelope = init.envelope
    this.httpStatus = init.httpStatus
    this.code = init.envelope?.code ?? ''
    this.datum = init.envelope?.datum ?? null
  }
}

/** Body encodings the server accepts (SPEC §7). */
export type BodyEncoding = 'form' | 'json'

/** Per-call options. */
export interface RequestOptions {
  /** Form-encoded unless asked otherwise (SPEC §7 "Most are POST with form-encoded bodies"). */
  encoding?: BodyEncoding
  /** Lets a screen cancel a call it no longer needs. */
  signal?: AbortSignal
}

/** How a client is wired into the app; tests build their own. */
export interface ApiClientOptions {
  /** Relative base so the console works behind any host or proxy. */
  baseUrl?: string
  timeoutMs?: number
  /** The user token to send in the `Token` header, or null when signed out. */
  getToken: () => string | null
  /**
   * A project token to send in the `ProjectToken` header (a public preview opened without
   * signing in), or null. The server reads it where no user token opens the project.
   */
  getProjectToken?: () => string | null
  /**
   * Told of every '2011' answer: the client only reports it, the session (src/state/) reacts
   * and makes sure it acts once.
   */
  onSessionTimeout: () => void
}

/** A request body: plain data, a ready FormData (multipart), or nothing. */
export type RequestBody = Record<string, unknown> | readonly unknown[] | FormData | undefined

/**
 * Flattens plain data into form fields: nested objects become `a.b` (decisions.md allows nested
 * keys like `label.labelKey`), arrays of scalars repeat their key, arrays of objects use
 * `a[0].b`; null and undefined fields are left out rather than sent as the text "null".
 */
export function encodeForm(body: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams()
  const append = (key: string, value: unknown): void => {
    if (value === null || value === undefined) return
    if (value instanceof Date) params.append(key, value.toISOString())
    else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (item !== null && typeof item === 'object' && !(item instanceof Date))
          append(`${key}[${index}]`, item)
        else append(key, item)
      })
    } else if (typeof value === 'object') {
      for (const [childKey, childValue] of Object.entries(value)) {
        append(`${key}.${childKey}`, childValue)
      }
    } else params.append(key, String(value))
  }
  for (const [key, value] of Object.entries(body)) append(key, value)
  return params
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    value !== null &&
    typeof value === 'object' &&
    'code' in value &&
    typeof (value as { code: unknown }).code === 'string'
  )
}

/** What a call of `route` sends: its query for a route with one, else its body. */
export type CallInput<Route extends RouteDescriptor> =
  RouteQueryInput<Route> extends undefined ? RouteBodyInput<Route> : RouteQueryInput<Route>

/** The arguments after the descriptor: the input (left out when the route takes none), options. */
export type CallArguments<Route extends RouteDescriptor> =
  CallInput<Route> extends undefined
    ? [input?: undefined, options?: RequestOptions]
    : [input: CallInput<Route>, options?: RequestOptions]

/**
 * The typed `/web/` client: one call per endpoint of the route table (contract/routes.ts),
 * whose input and answer types come from the endpoint's descriptor. Each call resolves with the
 * envelope of an OK answer and rejects with an {@link ApiError}.
 */
export interface ApiClient {
  /**
   * Calls `route` with its body (form-encoded unless `encoding: 'json'`; a bare list goes as
   * JSON) or, for a route with a query, its query string.
   */
  call<Route extends RouteDescriptor>(
    route: Route,
    ...args: CallArguments<Route>
  ): Promise<Envelope<RouteDatum<Route>>>
  /** Posts a multipart form (files and fields) to an upload route. */
  upload<Route extends RouteDescriptor>(
    route: Route,
    form: FormData,
    options?: RequestOptions,
  ): Promise<Envelope<RouteDatum<Route>>>
}

/** The path of `route` below the client's base ('/web/login' → '/login'). */
export function pathBelowWeb(route: Pick<RouteDescriptor, 'path'>): string {
  return route.path.slice('/web'.length)
}

/** A query object as URL text; null and undefined values are left out. */
function queryText(query: unknown): string {
  if (query === undefined || query === null) return ''
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value !== null && value !== undefined) params.append(key, String(value))
  }
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

/** Builds a client; `fetch` is looked up at call time so it always uses the current global. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? '/web'
  const timeoutMs = options.timeoutMs ?? requestTimeoutMs

  async function send<Datum>(
    method: RouteDescriptor['method'],
    path: string,
    body: RequestBody,
    requestOptions: RequestOptions,
  ): Promise<Envelope<Datum>> {
    const headers = new Headers({ Accept: 'application/json' })
    const token = options.getToken()
    if (token) headers.set(tokenHeaderName, token)
    const projectToken = options.getProjectToken?.()
    if (projectToken) headers.set('ProjectToken', projectToken)

    let payload: BodyInit | undefined
    if (body instanceof FormData) {
      // The browser sets the multipart boundary itself; setting Content-Type here would break it.
      payload = body
    } else if (method !== 'GET') {
      // A bare array has no field names to form-encode (e.g. addOrder's list of ids): JSON it is.
      if (requestOptions.encoding === 'json' || Array.isArray(body)) {
        headers.set('Content-Type', 'application/json')
        payload = JSON.stringify(body ?? {})
      } else {
        headers.set('Content-Type', 'application/x-www-form-urlencoded;charset=UTF-8')
        payload = encodeForm((body ?? {}) as Record<string, unknown>)
      }
    }

    const timeoutController = new AbortController()
    let hasTimedOut = false
    const timer = setTimeout(() => {
      hasTimedOut = true
      timeoutController.abort()
    }, timeoutMs)
    const signals = [timeoutController.signal]
    if (requestOptions.signal) signals.push(requestOptions.signal)
    const signal = signals.length > 1 ? AbortSignal.any(signals) : timeoutController.signal

    let response: Response
    try {
      response = await globalThis.fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: payload,
        signal,
        credentials: 'same-origin',
      })
    } catch (cause) {
      clearTimeout(timer)
      const reason: ApiFailureReason = hasTimedOut
        ? 'timeout'
        : requestOptions.signal?.aborted
          ? 'aborted'
          : 'network'
      throw new ApiError({
        reason,
        envelope: null,
        httpStatus: null,
        fallbackMessage: cause instanceof Error ? cause.message : String(cause),
      })
    }

    let parsed: unknown = null
    try {
      parsed = await response.json()
    } catch {
      // A proxy error page or an empty body: handled below as a failure without an envelope.
    } finally {
      clearTimeout(timer)
    }

    if (!isEnvelope(parsed)) {
      throw new ApiError({
        reason: hasTimedOut ? 'timeout' : 'network',
        envelope: null,
        httpStatus: response.status,
        fallbackMessage: `HTTP ${response.status} ${response.statusText}`.trim(),
      })
    }
    if (parsed.code === OVERTIME_CODE) options.onSessionTimeout()
    if (parsed.code !== OK_CODE || !response.ok) {
      throw new ApiError({
        reason: 'server',
        envelope: parsed,
        httpStatus: response.status,
        fallbackMessage: `HTTP ${response.status}`,
      })
    }
    return parsed as Envelope<Datum>
  }

  return {
    call: (route, ...[input, requestOptions = {}]) => {
      const path = pathBelowWeb(route)
      if (route.method === 'GET') {
        return send('GET', `${path}${queryText(input)}`, undefined, requestOptions)
      }
      return send(route.method, path, input as RequestBody, requestOptions)
    },
    upload: (route, form, requestOptions = {}) =>
      send(route.method, pathBelowWeb(route), form, requestOptions),
  }
}
