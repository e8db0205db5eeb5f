import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../testing/test-app'
import type { TelemetryMessage } from './ingest-payload'
import { createSqliteIngestQueue } from './sqlite-ingest-queue'
import { createTelemetryStore, type TelemetryStore } from './telemetry-store'
import { createWalSync, type WalSync } from './wal-sync'

/**
 * The telemetry writes on a real database: each point stored and summed once whatever a body
 * repeats (in itself, or of what was stored before), on SQLite and PostgreSQL; and SQLite's group
 * commit, which writes a group straight through and, when one write fails, undoes it alone.
 */

let test: TestApp
const database = () => test.app.deps.database
const isSqlite = !process.env.DATABASE_URL?.startsWith('postgres')
const startMs = Date.UTC(2026, 10, 1)

beforeAll(async () => {
  test = await createTestApp()
}, 60_000)

afterAll(async () => {
  await test?.close()
})

/** `count` messages one second apart from `fromMs`, each with the given keys' values. */
function messages(fromMs: number, count: number, keys: readonly string[]): TelemetryMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    ts: fromMs + index * 1000,
    values: keys.map((key, keyIndex): [string, number] => [key, index + keyIndex / 10]),
  }))
}

/** The device's points and what its 1-minute and 1-hour rollups counted. */
async function storedOf(deviceId: string) {
  const { db } = database()
  const points = await db
    .selectFrom('iot_points')
    .innerJoin('iot_series', 'iot_series.id', 'iot_points.series_id')
    .select(['iot_series.key', 'iot_points.ts', 'iot_points.value'])
    .where('iot_series.device_id', '=', deviceId)
    .orderBy('iot_series.key')
    .orderBy('iot_points.ts')
    .execute()
  const counted = async (table: 'iot_rollups_1m' | 'iot_rollups_1h') => {
    const row = await db
      .selectFrom(table)
      .innerJoin('iot_series', 'iot_series.id', `${table}.series_id`)
      .select((eb) => [eb.fn.sum<number>(`${table}.count`).as('count')])
      .where('iot_series.device_id', '=', deviceId)
      .executeTakeFirstOrThrow()
    return Number(row.count ?? 0)
  }
  return {
    points: points.map((point) => ({ ...point, ts: Number(point.ts) })),
    minuteCount: await counted('iot_rollups_1m'),
    hourCount: await counted('iot_rollups_1h'),
  }
}

describe('the telemetry store', () => {
  let store: TelemetryStore
  const write = (deviceId: string, body: TelemetryMessage[]) =>
    database()
      .db.transaction()
      .execute((transaction) => store.write(transaction, deviceId, body))

  beforeAll(() => {
    store = createTelemetryStore(database())
  })

  it('stores a point a body holds twice once, the first value, summed once', async () => {
    const ts = startMs
    expect(
      await write('store-twice', [
        { ts, values: [['t', 1]] },
        { ts: ts + 1000, values: [['t', 2]] },
        { ts, values: [['t', 3]] },
      ]),
    ).toBe(2)
    const stored = await storedOf('store-twice')
    expect(stored.points).toEqual([
      { key: 't', ts, value: 1 },
      { key: 't', ts: ts + 1000, value: 2 },
    ])
    expect(stored.minuteCount).toBe(2)
    expect(stored.hourCount).toBe(2)
  })

  it('counts new points between stored ones as new, and stored ones never again', async () => {
    const even = messages(startMs, 30, ['a', 'b']).filter((_, index) => index % 2 === 0)
    const odd = messages(startMs, 30, ['a', 'b']).filter((_, index) => index % 2 === 1)
    expect(await write('store-between', even)).toBe(30)
    // a backfill: every time falls between two stored ones
    expect(await write('store-between', odd)).toBe(30)
    // a gateway's retry of all of it, plus one new message
    expect(await write('store-between', messages(startMs, 31, ['a', 'b']))).toBe(2)
    const stored = await storedOf('store-between')
    expect(stored.points).toHaveLength(62)
    expect(stored.minuteCount).toBe(62)
    expect(stored.hourCount).toBe(62)
  })

  it('stores a large body of new points whole (the multi-row statements)', async () => {
    // 173 messages × 3 keys: 519 points, not a multiple of any statement's size
    const body = messages(startMs, 173, ['x', 'y', 'z'])
    expect(await write('store-large', body)).toBe(519)
    const stored = await storedOf('store-large')
    expect(stored.points).toHaveLength(519)
    expect(stored.points.filter((point) => point.key === 'y').map((point) => point.ts)).toEqual(
      body.map((message) => message.ts),
    )
    expect(stored.minuteCount).toBe(519)
  })
})

