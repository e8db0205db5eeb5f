import { sql } from 'kysely'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { TelemetryMessage } from './ingest-payload'
import {
  type BucketRow,
  createSqlitePointsWriter,
  type PointRow,
  type SqlitePointsWriter,
} from './sqlite-points-writer'

/**
 * The SQL of the time series (the only place it lives): series per device and key, raw points,
 * and the 1-minute and 1-hour rollups (count, sum, min, max) upserted in the same transaction as
 * the points they sum. A point sent twice (a gateway's retry) is stored and summed once: the
 * rollups add only the rows the insert returned as new.
 */

/** The rollup tables and their bucket widths, coarsest first. */
export const rollupLevels = [
  { table: 'iot_rollups_1h', widthMs: 3_600_000 },
  { table: 'iot_rollups_1m', widthMs: 60_000 },
] as const
export type RollupTable = (typeof rollupLevels)[number]['table']

/** Rows per multi-row statement: 3 parameters each stay far below both engines' limits. */
const rowsPerStatement = 500

/** The time-series store over one database. */
export interface TelemetryStore {
  /** Series ids of a device's keys, made when missing. */
  seriesIds(
    handle: Database,
    deviceId: string,
    keys: readonly string[],
  ): Promise<Map<string, number>>
  /** Stores a device's messages (in the caller's transaction); answers how many points were new. */
  write(handle: Database, deviceId: string, messages: readonly TelemetryMessage[]): Promise<number>
  /** Forgets cached series ids (after a project's series were deleted). */
  forgetSeries(): void
}

/**
 * Builds the store; series ids are cached (they never change once made). On SQLite the points,
 * rollups and latest values go through statements prepared once on the app's connection
 * (sqlite-points-writer.ts), prepared at the first write (after the migrations).
 */
