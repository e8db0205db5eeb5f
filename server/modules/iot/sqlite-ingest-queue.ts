import type { Statement } from 'better-sqlite3'
import type { Database, DatabaseHandle } from '../../plugins/db'
import { timestampOf } from '../time/clock'
import type { TelemetryMessage } from './ingest-payload'
import type { TelemetryStore } from './telemetry-store'

/** One device's points waiting for the next commit. */
interface QueuedWrite {
  deviceId: string
  messages: readonly TelemetryMessage[]
  nowMs: number
  resolve: (count: number) => void
  reject: (error: unknown) => void
}

/**
 * Group commit of telemetry on SQLite: the points of every request that arrived in the same turn
 * of the event loop (HTTP bodies and MQTT messages alike) are written in one transaction. With
 * `synchronous=FULL` the commit's fsync is what a request costs most; sharing it among the
 * requests in flight is what lets ingest keep pace with a bare INSERT loop. A caller's promise
 * settles only after the commit that holds its points, so an acknowledged write is durable.
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
}): SqliteIngestQueue {
  const { database, sqlite, store } = dependencies
  const queue: QueuedWrite[] = []
  let isFlushing = false
  let seenStatement: Statement | undefined

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

  /** The usual case: the whole group in one transaction; false when anything failed. */
  const writeStraight = async (connection: Database, group: readonly QueuedWrite[]) => {
    const counts: number[] = []
    sqlite.exec('begin immediate')
    try {
      for (const entry of group) counts.push(await writeEntry(connection, entry))
      sqlite.exec('commit')
    } catch {
      rollBack()
      return false
    }
    for (const [index, entry] of group.entries()) entry.resolve(counts[index]!)
    return true
  }

  /** After a failure: each write in its own savepoint, so only the failing ones are undone. */
  const writeOneByOne = async (connection: Database, group: readonly QueuedWrite[]) => {
    const written: Array<[QueuedWrite, number]> = []
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
      return
    }
    for (const [entry, count] of written) entry.resolve(count)
  }

  const writeGroup = (group: QueuedWrite[]) =>
    // held by Kysely (`connection()`) so no other query interleaves with the raw statements
    database.db.connection().execute(async (connection) => {
      if (!(await writeStraight(connection, group))) await writeOneByOne(connection, group)
    })

  const flush = async () => {
    if (isFlushing) return
    isFlushing = true
    try {
      while (queue.length > 0) {
        const group = queue.splice(0, maxWritesPerCommit)
        try {
          await writeGroup(group)
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
