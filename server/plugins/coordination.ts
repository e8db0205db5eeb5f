import { createHash, randomBytes } from 'node:crypto'
import pg from 'pg'
import type { DatabaseConfig } from '../config'

/**
 * What the server processes sharing one database agree on without a home-made protocol
 * (issue 22 item 2): PostgreSQL advisory locks held on one connection per process, so a lock of
 * a process that dies is released with its connection. On SQLite there is one process by
 * nature (CLUSTER_WORKERS needs PostgreSQL), and the same calls only guard within it.
 */
export interface ProcessCoordination {
  /**
   * Runs `task` while holding the start-up lock: processes starting together migrate, seed and
   * clear crash leftovers one after the other, never at the same time.
   */
  duringStartUp<T>(task: () => Promise<T>): Promise<T>
  /**
   * Joins the processes serving this database (held until this process ends). Call it inside
   * `duringStartUp`, before the app's ready hooks, so `isFirstProcess` is settled for them.
   */
  join(): Promise<void>
  /**
   * True when no other process served the database when this one joined (and before joining,
   * as a lone process or a test app is): only then are half-done files and builds leftovers of
   * a crash; with a live peer they may be that peer's work in progress.
   */
  isFirstProcess(): boolean
  /**
   * Runs `task` unless another process (or this one) is running the task of that name right
   * now: hourly sweeps run once across processes, not once per process. False when skipped.
   */
  runOnce(name: string, task: () => Promise<void>): Promise<boolean>
  /**
   * Takes the named lock for the caller until it calls the returned release; undefined when
   * anyone (this process or another) holds it (e.g. an upload being claimed).
   */
  tryHold(name: string): Promise<(() => Promise<void>) | undefined>
  /** True while anyone holds the named lock. */
  isHeld(name: string): Promise<boolean>
  /**
   * Sends a short text (under 7,900 bytes) to the other processes listening on `channel`
   * (PostgreSQL NOTIFY); false when it is too long to send. Nobody else hears it on SQLite.
   */
  broadcast(channel: string, text: string): Promise<boolean>
  /** Calls `listener` with each text another process broadcasts on `channel`. */
  onBroadcast(channel: string, listener: (text: string) => void): Promise<void>
  close(): Promise<void>
}

/** Opens the coordination of the processes using `database` (nothing is connected until used). */
export function openProcessCoordination(database: DatabaseConfig): ProcessCoordination {
  return database.kind === 'postgres'
    ? postgresCoordination(database.url, database.schema)
    : inProcessCoordination()
}

/** Locks within this process only: the lone process of a SQLite database. */
function inProcessCoordination(): ProcessCoordination {
  const held = new Set<string>()
  const tryHold = async (name: string) => {
    if (held.has(name)) return undefined
    held.add(name)
    return async () => void held.delete(name)
  }
  return {
    duringStartUp: (task) => task(),
    join: async () => {},
    isFirstProcess: () => true,
    runOnce: (name, task) => runHeld(tryHold, name, task),
    tryHold,
    isHeld: async (name) => held.has(name),
    broadcast: async (_channel, text) => Buffer.byteLength(text) <= maxBroadcastBytes,
    onBroadcast: async () => {},
    close: async () => {},
  }
}

async function runHeld(
  tryHold: ProcessCoordination['tryHold'],
  name: string,
  task: () => Promise<void>,
): Promise<boolean> {
  const release = await tryHold(name)
  if (release === undefined) return false
  try {
    await task()
  } finally {
    await release()
  }
  return true
}

/**
 * Advisory locks are per database, not per schema: the key names the schema too, so test apps
 * (a schema each) and installations sharing a database never hold each other's locks.
 */
function lockKeyOf(schema: string | undefined, name: string): string {
  const digest = createHash('sha256')
    .update(`twinscape\n${schema ?? ''}\n${name}`)
    .digest()
  return digest.readBigInt64BE(0).toString()
}