export function createTelemetryStore(
  database: Pick<DatabaseHandle, 'dialect' | 'sqlite'>,
): TelemetryStore {
  const { dialect } = database
  let sqliteWriter: SqlitePointsWriter | undefined
  const sqliteWriterOf = () => {
    if (database.sqlite === undefined) return undefined
    sqliteWriter ??= createSqlitePointsWriter(database.sqlite)
    return sqliteWriter
  }
  const seriesCache = new Map<string, number>()
  const cacheKey = (deviceId: string, key: string) => `${deviceId}\u0000${key}`

  const seriesIds: TelemetryStore['seriesIds'] = async (handle, deviceId, keys) => {
    const ids = new Map<string, number>()
    let missing: string[] = []
    for (const key of keys) {
      const id = seriesCache.get(cacheKey(deviceId, key))
      if (id === undefined) missing.push(key)
      else ids.set(key, id)
    }
    if (missing.length === 0) return ids
    for (let attempt = 0; attempt < 2 && missing.length > 0; attempt++) {
      const found = await handle
        .selectFrom('iot_series')
        .select(['id', 'key'])
        .where('device_id', '=', deviceId)
        .where('key', 'in', missing)
        .execute()
      for (const row of found) {
        const id = Number(row.id)
        ids.set(row.key, id)
        seriesCache.set(cacheKey(deviceId, row.key), id)
      }
      missing = missing.filter((key) => !ids.has(key))
      if (missing.length === 0 || attempt === 1) break
      // a concurrent request may make the same series: the unique index keeps one
      await handle
        .insertInto('iot_series')
        .values(missing.map((key) => ({ device_id: deviceId, key })) as never)
        .onConflict((conflict) => conflict.columns(['device_id', 'key']).doNothing())
        .execute()
    }
    return ids
  }

  const smallerOf = (table: RollupTable) =>
    dialect === 'postgres'
      ? sql<number>`least(${sql.ref(`${table}.min`)}, excluded.min)`
      : sql<number>`min(${sql.ref(`${table}.min`)}, excluded.min)`
  const largerOf = (table: RollupTable) =>
    dialect === 'postgres'
      ? sql<number>`greatest(${sql.ref(`${table}.max`)}, excluded.max)`
      : sql<number>`max(${sql.ref(`${table}.max`)}, excluded.max)`

  const upsertRollups = async (
    handle: Database,
    table: RollupTable,
    buckets: readonly BucketRow[],
  ) => {
    const rows = buckets.map((bucket) => ({
      series_id: bucket.seriesId,
      bucket_ts: bucket.bucketTs,
      count: bucket.count,
      sum: bucket.sum,
      min: bucket.min,
      max: bucket.max,
    }))
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      await handle
        .insertInto(table)
        .values(rows.slice(start, start + rowsPerStatement))
        .onConflict((conflict) =>
          conflict.columns(['series_id', 'bucket_ts']).doUpdateSet((eb) => ({
            count: eb(`${table}.count`, '+', eb.ref('excluded.count')),
            sum: eb(`${table}.sum`, '+', eb.ref('excluded.sum')),
            min: smallerOf(table),
            max: largerOf(table),
          })),
        )
        .execute()
    }
  }

  /** Multi-row inserts; the rows answered back are the new ones (a repeated point is skipped). */
  const insertPoints = async (handle: Database, rows: readonly PointRow[]) => {
    const added: PointRow[] = []
    for (let start = 0; start < rows.length; start += rowsPerStatement) {
      const inserted = await handle
        .insertInto('iot_points')
        .values(
          rows
            .slice(start, start + rowsPerStatement)
            .map((row) => ({ series_id: row.seriesId, ts: row.ts, value: row.value })),
        )
        .onConflict((conflict) => conflict.columns(['series_id', 'ts']).doNothing())
        .returning(['series_id', 'ts', 'value'])
        .execute()
      for (const row of inserted) {
        added.push({
          seriesId: Number(row.series_id),
          ts: Number(row.ts),
          value: Number(row.value),
        })
      }
    }
    return added
  }

  return {
    seriesIds,

    async write(handle, deviceId, messages) {
      const keys = new Set<string>()
      for (const message of messages) for (const [key] of message.values) keys.add(key)
      const ids = await seriesIds(handle, deviceId, [...keys])
      const rows: PointRow[] = []
      for (const message of messages) {
        for (const [key, value] of message.values) {
          rows.push({ seriesId: ids.get(key)!, ts: message.ts, value })
        }
      }
      const writer = sqliteWriterOf()
      const added = writer ? writer.insertPoints(rows) : await insertPoints(handle, rows)
      // buckets by series, then by bucket start: numbers as keys, no string per point and level
      const rollups = rollupLevels.map(() => new Map<number, Map<number, BucketRow>>())
      const latest = new Map<number, { ts: number; value: number }>()
      for (const { seriesId, ts, value } of added) {
        for (let index = 0; index < rollupLevels.length; index++) {
          const bucketTs = ts - (ts % rollupLevels[index]!.widthMs)
          const level = rollups[index]!
          let series = level.get(seriesId)
          if (series === undefined) {
            series = new Map()
            level.set(seriesId, series)
          }
          const bucket = series.get(bucketTs)
          if (bucket === undefined) {
            series.set(bucketTs, {
              seriesId,
              bucketTs,
              count: 1,
              sum: value,
              min: value,
              max: value,
            })
          } else {
            bucket.count += 1
            bucket.sum += value
            if (value < bucket.min) bucket.min = value
            if (value > bucket.max) bucket.max = value
          }
        }
        const last = latest.get(seriesId)
        if (last === undefined || ts >= last.ts) latest.set(seriesId, { ts, value })
      }
      for (const [index, level] of rollupLevels.entries()) {
        const buckets = [...rollups[index]!.values()].flatMap((series) => [...series.values()])
        if (writer) writer.upsertBuckets(level.table, buckets)
        else await upsertRollups(handle, level.table, buckets)
      }
      for (const [seriesId, last] of latest) {
        if (writer) {
          writer.setLatest(seriesId, last.ts, last.value)
          continue
        }
        await handle
          .updateTable('iot_series')
          .set({ last_ts: last.ts, last_value: last.value })
          .where('id', '=', seriesId)
          .where((eb) => eb.or([eb('last_ts', 'is', null), eb('last_ts', '<=', last.ts)]))
          .execute()
      }
      return added.length
    },

    forgetSeries() {
      seriesCache.clear()
    },
  }
}
