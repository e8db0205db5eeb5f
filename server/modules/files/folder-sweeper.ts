import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { NamedFiles } from '../../plugins/storage'

/** When a sweep runs: at start-up nothing is being written yet, so crash leftovers of any age go. */
export type SweepMoment = 'startup' | 'periodic'

/** One kind of leftover the sweeper removes; returns how many entries went. */
export interface SweepTask {
  /** For logs: what is removed. */
  label: string
  sweep(moment: SweepMoment): Promise<number>
}

/** Leftovers in one folder: which entries, how old, and which of them are still in use. */
export interface FolderRule {
  label: string
  directory: string
  /** True for the entry names this rule owns; other entries of the folder are never touched. */
  owns(name: string): boolean
  /** A periodic sweep spares entries modified more recently (a request may be writing them). */
  minimumAgeMs: number
  /**
   * True when the entries only ever belong to a live request (staging folders, files being
   * received): at start-up, with no request yet, they go whatever their age. False for what is
   * meant to outlive a restart (a resumable upload is resumed after one).
   */
  isCrashLeftover: boolean
  /** Of the old entries, those still in use (e.g. referenced by a database row), which stay. */
  keep?(names: string[]): Promise<ReadonlySet<string>>
}

/** A {@link FolderRule} for an area of the store, which may have no folder (a bucket). */
export type StoreRule = Omit<FolderRule, 'directory'>

/**
 * A {@link SweepTask} over one folder: entries the rule owns, old enough for the moment and not
 * kept, are removed (files or whole trees). A missing folder is an empty one.
 */
export function folderSweep(rule: FolderRule): SweepTask {
  return {
    label: rule.label,
    async sweep(moment) {
      const names = await readdir(rule.directory).catch(() => [] as string[])
      const minimumAgeMs = moment === 'startup' && rule.isCrashLeftover ? 0 : rule.minimumAgeMs
      const cutoffMs = Date.now() - minimumAgeMs
      const old: string[] = []
      for (const name of names) {
        if (!rule.owns(name)) continue
        if (minimumAgeMs > 0) {
          const info = await stat(join(rule.directory, name)).catch(() => undefined)
          if (info === undefined || info.mtimeMs >= cutoffMs) continue
        }
        old.push(name)
      }
      if (old.length === 0) return 0
      const kept = (await rule.keep?.(old)) ?? new Set<string>()
      let removed = 0
      for (const name of old) {
        if (kept.has(name)) continue
        await rm(join(rule.directory, name), { recursive: true, force: true })
        removed++
      }
      return removed
    },
  }
}

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

/** The sweeps of one app, run together: once at start-up, then periodically (server/composition.ts). */
export interface FolderSweeper {
  add(...tasks: SweepTask[]): void
  /** Runs every task once; a failing task is reported and does not stop the others. */
  sweep(moment: SweepMoment): Promise<Record<string, number>>
}

/**
 * The one folder sweeper (issue 14 item 6): storage's unfinished writes, city uploads being
 * received, tileset staging and unserved versions, unreferenced basemaps and expired resumable
 * uploads are all registered here instead of each area keeping its own timer and age rules.
 */
export function createFolderSweeper(
  onError: (task: string, error: unknown) => void,
): FolderSweeper {
  const tasks: SweepTask[] = []
  const sweeper: FolderSweeper = {
    add: (...added) => void tasks.push(...added),
    async sweep(moment) {
      const removed: Record<string, number> = {}
      for (const task of tasks) {
        try {
          removed[task.label] = await task.sweep(moment)
        } catch (error) {
          onError(task.label, error)
        }
      }
      return removed
    },
  }
  return sweeper
}
