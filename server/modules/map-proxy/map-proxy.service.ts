import { AppError } from '../../http/app-error'
import type { Clock } from '../clock'
import type { UrlSigner } from '../tilesets/served-files'
import {
  checkUpstreamUrl,
  type Resolver,
  systemResolver,
  UpstreamRefusedError,
  type UpstreamPolicy,
} from './address-guard'
import { type CachedResource, createMapCache, type MapCache } from './map-cache'
import {
  decodeOrigin,
  kindOfSegment,
  type ProxiedKind,
  proxiedAddress,
  rewriteStyle,
  rewriteTileJson,
} from './style-rewrite'
import { fetchUpstream, UpstreamFailure } from './upstream-fetch'

/** The proxy's settings (docs/configuration.md "Online map styles"). */
export interface MapProxySettings extends UpstreamPolicy {
  timeoutMs: number
  responseLimitBytes: number
  cacheDirectory: string
  cacheLimitBytes: number
  /** A cached answer younger than this is served without asking upstream. */
  cacheFreshMs: number
}

/** What the proxy route sends back. */
export interface ProxiedResource {
  contentType: string
  body: Buffer | string
  /** True when upstream failed and an older cached copy was served instead. */
  isStale: boolean
}

/** The map proxy: online styles, sprites, glyphs and tiles fetched and cached by the server. */
export interface MapProxy {
  /**
   * The proxied (relative, signed) address of an online style, or an AppError when the address
   * is not http(s) or its host is not allowed.
   */
  styleAddress(styleUrl: string): string
  /** Throws the AppError a style address would be refused with; nothing when it is usable. */
  checkStyleUrl(styleUrl: string): void
  /**
   * Answers `GET /web/mapproxy/<grant>/<kind>/<origin><rest>`; `serverOrigin` is this server's
   * origin as the browser sees it (rewritten styles carry absolute addresses).
   */
  serve(request: {
    grant: string
    kindSegment: string
    originSegment: string
    rest: string
    serverOrigin: string
  }): Promise<ProxiedResource>
}

const grantKey = 'mapproxy'

/** The envelope for a refused address: a bad address is bad input, a host or address forbidden. */
export function refusalError(error: UpstreamRefusedError): AppError {
  const extra = { datum: { reason: error.reason } }
  switch (error.reason) {
    case 'scheme':
      return new AppError('validation', 'mapProxy.notHttp', {}, extra)
    case 'credentials':
      return new AppError('validation', 'mapProxy.credentials', {}, extra)
    case 'host':
      return new AppError('forbidden', 'mapProxy.hostNotAllowed', { host: error.host ?? '' }, extra)
    case 'privateAddress':
      return new AppError('forbidden', 'mapProxy.privateAddress', {}, extra)
  }
}

function failureError(error: UpstreamFailure, settings: MapProxySettings): AppError {
  const extra = {
    datum: { reason: error.reason, ...(error.status ? { upstreamStatus: error.status } : {}) },
  }
  switch (error.reason) {
    case 'tooLarge':
      return new AppError(
        'tooLarge',
        'mapProxy.tooLarge',
        { limitKb: Math.round(settings.responseLimitBytes / 1024) },
        extra,
      )
    case 'timeout':
      return new AppError(
        'unavailable',
        'mapProxy.timeout',
        { timeoutMs: settings.timeoutMs },
        extra,
      )
    case 'redirects':
      return new AppError('unavailable', 'mapProxy.redirects', {}, extra)
    case 'status':
      return new AppError(
        error.status === 404 ? 'notFound' : 'unavailable',
        'mapProxy.upstreamStatus',
        { status: error.status ?? 0 },
        extra,
      )
    case 'network':
      return new AppError('unavailable', 'mapProxy.unreachable', {}, extra)
  }
}

