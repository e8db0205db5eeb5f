import type { Statement } from 'better-sqlite3'
import type { DatabaseHandle } from '../../plugins/db'
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
 * of the event loop (HTTP bodies and MQTT messages alike) are written in one transaction, each
 * in its own savepoint, so a failing write is rolled back alone and the others commit. With
 * `synchronous=FULL` the commit's fsync is what a request costs most; sharing it among the
 * requests in flight is what lets ingest keep pace with a bare INSERT loop. A caller's promise
 * settles only after the commit that holds its points, so an acknowledged write is durable.
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

  const writeGroup = (group: QueuedWrite[]) =>
    // held by Kysely (`connection()`) so no other query interleaves with the raw statements
    database.db.connection().execute(async (connection) => {
      seenStatement ??= sqlite.prepare('update iot_devices set last_seen_at = ? where id = ?')
      const written: Array<[QueuedWrite, number]> = []
      sqlite.exec('begin immediate')
      try {
        for (const entry of group) {
          sqlite.exec('savepoint ingest_write')
          try {
            const count = await store.write(connection, entry.deviceId, entry.messages)
            seenStatement.run(timestampOf(entry.nowMs), entry.deviceId)
            sqlite.exec('release ingest_write')
            written.push([entry, count])
          } catch (error) {
            sqlite.exec('rollback to ingest_write')
            sqlite.exec('release ingest_write')
            // a series made inside the rolled-back savepoint must not stay cached
            store.forgetSeries()
            entry.reject(error)
          }
        }
        sqlite.exec('commit')
      } catch (error) {
        if (sqlite.inTransaction) sqlite.exec('rollback')
        store.forgetSeries()
        for (const [entry] of written) entry.reject(error)
        return
      }
      for (const [entry, count] of written) entry.resolve(count)
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
