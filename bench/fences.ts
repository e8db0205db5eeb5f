/**
 * Electronic fences (issue 18 "Performance": 10,000 moving objects × 1 update/s against 1,000
 * fences on one machine, event latency p99 ≤ 1 s, compared with a naive all-pairs check in the
 * same run). Each simulated second every object moves a few metres and its position is tested
 * against the fences: ours with the flatbush index of workers/geodesy/fence-index.ts, the anchor
 * by testing every fence (`containingAllPairs`), both followed by the same enter/leave diff.
 * All 10,000 reports of a second are taken as arriving at its start (the worst case), so an
 * update's latency is the time from the second's start until its own crossings are known; p99
 * is over every update of the timed seconds. Ours is the server's path: the fence thread
 * (server/modules/draw/fence-checker.ts) asked for all of a second's positions at once; the
 * same index in this thread is reported beside it. This is the fence test itself — not the
 * HTTP and database path of a report (see bench/iot-ingest for that kind of cost).
 *
 *   npx tsx bench/fences.ts      (or `npm run bench -- fences`)
 *
 * Writes bench/results/fences.json. FENCES_BENCH_SECONDS (default 5).
 */
import type { LngLat } from '../workers/geodesy/draw-geometry'
import { geodesicDestination } from '../workers/geodesy/draw-geometry'
import {
  containingAllPairs,
  FenceIndex,
  type FenceShape,
  fenceCrossings,
} from '../workers/geodesy/fence-index'
import { createFenceChecker } from '../server/modules/draw/fence-checker'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

const objectCount = 10_000
const fenceCount = 1_000
const seconds = Number(process.env.FENCES_BENCH_SECONDS) || 5
/** A ~20 km square city around Seoul's centre. */
const origin: LngLat = [126.9, 37.45]
const spanDegrees = 0.2

let seed = 42
function random(): number {
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
}

/** Fences of 30–300 m: 700 polygons of 6–24 vertices and 300 circles. */
function makeFences(): FenceShape[] {
  const fences: FenceShape[] = []
  for (let index = 0; index < fenceCount; index++) {
    const center: LngLat = [origin[0] + random() * spanDegrees, origin[1] + random() * spanDegrees]
    const size = 30 + random() * 270
    if (index % 10 < 7) {
      const vertices = 6 + Math.floor(random() * 19)
      const ring = Array.from({ length: vertices }, (_, vertex) =>
        geodesicDestination(center, (360 * vertex) / vertices, size * (0.6 + 0.4 * random())),
      )
      fences.push({ id: `f${index}`, kind: 'polygon', ring })
    } else fences.push({ id: `f${index}`, kind: 'circle', center, radiusMeters: size })
  }
  return fences
}

interface Walker {
  position: LngLat
  heading: number
  inside: string[]
}

function makeWalkers(): Walker[] {
  return Array.from({ length: objectCount }, () => ({
    position: [origin[0] + random() * spanDegrees, origin[1] + random() * spanDegrees] as LngLat,
    heading: random() * 360,
    inside: [],
  }))
}

/** One simulated second: every walker moves 1.5 m (a walk) and is tested; latencies in ms. */
function second(
  walkers: Walker[],
  containing: (point: LngLat) => string[],
): { latencies: number[]; events: number } {
  const startMs = performance.now()
  const latencies = new Array<number>(walkers.length)
  let events = 0
  for (let index = 0; index < walkers.length; index++) {
    const walker = walkers[index]!
    walker.heading = (walker.heading + (random() - 0.5) * 40 + 360) % 360
    walker.position = geodesicDestination(walker.position, walker.heading, 1.5)
    const after = containing(walker.position)
    events += fenceCrossings(walker.inside, after).length
    walker.inside = after
    latencies[index] = performance.now() - startMs
  }
  return { latencies, events }
}

