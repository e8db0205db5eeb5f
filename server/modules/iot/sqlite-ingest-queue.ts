import type { Statement } from 'better-sqlite3'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { timestampOf } from '../time/clock'
import type { TelemetryMessage } from './ingest-payload'
import type { TelemetryStore } from './telemetry-store'
import { createWalSync, type WalSync } from './wal-sync'

/** One device's points waiting for the next commit. */
interface QueuedWrite {
  deviceId: string
  messages: readonly TelemetryMessage[]
  nowMs: number
  resolve: (count: number) => void
  reject: (error: unknown) => void
}

/** A write that went into the transaction, with how many of its points were new. */
type Written = [QueuedWrite, number]

/**
 * Group commit of telemetry on SQLite: the points of every request that arrived in the same turn
 * of the event loop (HTTP bodies and MQTT messages alike) are written in one transaction, and a
 * caller's promise settles only once that commit is on disk, so an acknowledged write survives a
 * crash or a power cut. The disk's flush is taken off the server's thread (wal-sync.ts): the
 * transaction commits without syncing and is answered after the WAL sync that follows. While
 * that sync runs, the thread reads and checks the next requests, and their points wait to go
 * into the next transaction together: fewer, larger commits, each synced once.
 *
 * A failing write is rolled back alone and the others commit: the group is first written
 * straight through (the usual case, nothing fails), and only when a write fails is it rolled
 * back and written again with each write in its own savepoint. A savepoint costs SQLite a copy
 * of every page its write touches, which is why the usual case goes without.
 */
export interface SqliteIngestQueue {
  /** Stores a device's messages at the next commit; answers how many points were new. */
  write(deviceId: string, messages: readonly TelemetryMessage[], nowMs: number): Promise<number>
}

/** Most requests in one transaction: bounds how long one commit holds the connection. */
const maxWritesPerCommit = 64

/** Builds the queue over the app's SQLite connection (held through Kysely while it writes). */
export function createSqliteIngestQueue(dependencies: {
  database: DatabaseHandle
  sqlite: NonNullable<DatabaseHandle['sqlite']>
  store: TelemetryStore
  /** How commits are made durable; by default the WAL's own sync when the file is in WAL mode. */
  walSync?: WalSync
}): SqliteIngestQueue {
  const { database, sqlite, store } = dependencies
  const queue: QueuedWrite[] = []
  let isFlushing = false
  let seenStatement: Statement | undefined
  /** Set at the first flush (after the database is open and in its journal mode). */
  let commitMode: { walSync: WalSync; fast: string; safe: string } | null | undefined

  /**
   * With a WAL, the group commits without syncing (`synchronous=NORMAL`) and is answered after
   * the WAL sync that follows it; the connection's own level is put back for every other write.
   * Without a WAL (an in-memory database), commits keep the connection's level. The pragmas are
   * run as text each time: a prepared pragma statement does not reliably apply when run again.
   */
  const commitModeOf = () => {
    if (commitMode !== undefined) return commitMode
    const isWal = sqlite.pragma('journal_mode', { simple: true }) === 'wal'
    commitMode = !isWal
      ? null
      : {
          walSync: dependencies.walSync ?? createWalSync(sqlite.name),
          fast: 'pragma synchronous = NORMAL',
          safe: `pragma synchronous = ${Number(sqlite.pragma('synchronous', { simple: true }))}`,
        }
    return commitMode
  }

  /** Stores an entry's points and its device's last-seen time; answers how many were new. */
  const writeEntry = async (connection: Database, entry: QueuedWrite) => {
    seenStatement ??= sqlite.prepare('update iot_devices set last_seen_at = ? where id = ?')
    const count = await store.write(connection, entry.deviceId, entry.messages)
    seenStatement.run(timestampOf(entry.nowMs), entry.deviceId)
    return count
  }

  /** Undoes the open transaction, and the series ids it made with it. */
  const rollBack = () => {
    if (sqlite.inTransaction) sqlite.exec('rollback')
    // a series made inside the rolled-back transaction must not stay cached
    store.forgetSeries()
  }

  /** The usual case: the whole group in one transaction; undefined when anything failed. */
  const writeStraight = async (connection: Database, group: readonly QueuedWrite[]) => {
    const written: Written[] = []
    sqlite.exec('begin immediate')
    try {
      for (const entry of group) written.push([entry, await writeEntry(connection, entry)])
      sqlite.exec('commit')
    } catch {
      rollBack()
      return undefined
    }
    return written
  }

  /** After a failure: each write in its own savepoint, so only the failing ones are undone. */
  const writeOneByOne = async (connection: Database, group: readonly QueuedWrite[]) => {
    const written: Written[] = []
    sqlite.exec('begin immediate')
    try {
      for (const entry of group) {
        sqlite.exec('savepoint ingest_write')
        try {
          written.push([entry, await writeEntry(connection, entry)])
          sqlite.exec('release ingest_write')
        } catch (error) {
          sqlite.exec('rollback to ingest_write')
          sqlite.exec('release ingest_write')
          store.forgetSeries()
          entry.reject(error)
        }
      }
      sqlite.exec('commit')
    } catch (error) {
      rollBack()
      for (const [entry] of written) entry.reject(error)
      return []
    }
    return written
  }

  /** Writes and commits a group; answers the writes committed, each with its count. */
  const writeGroup = (group: QueuedWrite[]) =>
    // held by Kysely (`connection()`) so no other query interleaves with the raw statements
    database.db.connection().execute(async (connection) => {
      const mode = commitModeOf()
      if (mode) sqlite.exec(mode.fast)
      try {
        return (await writeStraight(connection, group)) ?? (await writeOneByOne(connection, group))
      } finally {
        if (mode) sqlite.exec(mode.safe)
      }
    })

  /** Answers the committed writes once their commit is on disk; answers that wait, if any. */
  const answerWhenDurable = (written: readonly Written[]) => {
    const answer = () => {
      for (const [entry, count] of written) entry.resolve(count)
    }
    const walSync = commitMode?.walSync
    if (walSync === undefined) {
      answer()
      return undefined
    }
    return walSync.durable().then(answer, (error) => {
      for (const [entry] of written) entry.reject(error)
    })
  }

  /** The last group's wait for its sync; the next group is written after it. */
  let syncing: Promise<void> | undefined

  const flush = async () => {
    if (isFlushing) return
    isFlushing = true
    try {
      while (queue.length > 0) {
        // whatever arrives while the disk flushes the last commit goes into the next one: the
        // thread reads and checks those requests meanwhile, and they share one transaction
        if (syncing !== undefined) await syncing
        const group = queue.splice(0, maxWritesPerCommit)
        try {
          syncing = answerWhenDurable(await writeGroup(group))
        } catch (error) {
          // the connection could not be had (closing): every write of the group fails
          for (const entry of group) entry.reject(error)
        }
      }
    } finally {
      isFlushing = false
    }
  }

  return {
    write(deviceId, messages, nowMs) {
      return new Promise<number>((resolve, reject) => {
        queue.push({ deviceId, messages, nowMs, resolve, reject })
        // after the requests already read in this turn of the event loop have queued theirs
        if (queue.length === 1 && !isFlushing) setImmediate(flush)
      })
    },
  }
}
