/**
 * Rewrites the addresses in a MapLibre style (and in the TileJSON its sources point to) so the
 * browser fetches everything through our proxy: the page's CSP allows only its own origin.
 * Kept pure so it is tested without a network.
 *
 * A proxied address keeps the upstream's path and query as they are, with the scheme and host
 * folded into one path segment, so MapLibre's own URL work still applies: `{z}/{x}/{y}` and
 * `{fontstack}/{range}` are filled in, and sprite suffixes (`@2x.json`) are appended to the path.
 */

/** How the proxy treats what it fetched. */
export type ProxiedKind = 'style' | 'tilejson' | 'raw'

const kindSegments: Record<ProxiedKind, string> = { style: 's', tilejson: 't', raw: 'r' }

/** The kind a path segment names, or undefined. */
export function kindOfSegment(segment: string): ProxiedKind | undefined {
  for (const [kind, short] of Object.entries(kindSegments)) {
    if (short === segment) return kind as ProxiedKind
  }
  return undefined
}

/** Where proxied addresses point: our server's origin, the route prefix and a grant. */
export interface ProxyBase {
  /** `https://twin.example.com` — absolute, as MapLibre's workers need. */
  origin: string
  /** The signed grant that makes the proxy answer (server/modules/tilesets/served-files.ts). */
  grant: string
}

/** The route prefix of every proxied address. */
export const mapProxyPrefix = '/web/mapproxy'

const absolutePattern = /^(https?):\/\/([^/?#]+)([^#]*)/i

/** `https://host:port` as one path segment. */
export function encodeOrigin(origin: string): string {
  return Buffer.from(origin.toLowerCase()).toString('base64url')
}

/** The upstream origin of a path segment, or undefined when it is not one. */
export function decodeOrigin(segment: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(segment)) return undefined
  const origin = Buffer.from(segment, 'base64url').toString('utf8')
  return /^https?:\/\/[^/?#\s@]+$/.test(origin) ? origin : undefined
}

/**
 * The absolute upstream address of a style reference, resolved against the document it came
 * from; template braces stay as they are. Undefined for what the proxy cannot carry
 * (`mapbox://`, `pmtiles://`, `data:` …): those are left to fail in the browser, visibly.
 */
export function resolveUpstream(reference: string, documentUrl: string): string | undefined {
  if (absolutePattern.test(reference)) return reference
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return undefined
  try {
    return new URL(reference, documentUrl).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}')
  } catch {
    return undefined
  }
}

/** The proxied address of an absolute upstream http(s) address. */
export function proxiedAddress(upstream: string, kind: ProxiedKind, base: ProxyBase): string {
  const match = absolutePattern.exec(upstream)
  if (!match) return upstream
  const origin = `${match[1]!.toLowerCase()}://${match[2]!}`
  const rest = match[3] === '' ? '/' : match[3]!
  const path = rest.startsWith('/') ? rest : `/${rest}`
  return `${base.origin}${mapProxyPrefix}/${base.grant}/${kindSegments[kind]}/${encodeOrigin(origin)}${path}`
}

function rewrite(
  reference: unknown,
  documentUrl: string,
  kind: ProxiedKind,
  base: ProxyBase,
): unknown {
  if (typeof reference !== 'string') return reference
  const upstream = resolveUpstream(reference, documentUrl)
  return upstream === undefined ? reference : proxiedAddress(upstream, kind, base)
}

type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The style with every sprite, glyph, source, tile, GeoJSON and image address going through the
 * proxy; relative addresses are resolved against `styleUrl` (the address it was fetched from).
 */
export function rewriteStyle(style: JsonObject, styleUrl: string, base: ProxyBase): JsonObject {
  const out: JsonObject = { ...style }
  if (typeof style.sprite === 'string') {
    out.sprite = rewrite(style.sprite, styleUrl, 'raw', base)
  } else if (Array.isArray(style.sprite)) {
    out.sprite = style.sprite.map((entry) =>
      isObject(entry) ? { ...entry, url: rewrite(entry.url, styleUrl, 'raw', base) } : entry,
    )
  }
  if (typeof style.glyphs === 'string') out.glyphs = rewrite(style.glyphs, styleUrl, 'raw', base)
  if (isObject(style.sources)) {
    const sources: JsonObject = {}
    for (const [id, source] of Object.entries(style.sources)) {
      sources[id] = isObject(source) ? rewriteSource(source, styleUrl, base) : source
    }
    out.sources = sources
  }
  return out
}

function rewriteSource(source: JsonObject, documentUrl: string, base: ProxyBase): JsonObject {
  const out: JsonObject = { ...source }
  if (typeof source.url === 'string') {
    // vector/raster/raster-dem: a TileJSON; image: the picture itself
    out.url = rewrite(source.url, documentUrl, source.type === 'image' ? 'raw' : 'tilejson', base)
  }
  if (Array.isArray(source.tiles)) {
    out.tiles = source.tiles.map((tile) => rewrite(tile, documentUrl, 'raw', base))
  }
  if (Array.isArray(source.urls)) {
    out.urls = source.urls.map((address) => rewrite(address, documentUrl, 'raw', base))
  }
  if (source.type === 'geojson' && typeof source.data === 'string') {
    out.data = rewrite(source.data, documentUrl, 'raw', base)
  }
  return out
}

/** A TileJSON with its tile addresses going through the proxy. */
export function rewriteTileJson(
  tileJson: JsonObject,
  tileJsonUrl: string,
  base: ProxyBase,
): JsonObject {
  if (!Array.isArray(tileJson.tiles)) return tileJson
  return {
    ...tileJson,
    tiles: tileJson.tiles.map((tile) => rewrite(tile, tileJsonUrl, 'raw', base)),
  }
}

/** Every tile address template of a rewritten style's sources, for keeping a region offline. */
export function tileTemplatesOf(style: JsonObject): { sourceId: string; tiles: string[] }[] {
  if (!isObject(style.sources)) return []
  const found: { sourceId: string; tiles: string[] }[] = []
  for (const [sourceId, source] of Object.entries(style.sources)) {
    if (isObject(source) && Array.isArray(source.tiles)) {
      found.push({
        sourceId,
        tiles: source.tiles.filter((t): t is string => typeof t === 'string'),
      })
    }
  }
  return found
}
