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
  insertPoints(rows: readonly PointRow[]): readonly PointRow[]
  upsertBuckets(table: 'iot_rollups_1m' | 'iot_rollups_1h', rows: Iterable<BucketRow>): void
  setLatest(seriesId: number, ts: number, value: number): void
}

/**
 * Points per multi-row insert: a body's points go in statements of 128, 64, … 1 points (each
 * run crosses into native code and steps the statement; 384 parameters stay far below SQLite's
 * limit), so 500 points take 7 runs instead of 500.
 */
const chunkSizes = [128, 64, 32, 16, 8, 4, 2, 1] as const

/** What a body's points of one series look like: their time range, and whether each is new. */
interface SeriesSpan {
  minTs: number
  maxTs: number
  lastTs: number
  /** Each time once, in order: no two points of the body collide with each other. */
  isAscending: boolean
}

/** Prepares the statements on a connection. */
export function createSqlitePointsWriter(connection: BetterSqlite3.Database): SqlitePointsWriter {
  // `or ignore`, not `on conflict do nothing`: with no constraint left that can abort the
  // statement, SQLite runs a multi-row insert without a statement journal (a copy of every
  // page it touches, spilled to a temporary file past 64 KiB)
  const insertSql = (rowCount: number) =>
    `insert or ignore into iot_points (series_id, ts, value) values ${Array(rowCount).fill('(?, ?, ?)').join(', ')}`
  const chunks = chunkSizes.map((size) => ({
    size,
    statement: connection.prepare(insertSql(size)),
    parameters: new Array<number>(size * 3),
  }))
  const insertPoint = chunks.at(-1)!.statement
  const storedWithin = connection
    .prepare('select 1 from iot_points where series_id = ? and ts >= ? and ts <= ? limit 1')
    .pluck()
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
  /**
   * Splits a body's points into those sure to be new (their series has nothing stored within
   * their time range, and no two of them share a time) and the others, in the body's order.
   */
  const sortByNovelty = (rows: readonly PointRow[]) => {
    const spans = new Map<number, SeriesSpan>()
    for (const { seriesId, ts } of rows) {
      const span = spans.get(seriesId)
      if (span === undefined) {
        spans.set(seriesId, { minTs: ts, maxTs: ts, lastTs: ts, isAscending: true })
        continue
      }
      if (ts <= span.lastTs) span.isAscending = false
      if (ts < span.minTs) span.minTs = ts
      if (ts > span.maxTs) span.maxTs = ts
      span.lastTs = ts
    }
    const isSure = new Set<number>()
    for (const [seriesId, span] of spans) {
      if (span.isAscending && storedWithin.get(seriesId, span.minTs, span.maxTs) === undefined) {
        isSure.add(seriesId)
      }
    }
    if (isSure.size === spans.size) return { sure: rows, unsure: [] }
    const sure: PointRow[] = []
    const unsure: PointRow[] = []
    for (const row of rows) (isSure.has(row.seriesId) ? sure : unsure).push(row)
    return { sure, unsure }
  }

  return {
    insertPoints(rows) {
      const { sure, unsure } = sortByNovelty(rows)
      // the usual body: every point new, in a few multi-row statements
      let start = 0
      let inserted = 0
      for (const { size, statement, parameters } of chunks) {
        for (; start + size <= sure.length; start += size) {
          for (let index = 0; index < size; index++) {
            const row = sure[start + index]!
            parameters[index * 3] = row.seriesId
            parameters[index * 3 + 1] = row.ts
            parameters[index * 3 + 2] = row.value
          }
          inserted += statement.run(parameters).changes
        }
      }
      if (inserted !== sure.length) {
        // cannot happen on one connection inside a transaction: refuse rather than mis-sum
        throw new Error(`iot_points: ${sure.length - inserted} points thought new were stored`)
      }
      // a retry or a backfill: each point on its own, kept when it was new
      if (unsure.length === 0) return sure
      const added = [...sure]
      for (const row of unsure) {
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
