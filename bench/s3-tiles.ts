/**
 * Tile serving from the S3 back-end vs the local folder (issue 22): the same server, started
 * twice as an operator starts it — once with tilesets under DATA_DIR (`npm start`), once with
 * `STORAGE_URL=s3://…` and `STORAGE_SERVE=redirect` on a local S3-compatible server (s3rver, as
 * the tests use) — each with the same generated tileset uploaded through the API. A client
 * reads the same tiles from both, one call each side in turn (the order alternating), and
 * follows the S3 side's signed redirect to the store, as a browser does. Goal: median latency
 * ≤ 1.5× the local folder's, bytes identical (every tile is compared before the timed calls,
 * and every timed answer against them).
 *
 * The client is Node's fetch, which keeps its connections to both servers and to the store
 * alive, as a browser does (session 22: 2–3 sockets to each after thousands of calls, none in
 * TIME-WAIT). Its own round trip is not small beside a tile's: the report's
 * `s3LegsMedianMs.redirectFloor` is its 302 from a bare node:http server, so the redirect leg
 * splits into that floor and the product's route (session 22, load ~10: floor 0.78 ms of a
 * 0.87 ms redirect; node:http's client 0.38 of 0.76).
 *
 * Both servers, the store and the client share this machine's cores. Ports:
 * S3_TILES_BENCH_PORTS="<local>,<s3>" (default 18095,18096); the store takes a free port.
 * S3_TILES_BENCH_CALLS (default 600 timed calls a side, after 60 untimed pairs).
 * Writes bench/results/s3-tiles.json.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startTestObjectStore } from '../server/testing/test-object-store'
import { timeInterleaved } from './lib/interleaved'
import { type ProductServer, productServer, stopServerProcess } from './lib/product-server'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'
import { uploadBenchTileset } from './lib/upload-tileset'

const [localPort, s3Port] = (process.env.S3_TILES_BENCH_PORTS ?? '18095,18096')
  .split(',')
  .map(Number) as [number, number]
const timedCalls = Number(process.env.S3_TILES_BENCH_CALLS ?? 600)
const warmupCalls = 60

/** Goal of issue 22 for this benchmark: S3 (redirect) median ÷ local folder median. */
export const s3TilesGoals = { medianAtMost: 1.5 }

/** One side: its server and the tiles' addresses on it, in the same order as the other side's. */
interface Side {
  name: 'local folder' | 'S3 with redirects'
  server: ProductServer
  child: ChildProcess
  tilePaths: string[]
}

/**
 * A tile's bytes, following a redirect as a browser does; throws on any other status than 200
 * (after the redirect). `legsMs` gets the redirect's and the store's time when redirected.
 */
async function readTile(
  side: Side,
  path: string,
  legsMs?: { redirect: number[]; store: number[] },
) {
  const startedAt = performance.now()
  let answer = await fetch(`${side.server.base}${path}`, { redirect: 'manual' })
  const location = answer.headers.get('location')
  const redirected = answer.status === 302 && location !== null
  if (redirected) {
    await answer.arrayBuffer()
    const redirectedAt = performance.now()
    answer = await fetch(location)
    legsMs?.redirect.push(redirectedAt - startedAt)
    legsMs?.store.push(performance.now() - redirectedAt)
  }
  if (answer.status !== 200) throw new Error(`${side.name}: ${path} answered ${answer.status}`)
  return { bytes: Buffer.from(await answer.arrayBuffer()), redirected }
}

/**
 * A server that answers every request 302 and nothing else, in its own process as the product's
 * servers are (a free port of 127.0.0.1).
 */
async function startBareRedirect(): Promise<{ address: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const server = require('node:http').createServer((request, response) => {
        response.writeHead(302, { location: 'http://127.0.0.1:9/', 'cache-control': 'no-store', 'content-length': '0' })
        response.end()
      })
      server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port)))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (data: Buffer) => resolve(data.toString()))
    child.once('exit', () => reject(new Error('the bare redirect server ended')))
  })
  return { address: `http://127.0.0.1:${port}/tile`, child }
}

