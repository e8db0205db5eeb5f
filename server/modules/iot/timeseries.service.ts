import { sql } from 'kysely'
import type { z } from 'zod'
import {
  type DeviceTimeseries,
  type deviceTimeseriesBodySchema,
  iotLimits,
} from '../../../contract/iot'
import { AppError, fieldError } from '../../http/app-error'
import type { Database, DatabaseHandle } from '../../plugins/db'
import type { ProjectAccess, ProjectCaller } from '../access/project-access'
import { type RollupTable, rollupLevels } from './telemetry-store'

type TimeseriesQuery = z.output<typeof deviceTimeseriesBodySchema>

/**
 * `getDeviceTimeseries` (contract/iot.ts). Aggregates come from the coarsest rollup whose width
 * divides the interval: the range is split into the part whole rollup buckets cover, answered
 * from them, and its two ragged ends, answered from the next finer level (1 h → 1 min → raw), so
 * 30 days at 1 h read ~720 hour rows per key and at most two hours of minute rows and two
 * minutes of raw points, never the 2.6 million raw points.
 */
export interface TimeseriesService {
  query(caller: ProjectCaller, input: TimeseriesQuery): Promise<DeviceTimeseries>
}

/** Where one part of a range is read from. */
export interface RangeSegment {
  source: RollupTable | 'iot_points'
  startTs: number
  endTs: number
}

/**
 * Splits `[startTs, endTs)` into parts each read from one source: whole buckets of the coarsest
 * rollup whose width divides `intervalMs` (so each rollup row falls in one answer bucket), the
 * rest from finer levels, then raw points. Pure, for tests.
 */
export function planSegments(startTs: number, endTs: number, intervalMs: number): RangeSegment[] {
  const first = rollupLevels.findIndex((level) => intervalMs % level.widthMs === 0)
  if (first === -1) return startTs < endTs ? [{ source: 'iot_points', startTs, endTs }] : []
  const split = (start: number, end: number, levelIndex: number): RangeSegment[] => {
    if (start >= end) return []
    const level = rollupLevels[levelIndex]
    if (level === undefined) return [{ source: 'iot_points', startTs: start, endTs: end }]
    const alignedStart = Math.ceil(start / level.widthMs) * level.widthMs
    const alignedEnd = Math.floor(end / level.widthMs) * level.widthMs
    if (alignedStart >= alignedEnd) return split(start, end, levelIndex + 1)
    return [
      ...split(start, alignedStart, levelIndex + 1),
      { source: level.table, startTs: alignedStart, endTs: alignedEnd },
      ...split(alignedEnd, end, levelIndex + 1),
    ]
  }
  return split(startTs, endTs, first)
}

interface BucketAggregate {
  count: number
  sum: number
  min: number
  max: number
}

