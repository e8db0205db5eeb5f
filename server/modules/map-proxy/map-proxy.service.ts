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

/** The envelope for a refused address: a scheme is bad input, a host or address is forbidden. */
export function refusalError(error: UpstreamRefusedError): AppError {
  return new AppError(
    error.reason === 'scheme' ? 'validation' : 'forbidden',
    error.message,
    undefined,
    {
      reason: error.reason,
    },
  )
}

function failureError(error: UpstreamFailure): AppError {
  const datum = { reason: error.reason, ...(error.status ? { upstreamStatus: error.status } : {}) }
  if (error.reason === 'tooLarge') return new AppError('tooLarge', error.message, undefined, datum)
  if (error.reason === 'status' && error.status === 404) {
    return new AppError('notFound', error.message, undefined, datum)
  }
  return new AppError('unavailable', error.message, undefined, datum)
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
      throw new AppError('validation', 'The map address is not a valid address.', undefined, {
        reason: 'scheme',
      })
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
      if (error instanceof UpstreamFailure) throw failureError(error)
      throw new AppError('unavailable', 'The map server could not be reached.', undefined, {
        reason: 'network',
      })
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
      kind === 'style'
        ? 'The address does not answer a MapLibre style (JSON).'
        : 'The map source does not answer TileJSON.',
      undefined,
      { reason: 'notStyle' },
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
        throw new AppError('forbidden', 'This map address is not valid (any more): reload the map.')
      }
      const kind = kindOfSegment(kindSegment)
      const origin = decodeOrigin(originSegment)
      if (kind === undefined || origin === undefined) {
        throw new AppError('notFound', 'No such map address.')
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
