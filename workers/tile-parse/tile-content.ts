import { parse } from '@loaders.gl/core'
import { Tiles3DLoader } from '@loaders.gl/3d-tiles'
import { Matrix4 } from '@math.gl/core'

/**
 * Loader options that survive a structured clone: plain objects, arrays and primitives only.
 * loaders.gl's normalized options carry functions (`fetch`), class instances (its `log`) and
 * the tileset itself; none of those may or need to cross into the worker.
 */
export type CloneableLoadOptions = { [key: string]: CloneableValue }
type CloneableValue = string | number | boolean | null | CloneableValue[] | CloneableLoadOptions

/** How deep options are copied; loaders.gl nests them two or three levels, never more. */
const maximumOptionDepth = 6

/** A plain object (options, JSON), not an array, class instance or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function cloneableValue(value: unknown, depth: number): CloneableValue | undefined {
  if (value === null) return null
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value
  }
  if (depth >= maximumOptionDepth) return undefined
  if (Array.isArray(value)) {
    const items = value.map((item) => cloneableValue(item, depth + 1))
    return items.every((item) => item !== undefined) ? (items as CloneableValue[]) : undefined
  }
  if (isPlainObject(value)) return cloneableObject(value, depth + 1)
  return undefined
}

function cloneableObject(value: Record<string, unknown>, depth: number): CloneableLoadOptions {
  const result: CloneableLoadOptions = {}
  for (const [key, item] of Object.entries(value)) {
    const copy = cloneableValue(item, depth)
    if (copy !== undefined) result[key] = copy
  }
  return result
}

/**
 * The JSON-like part of a loaders.gl options object, safe to post to a worker. The main thread's
 * `core.log` (a console wrapper) and `core.fetch` are left out: the worker uses its own.
 */
export function cloneableLoadOptions(options: Record<string, unknown>): CloneableLoadOptions {
  const result = cloneableObject(options, 0)
  const core = result.core
  if (core && typeof core === 'object' && !Array.isArray(core)) {
    const { log: _log, fetch: _fetch, ...rest } = core
    result.core = rest
  }
  return result
}

/**
 * glTF image extensions whose support loaders.gl probes with DOM APIs (`new Image()`,
 * `document.createElement('canvas')`), which a worker lacks: in a worker it would call WebP
 * unsupported and crash on the AVIF probe. Tiles naming them are parsed on the main thread.
 */
const domProbedImageExtensions = ['EXT_texture_webp', 'EXT_texture_avif'].map((name) =>
  new TextEncoder().encode(name),
)

function includesBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0]
  const lastStart = haystack.length - needle.length
  for (let start = haystack.indexOf(first ?? 0); start !== -1 && start <= lastStart; ) {
    let index = 1
    while (index < needle.length && haystack[start + index] === needle[index]) index++
    if (index === needle.length) return true
    start = haystack.indexOf(first ?? 0, start + 1)
  }
  return false
}

/**
 * Whether a tile must be parsed on the main thread: its glTF names an image extension whose
 * support only the DOM can tell (the name appears in the glTF JSON, so a byte search finds it).
 */
export function needsMainThreadParse(data: ArrayBuffer): boolean {
  const bytes = new Uint8Array(data)
  return domProbedImageExtensions.some((name) => includesBytes(bytes, name))
}

/**
 * Parses one 3D Tiles content file (b3dm, i3dm, pnts, cmpt, glb) with loaders.gl's own
 * `Tiles3DLoader`, exactly as `Tile3D.loadContent` would on the main thread, and returns the
 * content object it builds. `url` is the content's address: relative glTF/image URIs inside the
 * tile resolve against it.
 */
export async function parseTileContent(
  data: ArrayBuffer,
  url: string,
  options: CloneableLoadOptions,
): Promise<Record<string, unknown>> {
  const tilesOptions = isPlainObject(options['3d-tiles']) ? options['3d-tiles'] : {}
  const coreOptions = isPlainObject(options.core) ? options.core : {}
  const gltfOptions = isPlainObject(options.gltf) ? options.gltf : {}
  const excludedExtensions = isPlainObject(gltfOptions.excludeExtensions)
    ? gltfOptions.excludeExtensions
    : {}
  const baseUrl = url.includes('/') ? url.slice(0, url.lastIndexOf('/')) : url
  const content = await parse(data, Tiles3DLoader, {
    ...options,
    core: { ...coreOptions, baseUrl },
    // loaders.gl runs the AVIF preprocess on every glTF and it probes with `new Image()`, which
    // throws in a worker. Tiles that use AVIF never get here (needsMainThreadParse); for the
    // others the extension is a no-op. (loaders.gl excludes a listed extension set to false.)
    gltf: { ...gltfOptions, excludeExtensions: { ...excludedExtensions, EXT_texture_avif: false } },
    // A content file is never a tileset here: nested tileset.json stays on the main thread.
    '3d-tiles': { ...tilesOptions, isTileset: false },
  } as never)
  return content as Record<string, unknown>
}

/**
 * The buffers and images of a parsed content, each once, to transfer instead of copy. Views
 * share their buffer (a glTF's accessors all point into one), so a content yields a handful.
 */
export function tileContentTransferables(content: unknown): Transferable[] {
  const found = new Set<Transferable>()
  const visited = new Set<object>()
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || visited.has(value)) return
    visited.add(value)
    if (value instanceof ArrayBuffer) {
      found.add(value)
      return
    }
    if (ArrayBuffer.isView(value)) {
      // A SharedArrayBuffer cannot be transferred; it is shared by the clone anyway.
      if (value.buffer instanceof ArrayBuffer) found.add(value.buffer)
      return
    }
    if (typeof ImageBitmap !== 'undefined' && value instanceof ImageBitmap) {
      found.add(value)
      return
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    for (const item of Object.values(value)) visit(item)
  }
  visit(content)
  return [...found]
}

/**
 * Gives a cloned content back the classes deck.gl and loaders.gl call methods on. A structured
 * clone keeps typed arrays, images and shared references but turns math.gl's `Matrix4` (an
 * Array subclass) into a plain array: i3dm instance matrices are multiplied by deck, so they
 * must be matrices again. Everything else the layer reads is plain data.
 */
export function restoreTileContent<Content extends Record<string, unknown>>(
  content: Content,
): Content {
  const instances = content.instances
  if (Array.isArray(instances)) {
    for (const instance of instances as { modelMatrix?: unknown }[]) {
      if (Array.isArray(instance.modelMatrix)) {
        instance.modelMatrix = new Matrix4(instance.modelMatrix as number[])
      }
    }
  }
  const tiles = content.tiles
  // A composite (cmpt) holds inner contents of the same shape.
  if (Array.isArray(tiles)) {
    for (const inner of tiles) {
      if (isPlainObject(inner)) restoreTileContent(inner)
    }
  }
  return content
}
