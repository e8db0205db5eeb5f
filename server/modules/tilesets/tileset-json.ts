import { gunzipSync } from 'node:zlib'
import type { TileFormat, TilesetTopTile } from '../../../contract/city'
import { formatServerMessage, type ServerMessage, serverMessage } from '../../../contract/messages'

/** A tileset JSON file that is not one, refused with a catalogue message. */
export class TilesetJsonError extends Error {
  override name = 'TilesetJsonError'

  /** `englishText` says more than the template (e.g. the parser's reason), for logs only. */
  constructor(
    readonly serverMessage: ServerMessage,
    englishText = formatServerMessage(serverMessage.id, serverMessage.params),
  ) {
    super(englishText)
  }
}

/** Formats told apart by their first bytes (3D Tiles spec "magic" fields, glTF binary). */
const magicFormats: ReadonlyArray<[string, TileFormat]> = [
  ['b3dm', 'b3dm'],
  ['i3dm', 'i3dm'],
  ['pnts', 'pnts'],
  ['cmpt', 'cmpt'],
  ['glTF', 'glb'],
  ['subt', 'subtree'],
]

/** The content format the first bytes show (gzip already peeled off), or undefined. */
export function detectTileFormat(head: Uint8Array): TileFormat | undefined {
  if (head.byteLength >= 4) {
    const magic = String.fromCharCode(head[0]!, head[1]!, head[2]!, head[3]!)
    for (const [text, format] of magicFormats) if (magic === text) return format
  }
  // JSON: optional UTF-8 byte-order mark and white space, then an object or array
  let index = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0
  while (index < head.byteLength && [0x20, 0x09, 0x0a, 0x0d].includes(head[index]!)) index++
  if (head[index] === 0x7b || head[index] === 0x5b) return 'json'
  return undefined
}

/** True for bytes that start like gzip (RFC 1952 magic 1f 8b). */
export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b
}

/** The format a file's extension promises, for the extensions whose magic is checked. */
export function expectedFormatOf(path: string): TileFormat | undefined {
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase()
  switch (extension) {
    case 'b3dm':
    case 'i3dm':
    case 'pnts':
    case 'cmpt':
    case 'glb':
    case 'subtree':
    case 'json':
      return extension
    default:
      return undefined
  }
}

/** The start of a gzip-on-disk file inflated, to see the real content's magic. */
export function peelGzipHead(head: Uint8Array): Uint8Array {
  try {
    return gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH: a prefix is enough */ })
  } catch {
    return new Uint8Array()
  }
}

/** What a tileset JSON says about the tileset as a whole. */
export interface TilesetSummary {
  assetVersion: string
  /** The root tile has a `transform` or a `region` volume. */
  isGeoreferenced: boolean
  topTiles: TilesetTopTile[]
}

/** Parses tileset JSON bytes (gzip-on-disk allowed); refuses anything without asset.version and root. */
export function parseTilesetJson(bytes: Uint8Array, path: string): Record<string, unknown> {
  const text = Buffer.from(isGzip(bytes) ? gunzipSafe(bytes, path) : bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new TilesetJsonError(
      serverMessage('tileset.notJson', { path }),
      `${path} is not valid JSON: ${(error as Error).message}`,
    )
  }
  if (!isObject(value)) throw new TilesetJsonError(serverMessage('tileset.notObject', { path }))
  const asset = value.asset
  if (!isObject(asset) || typeof asset.version !== 'string') {
    throw new TilesetJsonError(serverMessage('tileset.noAssetVersion', { path }))
  }
  if (!isObject(value.root)) {
    throw new TilesetJsonError(serverMessage('tileset.noRootTile', { path }))
  }
  return value
}

function gunzipSafe(bytes: Uint8Array, path: string): Buffer {
  try {
    return gunzipSync(bytes)
  } catch (error) {
    throw new TilesetJsonError(
      serverMessage('tileset.gzipBroken', { path }),
      `${path} is gzip-compressed but does not inflate: ${(error as Error).message}`,
    )
  }
}

/** The summary of a parsed root tileset JSON. */
export function summarizeTileset(
  tileset: Record<string, unknown>,
  maxTopTiles: number,
): TilesetSummary {
  const root = tileset.root as Record<string, unknown>
  const volume = isObject(root.boundingVolume) ? root.boundingVolume : undefined
  const children = Array.isArray(root.children) ? root.children : []
  const topTiles: TilesetTopTile[] = children.slice(0, maxTopTiles).map((child, index) => {
    const tile = isObject(child) ? child : {}
    const uri = firstContentUri(tile)
    const fileName = uri?.split('?')[0]?.split('/').filter(Boolean).pop()
    return {
      index,
      name: fileName ? decodeSafe(fileName) : `Tile ${index + 1}`,
      content_uri: uri ?? null,
      bounding_volume: isObject(tile.boundingVolume) ? tile.boundingVolume : null,
    }
  })
  return {
    assetVersion: String((tileset.asset as Record<string, unknown>).version),
    isGeoreferenced:
      Array.isArray(root.transform) || isObject(volume?.region) || Array.isArray(volume?.region),
    topTiles,
  }
}