export async function runS3TilesBench(): Promise<void> {
  const store = await startTestObjectStore()
  const folders: string[] = []
  const sides: Side[] = []
  const quiet = new QuietRounds()
  let bareRedirect: { address: string; child: ChildProcess } | undefined
  try {
    const startSide = async (
      name: Side['name'],
      port: number,
      env: Record<string, string>,
    ): Promise<Side> => {
      const folder = await mkdtemp(join(tmpdir(), 's3-tiles-bench-'))
      folders.push(folder)
      const server = productServer(port, 's3-tiles')
      const child = server.start(folder, env)
      const side: Side = { name, server, child, tilePaths: [] }
      sides.push(side)
      await server.waitUntilUp()
      const { tilePaths } = await uploadBenchTileset(server, {
        name: 'S3 tiles bench',
        description: `Tiles for bench/s3-tiles.ts (${name})`,
      })
      side.tilePaths = tilePaths
      return side
    }
    const bare = await startBareRedirect()
    bareRedirect = bare
    const local = await startSide('local folder', localPort, {})
    const s3 = await startSide('S3 with redirects', s3Port, store.env('s3-tiles', 'redirect'))

    // every tile, whole, from both: the same bytes, and the S3 side's through the store
    const expected: Buffer[] = []
    let totalBytes = 0
    for (let index = 0; index < local.tilePaths.length; index++) {
      const fromLocal = await readTile(local, local.tilePaths[index]!)
      const fromS3 = await readTile(s3, s3.tilePaths[index]!)
      if (!fromS3.redirected) throw new Error(`${s3.tilePaths[index]} was not redirected`)
      if (!fromLocal.bytes.equals(fromS3.bytes)) {
        throw new Error(`${local.tilePaths[index]}: the S3 side answered other bytes`)
      }
      expected.push(fromLocal.bytes)
      totalBytes += fromLocal.bytes.length
    }

    // a seeded walk over the tiles, the same for both sides
    let state = 1234
    const order = Array.from({ length: warmupCalls + timedCalls }, () => {
      state = (state * 1_664_525 + 1_013_904_223) >>> 0
      return Math.floor((state / 4_294_967_296) * expected.length)
    })
    const s3LegsMs = { redirect: [] as number[], store: [] as number[] }
    // after each S3 call, untimed for the ratio: the same client's round trip to a server that
    // only answers 302 — what of the redirect leg is the client and loopback, not the product
    const floorMs: number[] = []
    const timedRead = (side: Side, legsMs?: typeof s3LegsMs) => {
      let call = 0
      return async () => {
        const index = order[call++ % order.length]!
        const startedAt = performance.now()
        const { bytes } = await readTile(side, side.tilePaths[index]!, legsMs)
        const elapsedMs = performance.now() - startedAt
        if (!bytes.equals(expected[index]!)) throw new Error(`${side.name}: other bytes`)
        if (legsMs !== undefined) {
          const floorStartedAt = performance.now()
          const answer = await fetch(bare.address, { redirect: 'manual' })
          await answer.arrayBuffer()
          floorMs.push(performance.now() - floorStartedAt)
        }
        return elapsedMs
      }
    }
    const timings = await timeInterleaved({
      small: timedRead(local),
      large: timedRead(s3, s3LegsMs),
      warmupCalls,
      timedCalls,
      quiet: { name: 'tiles', rounds: quiet },
    })
    const ratio = ratioOf(
      's3 (redirect)',
      'local folder',
      'tile median latency (ms)',
      timings.large.medianMs,
      timings.small.medianMs,
    )
    const report = {
      benchmark: 's3-tiles',
      description: `Whole b3dm tiles (${expected.length} tiles, ${totalBytes} bytes in all) read by one client from a server with tilesets in the local folder and from one on a local S3 server (s3rver) with STORAGE_SERVE=redirect, following the signed redirect; ${timedCalls} timed calls a side after ${warmupCalls} untimed pairs, one call each side in turn, the order alternating. Bytes compared on every answer. Goal: median ≤ ${s3TilesGoals.medianAtMost}× the local folder.`,
      machine: machineInfo(null),
      tileCount: expected.length,
      bytesIdentical: true,
      local: timings.small,
      s3Redirect: timings.large,
      // where the S3 side's time goes (warm-up calls included): the server's signed redirect,
      // then the store's answer; and the floor of the redirect: this client's 302 from a bare
      // node:http server in its own process (the rest of `redirect` is the product's route)
      s3LegsMedianMs: {
        redirect: measure(s3LegsMs.redirect, 'ms').median,
        store: measure(s3LegsMs.store, 'ms').median,
        redirectFloor: measure(floorMs, 'ms').median,
      },
      medianRatio: ratio.value,
      meetsTarget: ratio.value <= s3TilesGoals.medianAtMost,
      ratios: [
        ratio,
        ratioOf(
          's3 (redirect)',
          'local folder',
          'tile p99 latency (ms)',
          timings.large.p99Ms,
          timings.small.p99Ms,
        ),
      ],
    }
    const path = writeBenchResult('s3-tiles', report, quiet)
    console.log(
      JSON.stringify(
        {
          medianRatio: ratio.value,
          local: timings.small,
          s3Redirect: timings.large,
          s3Legs: report.s3LegsMedianMs,
        },
        null,
        2,
      ),
    )
    console.log(`written to ${path}`)
  } finally {
    for (const side of sides) await stopServerProcess(side.child)
    if (bareRedirect !== undefined) await stopServerProcess(bareRedirect.child)
    await store.close()
    for (const folder of folders) await rm(folder, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runS3TilesBench()
}
