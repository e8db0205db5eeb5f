import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../contract/envelope'
import type { DownloadState } from '../contract/offline-package'
import type { DatabaseConfig } from './config'
import { findMosquitto } from './modules/iot/mqtt/mqtt-broker'
import { verifyLedger } from './modules/orders/ledger'
import { openDatabase } from './plugins/db'
import { brokerProcessesOf } from './testing/broker-processes'
import { type ServerProcess, startServerProcess } from './testing/server-process'

/**
 * R6 with a crash (issue 20): the real server (serve.ts in a child process, on SQLite, or on
 * PostgreSQL in a schema of its own when DATABASE_URL is a postgres:// address) takes many
 * concurrent pays of orders whose total the balance covers exactly, is killed with SIGKILL in
 * the middle, restarts on the same data: every acknowledged payment is there, no order is half
 * paid, no point is created or lost, and retrying with the same keys finishes the rest, each
 * charged once. Then an offline package build is killed mid-way: after the restart nothing of
 * it is served, no point moved, and a new build completes. Each killed server's MQTT broker
 * dies with it (mqtt-broker.ts: parent-death signal): none is left holding its port.
 */

const orderCount = 20
const paysPerOrder = 5
const price = 500
const admin = { name: 'admin', password: 'sigkill-admin-password' }

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined
// CI installs mosquitto (.ci/run): there the killed servers run a broker that must die with them
const hasMosquitto = findMosquitto(undefined) !== undefined