describe.skipIf(!isSqlite)('the group commit on SQLite', () => {
  it('commits the other writes of a group when one fails, and keeps nothing of the failed one', async () => {
    const store = createTelemetryStore(database())
    // the failing write has stored its points when it fails: they must be undone
    const failing: TelemetryStore = {
      ...store,
      async write(handle, deviceId, body) {
        const count = await store.write(handle, deviceId, body)
        if (deviceId === 'group-failing') throw new Error('disk on fire')
        return count
      },
    }
    const sqlite = database().sqlite!
    const queue = createSqliteIngestQueue({ database: database(), sqlite, store: failing })
    // written in the same turn of the event loop: one group
    const answers = await Promise.allSettled([
      queue.write('group-first', messages(startMs, 20, ['v', 'w']), startMs),
      queue.write('group-failing', messages(startMs, 20, ['v', 'w']), startMs),
      queue.write('group-last', messages(startMs, 20, ['v', 'w']), startMs),
    ])
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(answers[0]).toMatchObject({ value: 40 })
    expect(answers[2]).toMatchObject({ value: 40 })
    for (const deviceId of ['group-first', 'group-last']) {
      // written twice (straight through, then one by one), committed and summed once
      const stored = await storedOf(deviceId)
      expect(stored.points).toHaveLength(40)
      expect(stored.minuteCount).toBe(40)
      expect(stored.hourCount).toBe(40)
    }
    expect(await storedOf('group-failing')).toEqual({ points: [], minuteCount: 0, hourCount: 0 })
    expect(sqlite.inTransaction).toBe(false)

    // the queue goes on: the next group is written straight through
    expect(await queue.write('group-first', messages(startMs + 20_000, 5, ['v']), startMs)).toBe(5)
    expect((await storedOf('group-first')).points).toHaveLength(45)
  })
})

describe.skipIf(!isSqlite)('durability of the group commit on SQLite', () => {
  /** A WAL sync the test finishes by hand, counting how many syncs were asked for. */
  function heldSync() {
    const releases: Array<() => void> = []
    const held: WalSync & { asked: number; release(): void } = {
      asked: 0,
      durable() {
        held.asked++
        return new Promise<void>((resolve) => releases.push(resolve))
      },
      release() {
        for (const resolve of releases.splice(0)) resolve()
      },
    }
    return held
  }
  /** Lets the event loop turn until `isDone` holds (the queue works across turns). */
  async function turnsUntil(isDone: () => boolean) {
    while (!isDone()) await new Promise((resolve) => setImmediate(resolve))
  }

  it('answers a write only after the WAL sync that follows its commit, and keeps FULL for other writes', async () => {
    const sqlite = database().sqlite!
    const walSync = heldSync()
    const store = createTelemetryStore(database())
    const queue = createSqliteIngestQueue({ database: database(), sqlite, store, walSync })
    let answered: number | undefined
    void queue.write('durable-one', messages(startMs, 10, ['d']), startMs).then((count) => {
      answered = count
    })
    await turnsUntil(() => walSync.asked === 1)
    // committed (other connections see it), not yet answered: the disk has not flushed it
    expect((await storedOf('durable-one')).points).toHaveLength(10)
    expect(answered).toBeUndefined()
    expect(sqlite.pragma('synchronous', { simple: true })).toBe(2)
    walSync.release()
    await turnsUntil(() => answered !== undefined)
    expect(answered).toBe(10)
  })

  it('puts the writes that arrive while a sync runs into one next transaction', async () => {
    const sqlite = database().sqlite!
    const walSync = heldSync()
    const store = createTelemetryStore(database())
    const queue = createSqliteIngestQueue({ database: database(), sqlite, store, walSync })
    const first = queue.write('waiting-first', messages(startMs, 5, ['w']), startMs)
    await turnsUntil(() => walSync.asked === 1)
    // two devices' writes in later turns, while the first commit's sync runs
    const second = queue.write('waiting-second', messages(startMs, 5, ['w']), startMs)
    await new Promise((resolve) => setImmediate(resolve))
    const third = queue.write('waiting-third', messages(startMs, 5, ['w']), startMs)
    await new Promise((resolve) => setImmediate(resolve))
    expect((await storedOf('waiting-second')).points).toHaveLength(0)
    walSync.release()
    expect(await first).toBe(5)
    await turnsUntil(() => walSync.asked === 2)
    walSync.release()
    expect(await Promise.all([second, third])).toEqual([5, 5])
    // one transaction, one sync for both
    expect(walSync.asked).toBe(2)
  })

  it('syncs the real WAL, one sync for the commits made while one runs', async () => {
    const walSync = createWalSync(database().sqlite!.name)
    const first = walSync.durable()
    const second = walSync.durable()
    const third = walSync.durable()
    expect(second).toBe(third)
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined])
  })
})