/** One simulated second through the fence thread: every position asked at once, then answered. */
async function secondInThread(
  walkers: Walker[],
  containing: (point: LngLat) => Promise<string[]>,
): Promise<{ latencies: number[]; events: number }> {
  const startMs = performance.now()
  const latencies = new Array<number>(walkers.length)
  let events = 0
  const answers: Promise<void>[] = []
  for (let index = 0; index < walkers.length; index++) {
    const walker = walkers[index]!
    walker.heading = (walker.heading + (random() - 0.5) * 40 + 360) % 360
    walker.position = geodesicDestination(walker.position, walker.heading, 1.5)
    answers.push(
      containing(walker.position).then((after) => {
        events += fenceCrossings(walker.inside, after).length
        walker.inside = after
        latencies[index] = performance.now() - startMs
      }),
    )
  }
  await Promise.all(answers)
  return { latencies, events }
}

/** Runs the benchmark and writes its result. */
export async function runFencesBench(): Promise<void> {
  const fences = makeFences()
  const index = new FenceIndex(fences)
  const checker = createFenceChecker({ loadShapes: async () => fences })
  const quiet = new QuietRounds()
  const runs = {
    ours: {
      inThread: (point: LngLat) => checker.containing('bench', point),
      latencies: [] as number[],
      batchMs: [] as number[],
      events: 0,
    },
    indexHere: {
      containing: (point: LngLat) => index.containing(point),
      latencies: [] as number[],
      batchMs: [] as number[],
      events: 0,
    },
    anchor: {
      containing: (point: LngLat) => containingAllPairs(index.fences, point),
      latencies: [] as number[],
      batchMs: [] as number[],
      events: 0,
    },
  }
  // The same walk for both: each starts from the same seed and positions.
  for (const [name, run] of Object.entries(runs)) {
    seed = 7
    const walkers = makeWalkers()
    for (let round = 0; round <= seconds; round++) {
      // round 0 is a warm-up (JIT) and puts every walker in its first fences
      const result = await quiet.round(
        `${name} second ${round}`,
        () =>
          'inThread' in run
            ? secondInThread(walkers, run.inThread)
            : second(walkers, run.containing),
        round > 0,
      )
      if (round === 0) continue
      run.latencies.push(...result.latencies)
      run.batchMs.push(Math.max(...result.latencies))
      run.events += result.events
    }
  }
  await checker.close()
  const p99 = (latencies: number[]) => percentile(latencies, 0.99)
  const report = {
    benchmark: 'fences',
    description: `${objectCount} walkers × 1 update/s against ${fenceCount} fences (700 polygons of 6–24 vertices, 300 circles, 30–300 m, in a 20 km square), ${seconds} timed seconds each. Ours: the server's fence thread (flatbush index + exact test of candidates in a worker thread, all of a second's positions asked at once); index here: the same index in the benchmark's thread; anchor: every fence tested (all pairs). Latency of an update: from the start of its second (all reports arriving at once) until its crossings are known. Ratio = ours ÷ anchor (below 1 is better).`,
    machine: machineInfo(null),
    objects: objectCount,
    fences: fenceCount,
    seconds,
    ours: {
      latencyP99Ms: p99(runs.ours.latencies),
      secondBatchMs: measure(runs.ours.batchMs, 'ms'),
      events: runs.ours.events,
      meetsTarget: p99(runs.ours.latencies) <= 1000,
    },
    indexHere: {
      latencyP99Ms: p99(runs.indexHere.latencies),
      secondBatchMs: measure(runs.indexHere.batchMs, 'ms'),
      events: runs.indexHere.events,
    },
    anchor: {
      latencyP99Ms: p99(runs.anchor.latencies),
      secondBatchMs: measure(runs.anchor.batchMs, 'ms'),
      events: runs.anchor.events,
      meetsTarget: p99(runs.anchor.latencies) <= 1000,
    },
    // Both walks are the same, so both must find the same crossings.
    sameEvents:
      runs.ours.events === runs.anchor.events && runs.indexHere.events === runs.anchor.events,
    ratios: [
      ratioOf(
        'fence thread',
        'all pairs',
        'latency p99 (ms)',
        p99(runs.ours.latencies),
        p99(runs.anchor.latencies),
      ),
    ],
  }
  const path = writeBenchResult('fences', report, quiet)
  console.log(
    JSON.stringify(
      {
        ours: report.ours,
        indexHere: report.indexHere,
        anchor: report.anchor,
        ratios: report.ratios,
        sameEvents: report.sameEvents,
      },
      null,
      1,
    ),
  )
  console.log(`written ${path}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await runFencesBench()
