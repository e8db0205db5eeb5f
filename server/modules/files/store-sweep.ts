import type { NamedFiles } from '../../plugins/storage'
import type { StoreRule, SweepTask } from './folder-sweeper'

/**
 * The same rule over an area of the store when the store is a bucket, whose "folders" are only
 * name prefixes: an entry is a top-level folder of the area (or a file at its top), and its age
 * is that of its newest file, since a bucket keeps no time for a prefix. On a folder store the
 * area is a folder and {@link folderSweep} does the same without listing every file.
 */
export function namedFilesSweep(rule: StoreRule, files: NamedFiles): SweepTask {
  return {
    label: rule.label,
    async sweep(moment) {
      const newestByEntry = new Map<string, { newestMs: number; isFolder: boolean }>()
      for (const file of await files.list('')) {
        const slash = file.name.indexOf('/')
        const entry = slash === -1 ? file.name : file.name.slice(0, slash)
        if (!rule.owns(entry)) continue
        const seen = newestByEntry.get(entry)
        newestByEntry.set(entry, {
          newestMs: Math.max(seen?.newestMs ?? 0, file.modifiedMs),
          isFolder: slash !== -1,
        })
      }
      const minimumAgeMs = moment === 'startup' && rule.isCrashLeftover ? 0 : rule.minimumAgeMs
      const cutoffMs = Date.now() - minimumAgeMs
      const old = [...newestByEntry]
        .filter(([, { newestMs }]) => minimumAgeMs === 0 || newestMs < cutoffMs)
        .map(([entry]) => entry)
      if (old.length === 0) return 0
      const kept = (await rule.keep?.(old)) ?? new Set<string>()
      let removed = 0
      for (const entry of old) {
        if (kept.has(entry)) continue
        if (newestByEntry.get(entry)?.isFolder) await files.removeFolder(entry)
        else await files.remove(entry)
        removed++
      }
      return removed
    },
  }
}
