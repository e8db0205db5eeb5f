import type { NamedFiles } from '../../plugins/storage'
import type { SweepTask } from './folder-sweeper'

/** Entries looked up per `keep` call (one query each). */
const keepBatchSize = 500

/**
 * What a sweep removes from one area of the file store (a folder or a bucket alike): its files
 * grouped into entries (a tileset version's folder, a basemap's archive and its part file), an
 * entry's age being its newest file's, since a bucket keeps no time for a prefix.
 */
export interface StoreRule {
  /** For logs: what is removed. */
  label: string
  /** The entry a stored file belongs to; undefined for files this rule never touches. */
  entryOf(name: string): string | undefined
  /** True for a write left unfinished (a `.part`), which no row ever names: it goes when old. */
  isUnfinished?(name: string): boolean
  /** A periodic sweep spares entries written more recently (a request may be writing them). */
  minimumAgeMs: number
  /**
   * True when a young entry can only be a live request's: at start-up (the first process, no
   * request yet) it goes whatever its age.
   */
  isCrashLeftover: boolean
  /** Of these entries (at most 500), those a database row still names, which stay. */
  keep(entries: string[]): Promise<ReadonlySet<string>>
}

/**
 * A {@link SweepTask} over an area of the store: old entries no row keeps go whole (a folder
 * entry in one removal), and old unfinished writes go even in an entry that stays. Returns how
 * many entries and unfinished files went.
 */
export function storeSweep(rule: StoreRule, files: NamedFiles): SweepTask {
  return {
    label: rule.label,
    async sweep(moment) {
      const entries = new Map<string, { newestMs: number; names: string[] }>()
      for (const file of await files.list('')) {
        const entry = rule.entryOf(file.name)
        if (entry === undefined) continue
        const seen = entries.get(entry) ?? { newestMs: 0, names: [] }
        seen.newestMs = Math.max(seen.newestMs, file.modifiedMs)
        seen.names.push(file.name)
        entries.set(entry, seen)
      }
      const minimumAgeMs = moment === 'startup' && rule.isCrashLeftover ? 0 : rule.minimumAgeMs
      const cutoffMs = Date.now() - minimumAgeMs
      const old = [...entries].filter(
        ([, { newestMs }]) => minimumAgeMs === 0 || newestMs < cutoffMs,
      )
      const isUnfinished = (name: string) => rule.isUnfinished?.(name) ?? false
      const named = old
        .filter(([, { names }]) => names.some((name) => !isUnfinished(name)))
        .map(([entry]) => entry)
      const kept = new Set<string>()
      for (let start = 0; start < named.length; start += keepBatchSize) {
        for (const entry of await rule.keep(named.slice(start, start + keepBatchSize))) {
          kept.add(entry)
        }
      }
      let removed = 0
      for (const [entry, { names }] of old) {
        if (kept.has(entry)) {
          for (const name of names.filter(isUnfinished)) {
            await files.remove(name)
            removed++
          }
        } else if (names.every((name) => name.startsWith(`${entry}/`))) {
          await files.removeFolder(entry)
          removed++
        } else {
          for (const name of names) await files.remove(name)
          removed++
        }
      }
      return removed
    },
  }
}

/** The entry of a file in a folder of the area: the folder's name (its first path segment). */
export function topFolderOf(name: string): string | undefined {
  const slash = name.indexOf('/')
  return slash === -1 ? undefined : name.slice(0, slash)
}
