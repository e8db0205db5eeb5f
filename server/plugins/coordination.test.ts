import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import type { DatabaseConfig } from '../config'
import { openProcessCoordination, type ProcessCoordination } from './coordination'

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined

/** Each test names its own schema: locks of other test files never meet these. */
function databaseOfATest(): DatabaseConfig {
  return postgresUrl === undefined
    ? { kind: 'sqlite', file: '' }
    : { kind: 'postgres', url: postgresUrl, schema: `lock_${randomBytes(6).toString('hex')}` }
}

const opened: ProcessCoordination[] = []
const open = (database: DatabaseConfig) => {
  const coordination = openProcessCoordination(database)
  opened.push(coordination)
  return coordination
}

/** Advisory locks some session of the database is waiting for. */
async function advisoryLocksWaiting(): Promise<number> {
  const client = new pg.Client({ connectionString: postgresUrl })
  await client.connect()
  try {
    const result = await client.query<{ waiting: number }>(
      "select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted",
    )
    return result.rows[0]?.waiting ?? 0
  } finally {
    await client.end()
  }
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((coordination) => coordination.close()))
})

describe('coordination within one process', () => {
  it('gives a named lock to one holder at a time, and again once released', async () => {
    const coordination = open(databaseOfATest())
    const release = await coordination.tryHold('upload 1')
    expect(release).toBeDefined()
    expect(await coordination.tryHold('upload 1')).toBeUndefined()
    expect(await coordination.isHeld('upload 1')).toBe(true)
    expect(await coordination.tryHold('upload 2')).toBeDefined()
    await release?.()
    expect(await coordination.isHeld('upload 1')).toBe(false)
    expect(await coordination.tryHold('upload 1')).toBeDefined()
  })

  it('skips a task of a name that is running, and runs it again after', async () => {
    const coordination = open(databaseOfATest())
    let runs = 0
    let finish = () => {}
    const first = coordination.runOnce('sweep', async () => {
      runs++
      await new Promise<void>((resolve) => {
        finish = resolve
      })
    })
    await expect.poll(() => runs).toBe(1)
    expect(await coordination.runOnce('sweep', async () => void runs++)).toBe(false)
    finish()
    expect(await first).toBe(true)
    expect(await coordination.runOnce('sweep', async () => void runs++)).toBe(true)
    expect(runs).toBe(2)
  })
})

describe.skipIf(postgresUrl === undefined)('coordination of processes on PostgreSQL', () => {
  it('keeps a lock held by one process from every other, and frees it when that one ends', async () => {
    const database = databaseOfATest()
    const first = open(database)
    const second = open(database)
    expect(await first.tryHold('upload 1')).toBeDefined()
    expect(await second.tryHold('upload 1')).toBeUndefined()
    expect(await second.isHeld('upload 1')).toBe(true)
    expect(await second.runOnce('upload 1', async () => {})).toBe(false)
    // a process that dies loses its connection, and its locks with it
    await first.close()
    expect(await second.isHeld('upload 1')).toBe(false)
    expect(await second.tryHold('upload 1')).toBeDefined()
  })

  it('tells the first process serving a database from those joining it', async () => {
    const database = databaseOfATest()
    const first = open(database)
    const second = open(database)
    await first.duringStartUp(() => first.join())
    await second.duringStartUp(() => second.join())
    expect(first.isFirstProcess()).toBe(true)
    expect(second.isFirstProcess()).toBe(false)
    await first.close()
    await second.close()
    const third = open(database)
    await third.duringStartUp(() => third.join())
    expect(third.isFirstProcess()).toBe(true)
  })

  it('never lets two start-ups run at once', async () => {
    const database = databaseOfATest()
    const first = open(database)
    const second = open(database)
    const order: string[] = []
    let finishFirst = () => {}
    const firstStart = first.duringStartUp(async () => {
      order.push('first in')
      await new Promise<void>((resolve) => {
        finishFirst = resolve
      })
      order.push('first out')
    })
    await expect.poll(() => order).toEqual(['first in'])
    const secondStart = second.duringStartUp(async () => void order.push('second in'))
    // the second waits on the database for the first's lock: seen as a lock not granted
    await expect.poll(() => advisoryLocksWaiting(), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(order).toEqual(['first in'])
    finishFirst()
    await Promise.all([firstStart, secondStart])
    expect(order).toEqual(['first in', 'first out', 'second in'])
  })

  it('keeps the locks of one schema apart from those of another', async () => {
    const one = open(databaseOfATest())
    const other = open(databaseOfATest())
    expect(await one.tryHold('sweep')).toBeDefined()
    expect(await other.tryHold('sweep')).toBeDefined()
  })
})
