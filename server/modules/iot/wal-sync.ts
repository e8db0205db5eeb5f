import { closeSync, fdatasync, openSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Makes commits durable off the event loop: a transaction committed with `synchronous=NORMAL`
 * has its WAL frames written but not synced, and `durable()` answers once an fdatasync of the
 * WAL file that began after that commit has finished — what `synchronous=FULL` would have done
 * inside the commit, blocking the server's one thread for the disk's flush. The sync runs on
 * libuv's thread pool, so requests go on being read and written while it waits, and every
 * commit made meanwhile shares the next sync (group commit).
 */
export interface WalSync {
  /** Resolves when everything committed before the call is on disk. */
  durable(): Promise<void>
}

/** A sync of the WAL of the SQLite database file `databaseFile`. */
export function createWalSync(databaseFile: string): WalSync {
  const walFile = `${resolve(databaseFile)}-wal`
  const syncOnce = () =>
    new Promise<void>((done, fail) => {
      // opened for each sync, not kept: a checkpoint that truncates the WAL keeps its file, but
      // the last connection's close deletes it, and a kept descriptor would sync a dead file
      const descriptor = openSync(walFile, 'r')
      fdatasync(descriptor, (error) => {
        closeSync(descriptor)
        if (error) fail(error)
        else done()
      })
    })
  let running: Promise<void> | undefined
  /** The sync that starts when the running one ends: the commits since share it. */
  let next: Promise<void> | undefined
  const start = () => {
    const run = syncOnce().finally(() => {
      if (running === run) running = undefined
    })
    running = run
    return run
  }
  return {
    durable() {
      // a sync already running may have begun before this commit: it does not count
      if (running === undefined) return start()
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = undefined
          return start()
        })
      return next
    },
  }
}