/** Builds the service. */
export function createTimeseriesService(dependencies: {
  database: DatabaseHandle
  access: ProjectAccess
}): TimeseriesService {
  const { database, access } = dependencies
  const { db } = database
  const notFound = () => new AppError('notFound', 'iot.deviceNotFound')

  const deviceOf = async (caller: ProjectCaller, input: TimeseriesQuery) => {
    let query = db.selectFrom('iot_devices').select(['id', 'project_id'])
    if (input.device_id !== undefined) query = query.where('id', '=', input.device_id)
    else if (input.id !== undefined) query = query.where('poi_id', '=', input.id)
    else if (input.projectid !== undefined && input.devicecode !== undefined) {
      query = query
        .where('project_id', '=', input.projectid)
        .where('devicecode', '=', input.devicecode)
    } else throw fieldError('validation', 'device_id', 'iot.nameTheDevice')
    const device = await query.executeTakeFirst()
    if (!device) throw notFound()
    try {
      await access.requireReadable(caller, device.project_id)
    } catch (error) {
      if (error instanceof AppError && error.kind !== 'sessionTimeout') throw notFound()
      throw error
    }
    return device
  }

  /** Partial aggregates per series and answer bucket of one segment, added into `into`. */
  const readSegment = async (
    handle: Database,
    segment: RangeSegment,
    seriesIds: number[],
    intervalMs: number,
    into: Map<number, Map<number, BucketAggregate>>,
  ) => {
    const interval = sql.lit(intervalMs)
    const rows =
      segment.source === 'iot_points'
        ? await handle
            .selectFrom('iot_points')
            .select((eb) => [
              'series_id',
              sql<number>`ts / ${interval}`.as('bucket'),
              eb.fn.countAll().as('count'),
              eb.fn.sum('value').as('sum'),
              eb.fn.min('value').as('min'),
              eb.fn.max('value').as('max'),
            ])
            .where('series_id', 'in', seriesIds)
            .where('ts', '>=', segment.startTs)
            .where('ts', '<', segment.endTs)
            .groupBy(['series_id', sql`ts / ${interval}`])
            .execute()
        : await handle
            .selectFrom(segment.source)
            .select((eb) => [
              'series_id',
              sql<number>`bucket_ts / ${interval}`.as('bucket'),
              eb.fn.sum('count').as('count'),
              eb.fn.sum('sum').as('sum'),
              eb.fn.min('min').as('min'),
              eb.fn.max('max').as('max'),
            ])
            .where('series_id', 'in', seriesIds)
            .where('bucket_ts', '>=', segment.startTs)
            .where('bucket_ts', '<', segment.endTs)
            .groupBy(['series_id', sql`bucket_ts / ${interval}`])
            .execute()
    for (const row of rows) {
      const seriesId = Number(row.series_id)
      const bucket = Number(row.bucket)
      const partial = {
        count: Number(row.count),
        sum: Number(row.sum),
        min: Number(row.min),
        max: Number(row.max),
      }
      let buckets = into.get(seriesId)
      if (buckets === undefined) {
        buckets = new Map()
        into.set(seriesId, buckets)
      }
      const known = buckets.get(bucket)
      if (known === undefined) buckets.set(bucket, partial)
      else {
        known.count += partial.count
        known.sum += partial.sum
        known.min = Math.min(known.min, partial.min)
        known.max = Math.max(known.max, partial.max)
      }
    }
  }

  return {
    async query(caller, input) {
      const device = await deviceOf(caller, input)
      if (input.startTs >= input.endTs) throw fieldError('validation', 'startTs', 'iot.rangeOrder')
      const keys = [...new Set(input.keys)]
      const answer: DeviceTimeseries = Object.fromEntries(keys.map((key) => [key, []]))
      const series = await db
        .selectFrom('iot_series')
        .select(['id', 'key'])
        .where('device_id', '=', device.id)
        .where('key', 'in', keys)
        .execute()
      if (input.agg === 'NONE') {
        for (const { id, key } of series) {
          const rows = await db
            .selectFrom('iot_points')
            .select(['ts', 'value'])
            .where('series_id', '=', Number(id))
            .where('ts', '>=', input.startTs)
            .where('ts', '<', input.endTs)
            .orderBy('ts')
            .limit(input.limit)
            .execute()
          answer[key] = rows.map((row) => ({ ts: Number(row.ts), value: Number(row.value) }))
        }
        return answer
      }
      const intervalMs = input.interval
      if (intervalMs === undefined)
        throw fieldError('validation', 'interval', 'iot.intervalRequired')
      const bucketCount =
        Math.ceil(input.endTs / intervalMs) - Math.floor(input.startTs / intervalMs)
      if (bucketCount > iotLimits.maxQueryLimit) {
        throw fieldError('validation', 'interval', 'iot.tooManyBuckets', {
          count: bucketCount,
          maximum: iotLimits.maxQueryLimit,
        })
      }
      if (series.length === 0) return answer
      const seriesIds = series.map((row) => Number(row.id))
      const partials = new Map<number, Map<number, BucketAggregate>>()
      for (const segment of planSegments(input.startTs, input.endTs, intervalMs)) {
        await readSegment(db, segment, seriesIds, intervalMs, partials)
      }
      for (const { id, key } of series) {
        const buckets = [
          ...(partials.get(Number(id)) ?? new Map<number, BucketAggregate>()).entries(),
        ]
        buckets.sort((a, b) => a[0] - b[0])
        answer[key] = buckets.slice(0, input.limit).map(([bucket, partial]) => ({
          ts: bucket * intervalMs,
          value: aggregateOf(input.agg, partial),
        }))
      }
      return answer
    },
  }
}

function aggregateOf(agg: TimeseriesQuery['agg'], partial: BucketAggregate): number {
  switch (agg) {
    case 'MIN':
      return partial.min
    case 'MAX':
      return partial.max
    case 'SUM':
      return partial.sum
    case 'COUNT':
      return partial.count
    default:
      return partial.sum / partial.count
  }
}
