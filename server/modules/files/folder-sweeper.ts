import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

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
