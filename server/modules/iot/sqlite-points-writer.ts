import type BetterSqlite3 from 'better-sqlite3'

/** One point to store: its series, time and value. */
export interface PointRow {
  seriesId: number
  ts: number
  value: number
}

/** Partial aggregate of a rollup bucket. */
export interface BucketRow {
  seriesId: number
  bucketTs: number
  count: number
  sum: number
  min: number
  max: number
}

/**
 * The SQLite half of the time-series writes with statements prepared once (better-sqlite3 runs
 * them synchronously): Kysely prepares every statement anew, which cost more than the inserts
 * themselves at ingest rates. Called only inside a transaction of the app's Kysely instance on
 * the same connection (`DatabaseHandle.sqlite`), so these writes commit or roll back with it.
 */
export interface SqlitePointsWriter {
  /** Inserts the points; answers those that were new (a point sent again is skipped). */
  insertPoints(rows: readonly PointRow[]): PointRow[]
  upsertBuckets(table: 'iot_rollups_1m' | 'iot_rollups_1h', rows: Iterable<BucketRow>): void
  setLatest(seriesId: number, ts: number, value: number): void
}

/** Prepares the statements on a connection. */
export function createSqlitePointsWriter(connection: BetterSqlite3.Database): SqlitePointsWriter {
  const insertPoint = connection.prepare(
    'insert into iot_points (series_id, ts, value) values (?, ?, ?) on conflict (series_id, ts) do nothing',
  )
  const upsertOf = (table: string) =>
    connection.prepare(
      `insert into ${table} (series_id, bucket_ts, count, sum, min, max) values (?, ?, ?, ?, ?, ?)
       on conflict (series_id, bucket_ts) do update set
         count = ${table}.count + excluded.count,
         sum = ${table}.sum + excluded.sum,
         min = min(${table}.min, excluded.min),
         max = max(${table}.max, excluded.max)`,
    )
  const upserts = {
    iot_rollups_1m: upsertOf('iot_rollups_1m'),
    iot_rollups_1h: upsertOf('iot_rollups_1h'),
  }
  const setLatest = connection.prepare(
    'update iot_series set last_ts = ?, last_value = ? where id = ? and (last_ts is null or last_ts <= ?)',
  )
  return {
    insertPoints(rows) {
      const added: PointRow[] = []
      for (const row of rows) {
        if (insertPoint.run(row.seriesId, row.ts, row.value).changes > 0) added.push(row)
      }
      return added
    },
    upsertBuckets(table, rows) {
      const statement = upserts[table]
      for (const row of rows) {
        statement.run(row.seriesId, row.bucketTs, row.count, row.sum, row.min, row.max)
      }
    },
    setLatest(seriesId, ts, value) {
      setLatest.run(ts, value, seriesId, ts)
    },
  }
}
