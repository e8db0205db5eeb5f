import { AppError } from '../../http/app-error'
import type { Clock } from '../time/clock'
import type { UrlSigner } from '../access/url-signer'
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
  resolveUpstream,
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
  /** Most tiles one `keepRegion` may fetch. */
  keepRegionMaxTiles: number
}

/** An area and zoom range of an online style to keep in the cache. */
export interface MapRegion {
  styleUrl: string
  west: number
  south: number
  east: number
  north: number
  minZoom: number
  maxZoom: number
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
  /**
   * Fetches the style's tiles over the region into the disk cache (the style, its TileJSON and
   * every tile of every raster/vector source, zooms clamped to each source's range), so the
   * region is drawn offline later. Refused above `keepRegionMaxTiles` tiles.
   */
  keepRegion(region: MapRegion): Promise<{ tiles: number; failed: number; cacheBytes: number }>
}

/** Tile column and row ranges of an area at a zoom (Web Mercator, XYZ). */
export function tileRange(
  region: Pick<MapRegion, 'west' | 'south' | 'east' | 'north'>,
  zoom: number,
): { minX: number; maxX: number; minY: number; maxY: number } {
  const count = 2 ** zoom
  const column = (lng: number) =>
    Math.min(count - 1, Math.max(0, Math.floor(((lng + 180) / 360) * count)))
  const row = (lat: number) => {
    const radians = (lat * Math.PI) / 180
    const y = (1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2
    return Math.min(count - 1, Math.max(0, Math.floor(y * count)))
  }
  return {
    minX: column(region.west),
    maxX: column(region.east),
    minY: row(region.north),
    maxY: row(region.south),
  }
}

/** How many fetches `keepRegion` runs at once: polite to the map server, quick enough. */
const keepRegionConcurrency = 4

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
        grant: signer.grant(grantKey, null, clock.nowMs()),
      })
    },

    checkStyleUrl(styleUrl) {
      parseChecked(styleUrl)
    },

    async keepRegion(region) {
      const { resource: styleResource } = await load(parseChecked(region.styleUrl).href)
      const style = parseJson(styleResource, 'style')
      const sources = (
        typeof style.sources === 'object' && style.sources !== null
          ? Object.values(style.sources)
          : []
      ) as Record<string, unknown>[]
      // every tile template with its zoom range and row scheme
      const templates: { template: string; minZoom: number; maxZoom: number; isTms: boolean }[] = []
      for (const source of sources) {
        if (source.type !== 'raster' && source.type !== 'vector') continue
        let description: Record<string, unknown> = source
        let documentUrl = styleResource.url
        if (typeof source.url === 'string') {
          const tileJsonUrl = resolveUpstream(source.url, documentUrl)
          if (tileJsonUrl === undefined) continue
          description = parseJson((await load(tileJsonUrl)).resource, 'tilejson')
          documentUrl = tileJsonUrl
        }
        for (const tile of Array.isArray(description.tiles) ? description.tiles : []) {
          const template = typeof tile === 'string' ? resolveUpstream(tile, documentUrl) : undefined
          if (template === undefined) continue
          templates.push({
            template,
            minZoom: typeof description.minzoom === 'number' ? description.minzoom : 0,
            maxZoom: typeof description.maxzoom === 'number' ? description.maxzoom : 22,
            isTms: description.scheme === 'tms',
          })
        }
      }
      const addresses: string[] = []
      for (const { template, minZoom, maxZoom, isTms } of templates) {
        for (
          let zoom = Math.max(minZoom, region.minZoom);
          zoom <= Math.min(maxZoom, region.maxZoom);
          zoom++
        ) {
          const range = tileRange(region, zoom)
          const tileCount = (range.maxX - range.minX + 1) * (range.maxY - range.minY + 1)
          if (addresses.length + tileCount > settings.keepRegionMaxTiles) {
            throw new AppError('tooLarge', 'mapProxy.regionTooLarge', {
              maximum: settings.keepRegionMaxTiles,
            })
          }
          for (let x = range.minX; x <= range.maxX; x++) {
            for (let y = range.minY; y <= range.maxY; y++) {
              const row = isTms ? 2 ** zoom - 1 - y : y
              addresses.push(
                template
                  .replaceAll('{z}', String(zoom))
                  .replaceAll('{x}', String(x))
                  .replaceAll('{y}', String(row)),
              )
            }
          }
        }
      }
      let failed = 0
      let next = 0
      const worker = async () => {
        while (next < addresses.length) {
          const address = addresses[next++]!
          try {
            await load(address)
          } catch {
            failed++
          }
        }
      }
      await Promise.all(Array.from({ length: keepRegionConcurrency }, worker))
      return { tiles: addresses.length, failed, cacheBytes: await cache.sizeBytes() }
    },

    async serve({ grant, kindSegment, originSegment, rest, serverOrigin }) {
      if (signer.verify(grantKey, grant, clock.nowMs()) === undefined) {
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
      const base = { origin: serverOrigin, grant: signer.grant(grantKey, null, clock.nowMs()) }
      const json = parseJson(resource, kind)
      const rewritten =
        kind === 'style'
          ? rewriteStyle(json, resource.url, base)
          : rewriteTileJson(json, resource.url, base)
      return { contentType: 'application/json', body: JSON.stringify(rewritten), isStale }
    },
  }
}
