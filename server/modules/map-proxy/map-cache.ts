import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** One cached upstream answer. */
export interface CachedResource {
  url: string
  contentType: string
  body: Buffer
  /** When it was fetched from upstream (epoch ms). */
  storedAtMs: number
}

/** The proxy's disk cache (DATA_DIR/map-cache): what was seen once stays readable offline. */
export interface MapCache {
  get(url: string): Promise<CachedResource | undefined>
  put(resource: CachedResource): Promise<void>
  /** Bytes stored now (bodies and their small metadata files). */
  sizeBytes(): Promise<number>
}

interface Entry {
  sizeBytes: number
  lastUsedMs: number
}

/**
 * A size-bounded cache on disk: `<key>.bin` holds the body and `<key>.json` its address and
 * type, keyed by the SHA-256 of the upstream address. Above `maxBytes` the least recently used
 * entries are removed. Writes go to a temporary name and are renamed into place, so a crash
 * never leaves half a tile that would be served later.
 */
export function createMapCache(directory: string, maxBytes: number): MapCache {
  let entries: Promise<Map<string, Entry>> | undefined
  let total = 0

  const keyOf = (url: string) => createHash('sha256').update(url).digest('hex')
  const pathsOf = (key: string) => {
    const folder = join(directory, key.slice(0, 2))
    return { folder, body: join(folder, `${key}.bin`), meta: join(folder, `${key}.json`) }
  }

  // The index is read from disk once, lazily: a server that never proxies never scans.
  const index = () => {
    entries ??= (async () => {
      const found = new Map<string, Entry>()
      const folders = await readdir(directory).catch(() => [] as string[])
      for (const folder of folders) {
        const names = await readdir(join(directory, folder)).catch(() => [] as string[])
        for (const name of names) {
          if (!name.endsWith('.bin')) continue
          const info = await stat(join(directory, folder, name)).catch(() => undefined)
          if (!info) continue
          const size = info.size + 256
          found.set(name.slice(0, -4), { sizeBytes: size, lastUsedMs: info.mtimeMs })
          total += size
        }
      }
      return found
    })()
    return entries
  }

  const evict = async (map: Map<string, Entry>) => {
    if (total <= maxBytes) return
    const oldestFirst = [...map.entries()].sort((a, b) => a[1].lastUsedMs - b[1].lastUsedMs)
    for (const [key, entry] of oldestFirst) {
      if (total <= maxBytes) break
      map.delete(key)
      total -= entry.sizeBytes
      const paths = pathsOf(key)
      await rm(paths.body, { force: true })
      await rm(paths.meta, { force: true })
    }
  }

  return {
    async get(url) {
      const map = await index()
      const key = keyOf(url)
      const paths = pathsOf(key)
      try {
        const meta = JSON.parse(await readFile(paths.meta, 'utf8')) as Omit<CachedResource, 'body'>
        if (meta.url !== url) return undefined
        const body = await readFile(paths.body)
        const entry = map.get(key)
        if (entry) entry.lastUsedMs = Date.now()
        return { ...meta, body }
      } catch {
        return undefined
      }
    },

    async put(resource) {
      const map = await index()
      // a single answer larger than the whole cache is served but not kept
      if (resource.body.byteLength + 256 > maxBytes) return
      const key = keyOf(resource.url)
      const paths = pathsOf(key)
      await mkdir(paths.folder, { recursive: true })
      const temporary = `${paths.body}.${randomUUID()}.tmp`
      await writeFile(temporary, resource.body)
      await writeFile(
        paths.meta,
        JSON.stringify({
          url: resource.url,
          contentType: resource.contentType,
          storedAtMs: resource.storedAtMs,
        }),
      )
      await rename(temporary, paths.body)
      const previous = map.get(key)
      if (previous) total -= previous.sizeBytes
      const size = resource.body.byteLength + 256
      map.set(key, { sizeBytes: size, lastUsedMs: Date.now() })
      total += size
      await evict(map)
    },

    async sizeBytes() {
      await index()
      return total
    },
  }
}
