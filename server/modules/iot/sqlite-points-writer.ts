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

/**
 * Points per multi-row insert: one statement run per 50 points instead of 50 (each run crosses
 * into native code and steps the statement; 150 parameters stay far below SQLite's limit).
 */
const pointsPerChunk = 50

/** Prepares the statements on a connection. */
export function createSqlitePointsWriter(connection: BetterSqlite3.Database): SqlitePointsWriter {
  const insertSql = (rowCount: number) =>
    `insert into iot_points (series_id, ts, value) values ${Array(rowCount).fill('(?, ?, ?)').join(', ')}
     on conflict (series_id, ts) do nothing`
  const insertPoint = connection.prepare(insertSql(1))
  const insertChunk = connection.prepare(insertSql(pointsPerChunk))
  const chunkParameters: number[] = new Array(pointsPerChunk * 3)
  // prepared once: `exec` would compile each of them again for every chunk
  const chunkSavepoint = connection.prepare('savepoint points_chunk')
  const chunkRelease = connection.prepare('release points_chunk')
  const chunkRollback = connection.prepare('rollback to points_chunk')
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
      const insertOneByOne = (from: number, to: number) => {
        for (let index = from; index < to; index++) {
          const row = rows[index]!
          if (insertPoint.run(row.seriesId, row.ts, row.value).changes > 0) added.push(row)
        }
      }
      let start = 0
      for (; start + pointsPerChunk <= rows.length; start += pointsPerChunk) {
        for (let index = 0; index < pointsPerChunk; index++) {
          const row = rows[start + index]!
          chunkParameters[index * 3] = row.seriesId
          chunkParameters[index * 3 + 1] = row.ts
          chunkParameters[index * 3 + 2] = row.value
        }
        // the usual case, every point new, in one statement; a chunk holding a point sent
        // before is undone and written again point by point, to learn which ones were new
        chunkSavepoint.run()
        const changes = insertChunk.run(chunkParameters).changes
        if (changes === pointsPerChunk) {
          chunkRelease.run()
          for (let index = start; index < start + pointsPerChunk; index++) added.push(rows[index]!)
          continue
        }
        chunkRollback.run()
        chunkRelease.run()
        insertOneByOne(start, start + pointsPerChunk)
      }
      insertOneByOne(start, rows.length)
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