/** Runs one statement on the PostgreSQL server (schema set-up and clean-up). */
async function runOnPostgres(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

describe(`R6 through a SIGKILL (${postgresUrl === undefined ? 'SQLite' : 'PostgreSQL'})`, () => {
  let dataDir: string
  let database: DatabaseConfig
  const schema = `r6_kill_${randomBytes(6).toString('hex')}`
  const running: ServerProcess[] = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'twinscape-r6-kill-'))
    if (postgresUrl !== undefined) await runOnPostgres(postgresUrl, `create schema ${schema}`)
    database =
      postgresUrl === undefined
        ? { kind: 'sqlite', file: join(dataDir, 'twinscape.sqlite') }
        : { kind: 'postgres', url: postgresUrl, schema }
  })
  afterAll(async () => {
    for (const server of running) server.child.kill('SIGKILL')
    await Promise.all(running.map((server) => server.exited))
    if (postgresUrl !== undefined) {
      await runOnPostgres(postgresUrl, `drop schema if exists ${schema} cascade`)
    }
    await rm(dataDir, { recursive: true, force: true })
  })

  /** The database the killed servers use, opened beside them (the test's own writes and checks). */
  const withDatabase = async <Result>(
    use: (handle: ReturnType<typeof openDatabase>) => Promise<Result>,
  ): Promise<Result> => {
    const handle = openDatabase(database)
    try {
      return await use(handle)
    } finally {
      await handle.close()
    }
  }

  /** SIGKILLs the server and waits until it is gone, and its broker with it. */
  const kill = async (server: ServerProcess) => {
    server.child.kill('SIGKILL')
    expect(await server.exited).toBe('SIGKILL')
    // the kernel signals the broker as the server dies; it exits within moments
    await expect.poll(() => brokerProcessesOf(dataDir), { timeout: 10_000 }).toEqual([])
  }

  const start = async () => {
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      ...(postgresUrl === undefined
        ? { DATABASE_URL: '' }
        : { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema }),
      // a broker on a free port (never 1883: another server may hold it), where installed
      MQTT: hasMosquitto ? 'on' : 'off',
      MQTT_PORT: '0',
      WEB_DIR: join(dataDir, 'no-web-build'),
      LOG_LEVEL: 'info',
      ADMIN_NAME: admin.name,
      ADMIN_PASSWORD: admin.password,
      REFUSED_REQUESTS_BURST: '0',
    })
    running.push(server)
    if (hasMosquitto) expect(await brokerProcessesOf(dataDir)).toHaveLength(1)
    return server
  }
  const post = async <Datum>(
    server: ServerProcess,
    path: string,
    body: unknown,
    token?: string,
  ): Promise<Envelope<Datum>> => {
    const response = await fetch(`${server.baseUrl}/web/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
      body: JSON.stringify(body),
    })
    return (await response.json()) as Envelope<Datum>
  }
  const ledgerProblems = () =>
    withDatabase(async (handle) => (await verifyLedger(handle.db)).problems)

  it('keeps payments whole and points conserved when the server is killed mid-run', async () => {
    let server = await start()
    const adminToken = (await post<{ token: string }>(server, 'login', admin)).datum.token
    const payerAccount = {
      name: `r6-kill-${randomUUID().slice(0, 6)}`,
      password: 'R6-kill-pass-1',
    }
    const created = await post(
      server,
      'user/insertUser',
      { ...payerAccount, role: 'editor' },
      adminToken,
    )
    expect(created.code, created.message).toBe('0')
    let payer = (await post<{ token: string }>(server, 'login', payerAccount)).datum.token

    // projects straight into the table (beside the running server: SQLite's WAL takes a
    // second writer)
    const projectIds = Array.from({ length: orderCount }, () => randomUUID())
    await withDatabase(async ({ db }) => {
      const { id: payerId } = await db
        .selectFrom('users')
        .select('id')
        .where('name', '=', payerAccount.name)
        .executeTakeFirstOrThrow()
      const now = new Date().toISOString()
      await db
        .insertInto('projects')
        .values(
          projectIds.map((id, index) => ({
            id,
            kind: 'building',
            name: `R6 kill ${index}`,
            detailedaddress: 'Test street',
            description: '',
            owner_id: payerId,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute()
    })

    const orderIds: string[] = []
    for (const projectId of projectIds) {
      const list = await post<{ lines: Array<{ id: string; item_id: string }> }>(
        server,
        'orderManage/getShoppingList',
        { project_id: projectId },
        payer,
      )
      const idOf = (itemId: string) => list.datum.lines.find((line) => line.item_id === itemId)!.id
      const ordered = await post<{ orderId: string; total: number }>(
        server,
        'orderManage/addOrder',
        { project_id: projectId, ids: [idOf('watermark-removal'), idOf('support-community')] },
        payer,
      )
      expect(ordered.datum.total).toBe(price)
      orderIds.push(ordered.datum.orderId)
    }
    const recharge = await post<{ code: string }>(
      server,
      'orderManage/recharge',
      { amount: orderCount * price },
      payer,
    )
    const confirmed = await post(
      server,
      'orderManage/confirmRecharge',
      { code: recharge.datum.code },
      adminToken,
    )
    expect(confirmed.code, confirmed.message).toBe('0')

    // every order paid several times at once, most retries under the order's one key
    const keyOf = (orderId: string) => `pay-${orderId}`
    const acknowledged = new Set<string>()
    let killed = false
    const first = server
    const pays = orderIds.flatMap((orderId) =>
      Array.from({ length: paysPerOrder }, (_, attempt) => ({
        orderId,
        key: attempt < 3 ? keyOf(orderId) : `other-${randomUUID()}`,
      })),
    )
    await Promise.all(
      pays.map(async ({ orderId, key }) => {
        try {
          const answer = await post(
            first,
            'orderManage/pay',
            { order_id: orderId, idempotency_key: key },
            payer,
          )
          if (answer.code === '0') acknowledged.add(orderId)
          if (acknowledged.size >= orderCount / 4 && !killed) {
            killed = true
            first.child.kill('SIGKILL')
          }
        } catch (error) {
          // requests in flight when the process died
          if (!killed) throw error
        }
      }),
    )
    await kill(first)

    server = await start()
    payer = (await post<{ token: string }>(server, 'login', payerAccount)).datum.token
    expect(await ledgerProblems()).toEqual([])
    const history = await post<{ list: Array<{ id: string; state: string }> }>(
      server,
      'orderManage/getHistoryOrderAll',
      { pageNo: 1, pageSize: 100 },
      payer,
    )
    const stateOf = new Map(history.datum.list.map((order) => [order.id, order.state]))
    // what the server acknowledged before dying was kept; nothing else is half-done
    for (const orderId of acknowledged) expect(stateOf.get(orderId)).toBe('paid')
    for (const orderId of orderIds) expect(['paid', 'unpaid']).toContain(stateOf.get(orderId))
    const paidCount = orderIds.filter((orderId) => stateOf.get(orderId) === 'paid').length
    const balanceAfterCrash = await post<{ balance: number }>(
      server,
      'orderManage/getAccountAmount',
      {},
      payer,
    )
    expect(balanceAfterCrash.datum.balance).toBe((orderCount - paidCount) * price)

    // retried with the same keys: the paid ones answer as replays, the rest are charged once
    for (const orderId of orderIds) {
      const answer = await post(
        server,
        'orderManage/pay',
        { order_id: orderId, idempotency_key: keyOf(orderId) },
        payer,
      )
      // an order paid under a key that died with its answer refuses another key's payment
      if (answer.code !== '0') expect(stateOf.get(orderId)).toBe('paid')
    }
    const finalBalance = await post<{ balance: number }>(
      server,
      'orderManage/getAccountAmount',
      {},
      payer,
    )
    expect(finalBalance.datum.balance).toBe(0)
    expect(await ledgerProblems()).toEqual([])

    // an offline package build killed mid-way: a project with one large model file
    const projectId = projectIds[0]!
    const chunk = randomBytes(1 << 20)
    const hash = createHash('sha256')
    const stagingPath = join(dataDir, 'large-model.bin')
    const staging = createWriteStream(stagingPath)
    for (let megabyte = 0; megabyte < 96; megabyte++) {
      hash.update(chunk)
      if (!staging.write(chunk)) await once(staging, 'drain')
    }
    staging.end()
    await once(staging, 'finish')
    const sha256 = hash.digest('hex')
    await mkdir(join(dataDir, 'files', sha256.slice(0, 2)), { recursive: true })
    const { rename } = await import('node:fs/promises')
    await rename(stagingPath, join(dataDir, 'files', sha256.slice(0, 2), sha256))
    await withDatabase(async ({ db }) => {
      const now = new Date().toISOString()
      await db
        .insertInto('building_models')
        .values({
          id: randomUUID(),
          project_id: projectId,
          name: 'Large',
          file_name: 'large.sbm',
          role: 'model',
          sha256,
          size_bytes: 96 << 20,
          triangle_count: 0,
          has_stored_bvh: 0,
          created_at: now,
          updated_at: now,
        })
        .execute()
    })
    const started = await post<{ id: string }>(
      server,
      'bimBiz/buildSbkFile',
      { project_id: projectId },
      payer,
    )
    expect(started.code, started.message).toBe('0')
    const cutId = started.datum.id
    await kill(server)

    server = await start()
    payer = (await post<{ token: string }>(server, 'login', payerAccount)).datum.token
    const afterKill = await post<DownloadState>(
      server,
      'bimBiz/checkSbkDownloadState',
      { project_id: projectId },
      payer,
    )
    const folder = join(dataDir, 'offline-packages', projectId)
    if (afterKill.datum.package?.state === 'ready') {
      // the build won the race with the kill: then it is whole (renamed only once synced)
      expect(await readdir(folder)).toEqual([`${cutId}.zip`])
    } else {
      expect(afterKill.datum.package).toMatchObject({
        id: cutId,
        state: 'failed',
        error_message_id: 'offlinePackage.interrupted',
        download_url: null,
      })
      expect(await readdir(folder).catch(() => [])).toEqual([])
    }
    // building never moves points
    const balanceAfterBuild = await post<{ balance: number }>(
      server,
      'orderManage/getAccountAmount',
      {},
      payer,
    )
    expect(balanceAfterBuild.datum.balance).toBe(0)

    // a new build completes and serves the whole package, resumable
    const rebuilt = await post<{ id: string }>(
      server,
      'bimBiz/buildSbkFile',
      { project_id: projectId },
      payer,
    )
    expect(rebuilt.code, rebuilt.message).toBe('0')
    let ready: DownloadState['package'] = null
    while (ready === null) {
      const current = await post<DownloadState>(
        server,
        'bimBiz/checkSbkDownloadState',
        { project_id: projectId },
        payer,
      )
      const item = current.datum.package
      expect(item?.state).not.toBe('failed')
      if (item?.state === 'ready') ready = item
      else await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(ready.size_bytes).toBeGreaterThan(96 << 20)
    const tail = await fetch(`${server.baseUrl}${ready.download_url}`, {
      headers: { range: `bytes=${ready.size_bytes! - 22}-` },
    })
    expect(tail.status).toBe(206)
    // the zip's end-of-central-directory record closes the file: the package is whole
    const end = Buffer.from(await tail.arrayBuffer())
    expect(end.readUInt32LE(0)).toBe(0x06054b50)
    expect(await ledgerProblems()).toEqual([])

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(await brokerProcessesOf(dataDir)).toEqual([])
  }, 300_000) // three real server processes on a loaded 2-core machine
})
