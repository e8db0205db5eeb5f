import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess, startServerProcess } from './server-process'
import { runOnPostgres } from './test-app'

/**
 * Two `server/serve.ts` processes on one PostgreSQL schema and one DATA_DIR (as two machines
 * share a database and a volume), behind a tiny proxy that sends each request to the next
 * process in turn (issue 22 item 2). A process that refuses the connection (killed) is skipped,
 * as a load balancer's health check would: the other carries on.
 */
export interface TwoProcesses {
  /** `http://127.0.0.1:<proxy port>`: where clients talk to the pair. */
  baseUrl: string
  processes: [ServerProcess, ServerProcess]
  /** Requests the proxy sent to each process so far. */
  served: [number, number]
  /** Ends one process at once (SIGKILL), mid-request if one is running. */
  kill(index: 0 | 1): Promise<void>
  /** Stops both processes and the proxy, drops the schema and deletes DATA_DIR. */
  close(): Promise<void>
}

/** Options of {@link startTwoProcesses}. */
export interface TwoProcessesOptions {
  /** A postgres:// database; each pair gets a new schema in it (dropped by `close`). */
  databaseUrl: string
  /** Variables for both processes (ADMIN_NAME, WEB_DIR …). */
  env?: Record<string, string>
  /** The processes' ports (0: free ones) and the proxy's. */
  ports?: [number, number]
  proxyPort?: number
  /** Set: this DATA_DIR is used (and not deleted); unset: a temporary one. */
  dataDir?: string
}

/** Starts both processes at once on an empty schema (they migrate and seed one at a time). */
export async function startTwoProcesses(options: TwoProcessesOptions): Promise<TwoProcesses> {
  const { databaseUrl } = options
  const schema = `pair_${randomBytes(6).toString('hex')}`
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'twinscape-pair-')))
  await runOnPostgres(databaseUrl, `create schema ${schema}`)
  const ports = options.ports ?? [0, 0]
  const environmentOf = (index: 0 | 1): Record<string, string> => ({
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    DATA_DIR: dataDir,
    // one machine has one MQTT port: the second process runs without its broker
    ...(index === 1 ? { MQTT: 'off' } : {}),
    ...options.env,
    // the start is read from the "Server listening" line
    LOG_LEVEL: 'info',
    PORT: String(ports[index]),
  })
  const removeData = async () => {
    await runOnPostgres(databaseUrl, `drop schema if exists ${schema} cascade`)
    if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true })
  }
  const started = await Promise.allSettled([
    startServerProcess(environmentOf(0)),
    startServerProcess(environmentOf(1)),
  ])
  const processes = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  )
  const failure = started.find((result) => result.status === 'rejected')
  if (failure !== undefined) {
    for (const running of processes) running.child.kill('SIGKILL')
    await removeData()
    throw failure.reason
  }
  const pair = processes as [ServerProcess, ServerProcess]
  const served: [number, number] = [0, 0]
  const proxy = startAlternatingProxy(
    pair.map((running) => new URL(running.baseUrl)),
    (index) => {
      served[index as 0 | 1] += 1
    },
  )
  await new Promise<void>((resolve) => proxy.listen(options.proxyPort ?? 0, '127.0.0.1', resolve))
  const address = proxy.address()
  const proxyPort = typeof address === 'object' && address !== null ? address.port : 0
  const stop = async (running: ServerProcess) => {
    if (running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL')
    }
    await running.exited
  }
  return {
    baseUrl: `http://127.0.0.1:${proxyPort}`,
    processes: pair,
    served,
    kill: (index) => stop(pair[index]),
    async close() {
      proxy.closeAllConnections()
      await new Promise<void>((resolve) => proxy.close(() => resolve()))
      await Promise.all(pair.map(stop))
      await removeData()
    },
  }
}

/**
 * An HTTP proxy that sends each request to the next target in turn, streaming both ways (SSE
 * and uploads included). A target refusing the connection is skipped for that request; the
 * request's body is only read once a target has accepted it, so nothing is lost.
 */
export function startAlternatingProxy(
  targets: readonly URL[],
  onServed: (index: number) => void = () => {},
): Server {
  let next = 0
  const forward = (incoming: IncomingMessage, outgoing: import('node:http').ServerResponse) => {
    const tryTarget = (attempt: number) => {
      const index = next
      next = (next + 1) % targets.length
      const target = targets[index]!
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
          agent: false,
        },
        (answer) => {
          onServed(index)
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        },
      )
      let isConnected = false
      upstream.on('socket', (socket) => {
        socket.once('connect', () => {
          isConnected = true
          incoming.pipe(upstream)
        })
      })
      upstream.on('error', () => {
        if (!isConnected && attempt + 1 < targets.length) {
          tryTarget(attempt + 1)
          return
        }
        // the process died mid-request: the client sees the connection end, as with a crash
        if (!outgoing.headersSent) outgoing.writeHead(502).end()
        else outgoing.destroy()
      })
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) upstream.destroy()
      })
    }
    tryTarget(0)
  }
  return createServer(forward)
}