/** Builds the proxy; `resolver` is for tests that need a name to resolve to a fixed address. */
export function createMapProxy(dependencies: {
  settings: MapProxySettings
  signer: UrlSigner
  clock: Clock
  resolver?: Resolver
  cache?: MapCache
}): MapProxy {
  const { settings, signer, clock } = dependencies
  const resolver = dependencies.resolver ?? systemResolver
  const cache =
    dependencies.cache ?? createMapCache(settings.cacheDirectory, settings.cacheLimitBytes)
  const inFlight = new Map<string, Promise<CachedResource>>()

  // Addresses are always checked when connecting; `checkAddressLiteral` refuses a private
  // address literal up front too (saving a style), or leaves that to the fetch (handing out a
  // configured style's proxied address, which then fails visibly where it is drawn).
  const parseChecked = (address: string, checkAddressLiteral = true): URL => {
    let url: URL
    try {
      url = new URL(address)
    } catch {
      throw new AppError(
        'validation',
        'mapProxy.invalidAddress',
        {},
        { datum: { reason: 'scheme' } },
      )
    }
    try {
      checkUpstreamUrl(url, settings, { checkAddressLiteral })
    } catch (error) {
      if (error instanceof UpstreamRefusedError) throw refusalError(error)
      throw error
    }
    return url
  }

  const fetchFresh = (address: string, url: URL): Promise<CachedResource> => {
    let pending = inFlight.get(address)
    if (!pending) {
      pending = fetchUpstream(
        url,
        settings,
        { timeoutMs: settings.timeoutMs, maxBytes: settings.responseLimitBytes, maxRedirects: 5 },
        resolver,
      )
        .then(async (answer) => {
          const resource: CachedResource = {
            url: address,
            contentType: answer.contentType,
            body: answer.body,
            storedAtMs: clock.nowMs(),
          }
          await cache.put(resource)
          return resource
        })
        .finally(() => inFlight.delete(address))
      inFlight.set(address, pending)
    }
    return pending
  }

  const load = async (address: string): Promise<{ resource: CachedResource; isStale: boolean }> => {
    const url = parseChecked(address)
    const cached = await cache.get(address)
    if (cached && clock.nowMs() - cached.storedAtMs < settings.cacheFreshMs) {
      return { resource: cached, isStale: false }
    }
    try {
      return { resource: await fetchFresh(address, url), isStale: false }
    } catch (error) {
      // offline, or the upstream is down: what was seen before is still worth showing
      if (cached && !(error instanceof UpstreamRefusedError))
        return { resource: cached, isStale: true }
      if (error instanceof UpstreamRefusedError) throw refusalError(error)
      if (error instanceof UpstreamFailure) throw failureError(error, settings)
      throw new AppError(
        'unavailable',
        'mapProxy.unreachable',
        {},
        { datum: { reason: 'network' } },
      )
    }
  }

  const parseJson = (resource: CachedResource, kind: ProxiedKind): Record<string, unknown> => {
    try {
      const value = JSON.parse(resource.body.toString('utf8')) as unknown
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        return value as Record<string, unknown>
      }
    } catch {
      // falls through to the refusal below
    }
    throw new AppError(
      'unsupportedFile',
      kind === 'style' ? 'mapProxy.notStyle' : 'mapProxy.notTileJson',
      {},
      { datum: { reason: 'notStyle' } },
    )
  }

  return {
    styleAddress(styleUrl) {
      parseChecked(styleUrl, false)
      return proxiedAddress(styleUrl, 'style', {
        origin: '',
        grant: signer.grant(grantKey, clock.nowMs()),
      })
    },

    checkStyleUrl(styleUrl) {
      parseChecked(styleUrl)
    },

    async serve({ grant, kindSegment, originSegment, rest, serverOrigin }) {
      if (!signer.verify(grantKey, grant, clock.nowMs())) {
        throw new AppError('forbidden', 'mapProxy.grantInvalid')
      }
      const kind = kindOfSegment(kindSegment)
      const origin = decodeOrigin(originSegment)
      if (kind === undefined || origin === undefined) {
        throw new AppError('notFound', 'mapProxy.notFound')
      }
      const address = `${origin}${rest.startsWith('/') ? rest : `/${rest}`}`
      const { resource, isStale } = await load(address)
      if (kind === 'raw') return { contentType: resource.contentType, body: resource.body, isStale }
      const base = { origin: serverOrigin, grant: signer.grant(grantKey, clock.nowMs()) }
      const json = parseJson(resource, kind)
      const rewritten =
        kind === 'style'
          ? rewriteStyle(json, resource.url, base)
          : rewriteTileJson(json, resource.url, base)
      return { contentType: 'application/json', body: JSON.stringify(rewritten), isStale }
    },
  }
}