/** NOTIFY carries at most 8,000 bytes; the sender's id and the channel's name take some. */
const maxBroadcastBytes = 7_900

function postgresCoordination(url: string, schema: string | undefined): ProcessCoordination {
  // one session holds every lock of this process: they end with it, even on SIGKILL
  let client: Promise<pg.Client> | undefined
  const session = () => {
    client ??= (async () => {
      const opened = new pg.Client({ connectionString: url })
      // a lost connection has lost its locks: the process must not go on believing it holds them
      opened.on('error', (error) => {
        process.emitWarning(`coordination connection lost: ${error.message}`)
      })
      await opened.connect()
      return opened
    })()
    return client
  }
  const query = async (text: string, name: string) => {
    const result = await (await session()).query<{ ok: boolean }>(text, [lockKeyOf(schema, name)])
    return result.rows[0]?.ok
  }
  // a session may take its own advisory lock twice: this set keeps a name to one holder here
  const heldHere = new Set<string>()
  let isFirst = true
  // a process hears its own notifications too: each carries the sender, and its own are dropped
  const sender = randomBytes(6).toString('hex')
  const listeners = new Map<string, Array<(text: string) => void>>()
  const channelOf = (name: string) => `twinscape_${lockKeyOf(schema, name).replace('-', 'n')}`

  const tryHold = async (name: string) => {
    if (heldHere.has(name)) return undefined
    heldHere.add(name)
    const isTaken = await query('select pg_try_advisory_lock($1::bigint) as ok', name).catch(
      (error: unknown) => {
        heldHere.delete(name)
        throw error
      },
    )
    if (!isTaken) {
      heldHere.delete(name)
      return undefined
    }
    let isReleased = false
    return async () => {
      if (isReleased) return
      isReleased = true
      try {
        await query('select pg_advisory_unlock($1::bigint) as ok', name)
      } finally {
        heldHere.delete(name)
      }
    }
  }

  return {
    async duringStartUp(task) {
      await query('select pg_advisory_lock($1::bigint) is not null as ok', 'start-up')
      try {
        return await task()
      } finally {
        await query('select pg_advisory_unlock($1::bigint) as ok', 'start-up')
      }
    },
    async join() {
      // alone if nobody holds the shared "serving" lock; then hold it shared for life
      isFirst = (await query('select pg_try_advisory_lock($1::bigint) as ok', 'serving')) === true
      if (isFirst) await query('select pg_advisory_unlock($1::bigint) as ok', 'serving')
      await query('select pg_advisory_lock_shared($1::bigint) is not null as ok', 'serving')
    },
    isFirstProcess: () => isFirst,
    runOnce: (name, task) => runHeld(tryHold, name, task),
    tryHold,
    async isHeld(name) {
      if (heldHere.has(name)) return true
      const release = await tryHold(name)
      if (release === undefined) return true
      await release()
      return false
    },
    async broadcast(channel, text) {
      if (Buffer.byteLength(text) > maxBroadcastBytes) return false
      await (await session()).query('select pg_notify($1, $2)', [
        channelOf(channel),
        `${sender} ${text}`,
      ])
      return true
    },
    async onBroadcast(channel, listener) {
      const opened = await session()
      const name = channelOf(channel)
      if (!listeners.has(name)) {
        if (listeners.size === 0) {
          opened.on('notification', (message) => {
            const text = message.payload ?? ''
            if (text.startsWith(`${sender} `)) return
            const body = text.slice(text.indexOf(' ') + 1)
            for (const heard of listeners.get(message.channel) ?? []) heard(body)
          })
        }
        listeners.set(name, [])
        await opened.query(`listen ${name}`)
      }
      listeners.get(name)!.push(listener)
    },
    async close() {
      if (client === undefined) return
      const opened = await client.catch(() => undefined)
      client = undefined
      await opened?.end().catch(() => undefined)
    },
  }
}