/** One content reference of a tileset JSON. */
export interface ContentReference {
  /** As written in the JSON. */
  uri: string
  /** Resolved inside the archive, or undefined for inline `data:` URIs. */
  archivePath: string | undefined
  /** True for implicit-tiling templates (`{level}`…): checked for escaping, not for existence. */
  isTemplate: boolean
}

/**
 * Every content URI of a tileset JSON (tile `content.uri`, the pre-1.0 `content.url`,
 * `contents[]`, implicit-tiling subtree and content templates), resolved against the JSON's
 * own folder. Throws a TilesetJsonError naming the first URI that leaves the archive (an
 * absolute path, `..` past the top, another host): such a tileset would read files that are
 * not its own, or depend on a server we do not control.
 */
export function collectContentReferences(
  tileset: Record<string, unknown>,
  jsonPath: string,
  maxTiles = 10_000_000,
): ContentReference[] {
  const baseFolder = jsonPath.includes('/') ? jsonPath.slice(0, jsonPath.lastIndexOf('/')) : ''
  const references: ContentReference[] = []
  const add = (uri: unknown, isTemplate: boolean) => {
    if (typeof uri !== 'string' || uri === '') return
    references.push({ uri, archivePath: resolveInArchive(baseFolder, uri, jsonPath), isTemplate })
  }
  const stack: unknown[] = [tileset.root]
  let visited = 0
  while (stack.length > 0) {
    const tile = stack.pop()
    if (!isObject(tile)) continue
    if (++visited > maxTiles) {
      throw new TilesetJsonError(
        serverMessage('tileset.tooManyTiles', { path: jsonPath, maxTiles }),
      )
    }
    const isImplicit = isObject(tile.implicitTiling)
    const contents = [tile.content, ...(Array.isArray(tile.contents) ? tile.contents : [])]
    for (const content of contents) {
      if (isObject(content)) add(content.uri ?? content.url, isImplicit)
    }
    if (isObject(tile.implicitTiling) && isObject(tile.implicitTiling.subtrees)) {
      add(tile.implicitTiling.subtrees.uri, true)
    }
    if (Array.isArray(tile.children)) stack.push(...tile.children)
  }
  return references
}

/**
 * Resolves a URI relative to a folder of the archive. Undefined for inline `data:` URIs;
 * throws for anything that points outside the archive.
 */
export function resolveInArchive(
  baseFolder: string,
  uri: string,
  jsonPath: string,
): string | undefined {
  if (/^data:/i.test(uri)) return undefined
  const refuse = (why: string): never => {
    throw new TilesetJsonError(
      serverMessage('tileset.contentOutside', { path: jsonPath, uri }),
      `${jsonPath} refers to ${JSON.stringify(uri)}, which ${why}; every content must be a file inside the archive.`,
    )
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) refuse('is an address outside the archive')
  const pathPart = uri.split(/[?#]/)[0] ?? ''
  const decoded = decodeSafe(pathPart)
  if (decoded.includes('\\')) refuse('contains a backslash')
  if (decoded.startsWith('/')) refuse('is an absolute path')
  if (decoded.includes('\u0000')) refuse('contains a NUL character')
  const segments = baseFolder === '' ? [] : baseFolder.split('/')
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) refuse('climbs out of the archive')
      segments.pop()
    } else segments.push(segment)
  }
  if (segments.length === 0) refuse('names no file')
  return segments.join('/')
}

/** Replaces implicit-tiling template variables so the template's folder can be checked. */
export function templateFolder(archivePath: string): string {
  const firstVariable = archivePath.indexOf('{')
  const fixed = firstVariable < 0 ? archivePath : archivePath.slice(0, firstVariable)
  return fixed.includes('/') ? fixed.slice(0, fixed.lastIndexOf('/') + 1) : ''
}

function firstContentUri(tile: Record<string, unknown>): string | undefined {
  const candidates = [tile.content, ...(Array.isArray(tile.contents) ? tile.contents : [])]
  for (const content of candidates) {
    if (isObject(content)) {
      const uri = content.uri ?? content.url
      if (typeof uri === 'string' && uri !== '') return uri
    }
  }
  return undefined
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
