/**
 * The offline package build (issue 20 item 6): the seeded building case ("House (SBM
 * building)") plus 10,000 POIs, built by the server's job (plan, stream every file through
 * yazl into a part file, fsync, rename) against Info-ZIP's `zip -q -r` zipping the same files
 * from a folder, in the same run (goal: ours ≤ 1.2× zip). The zip is written in a worker thread:
 * during each build the process's RSS and the request thread's own heap are sampled, and the
 * thread reports its heap at each whole percent, so the build's memory shows on both sides
 * (RSS is one number for the process, threads included). `/web/health` is asked one request
 * after the other during each build (goal: p99 ≤ 50 ms), and, as the same-run reference, during
 * the same zip written on the request thread as it was before. Beside wall time it reports CPU
 * time (ours: every thread of this process; zip's: its reaped child times), steadier on a shared
 * machine, and the build's two phases timed on their own (reading the records, writing the zip
 * with its fsync).
 *
 *   npx tsx bench/offline-package.ts      (or `npm run bench -- offline-package`)
 *
 * Writes bench/results/offline-package.json.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { toAuthUser } from '../server/modules/accounts/users.service'
import {
  packageDirectories,
  planOfflinePackage,
} from '../server/modules/orders/offline-package-contents'
import { openPoiListReader } from '../server/modules/orders/offline-package-pois'
import { createPackageWriter } from '../server/modules/orders/offline-package-writer'
import { openSource, writePackageZip } from '../server/modules/orders/offline-package-zip'
import { timestampOf } from '../server/modules/time/clock'
import { createTestApp, testAdmin } from '../server/testing/test-app'
import { forceGc } from './lib/force-gc'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

/**
 * POIs seeded (BENCH_POIS, default the 10,000): a larger count shows whether the RSS
 * growth follows the package's size (it did while the POI list was held in memory) or not.
 */
const poiCount = Number(process.env.BENCH_POIS) || 10_000
/** Timed builds per side (BENCH_ROUNDS, default 5): single builds vary by 2–5× on a shared machine. */
const timedRuns = Number(process.env.BENCH_ROUNDS) || 5
const zipPath = '/usr/bin/zip'

/** Milliseconds per clock tick of /proc's CPU times (USER_HZ, 100 on Linux). */
const msPerTick = 10

/** CPU ticks of this process's exited, reaped children (cutime + cstime of /proc/self/stat). */
function reapedChildTicks(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[13]) + Number(fields[14])
}

const median = (samples: readonly number[]) => measure(samples, 'ms').median

/** This thread's heap in use and memory outside it (Buffers), in bytes: not the worker's. */
const requestThreadMemory = () => {
  const usage = process.memoryUsage()
  return { heap: usage.heapUsed, buffers: usage.external }
}

/**
 * Asks `/web/health` one request after the other, 5 ms apart, until `work` settles: each
 * answer's time, what a request waits while the build runs.
 */
async function healthDuring(app: FastifyInstance, work: Promise<unknown>): Promise<number[]> {
  let isDone = false
  const settled = work.then(
    () => {
      isDone = true
    },
    () => {
      isDone = true
    },
  )
  const latencies: number[] = []
  while (!isDone) {
    const startMs = performance.now()
    const answer = await app.inject({ method: 'GET', url: '/web/health' })
    if (answer.statusCode !== 200) throw new Error(`health answered ${answer.statusCode}`)
    latencies.push(performance.now() - startMs)
    await delay(5)
  }
  await settled
  return latencies
}

/** Runs the benchmark and writes its report. */
export async function runOfflinePackageBench(): Promise<void> {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const workDirectory = await mkdtemp(join(tmpdir(), 'twinscape-package-bench-'))
  const testApp = await createTestApp()
  try {
    const { app } = testApp
    const { db } = app.deps.database
    const house = await db
      .selectFrom('projects')
      .select(['id', 'name'])
      .where('is_case', '=', 1)
      .where('kind', '=', 'building')
      .executeTakeFirstOrThrow()
    await db.updateTable('projects').set({ is_paid: 1 }).where('id', '=', house.id).execute()
    const template = await db.selectFrom('poi_templates').select(['id']).executeTakeFirstOrThrow()
    const timestamp = timestampOf(testApp.clock.nowMs())
    for (let start = 0; start < poiCount; start += 500) {
      await db
        .insertInto('pois')
        .values(
          Array.from({ length: Math.min(500, poiCount - start) }, (_, offset) => ({
            id: randomUUID(),
            project_id: house.id,
            name: `Sensor ${start + offset}`,
            category_id: template.id,
            poicategory_code: 'bench',
            template_type: '1',
            category_type: '2D',
            x: (start + offset) % 100,
            y: Math.floor((start + offset) / 100),
            z: 1.5,
            created_at: timestamp,
            updated_at: timestamp,
          })),
        )
        .execute()
    }
    const adminRow = await app.deps.repositories.users.findByName(testAdmin.name)
    const admin = toAuthUser(adminRow!)
    const packages = app.deps.services.offlinePackages

    // the same files in a folder, for the anchor (written once, not timed)
    const sourceFolder = join(workDirectory, 'files')
    const plan = await planOfflinePackage(
      app.deps.database,
      app.deps.storage,
      packageDirectories(),
      {
        projectId: house.id,
        isWatermarked: false,
        variant: 'full',
        builtAt: timestamp,
      },
    )
    // the POI lists are read as the writer's thread reads them: a connection of its own
    const poiLists = openPoiListReader(app.deps.config.database)
    const readers = { storage: app.deps.storage, poiLists }
    for (const entry of plan.entries) {
      const target = join(sourceFolder, entry.path)
      await mkdir(dirname(target), { recursive: true })
      await pipeline(await openSource(entry.source, readers), createWriteStream(target))
    }
    console.log(
      `package: ${plan.entries.length} files, ${(plan.totalBytes / 1_048_576).toFixed(1)} MiB`,
    )
    const hasZip = existsSync(zipPath)
    if (!hasZip) console.log(`${zipPath} is missing: the anchor is skipped`)

    const oursMs: number[] = []
    const zipMs: number[] = []
    const oursCpuMs: number[] = []
    const zipCpuMs: number[] = []
    const planMs: number[] = []
    const writeMs: number[] = []
    const rssGrowthMiB: number[] = []
    // RSS after a forced collection in every thread, before and after each build: what a build
    // holds, apart from the garbage the collectors have not taken back yet
    const rssHeldAfterGcMiB: number[] = []
    // growth of each thread's heap in use and of its memory outside the heap (Buffers)
    const requestThreadGrowthMiB = { heap: [] as number[], buffers: [] as number[] }
    const writerThreadGrowthMiB = { heap: [] as number[], buffers: [] as number[] }
    // /web/health answer times, asked in untimed runs (the asking costs CPU the timed runs
    // must not share): a whole build, its zip written by the thread, the same zip on this thread
    const health = {
      duringBuild: [] as number[],
      duringThreadWrite: [] as number[],
      duringRequestThreadWrite: [] as number[],
    }
    let packageBytes = 0
    const mebibytes = (bytes: number) => bytes / 1_048_576
    const runOurs = async () => {
      forceGc()
      const rssSettledBefore = process.memoryUsage.rss()
      const rssBefore = process.memoryUsage.rss()
      const threadBefore = requestThreadMemory()
      let rssPeak = rssBefore
      const threadPeak = { ...threadBefore }
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
        const now = requestThreadMemory()
        threadPeak.heap = Math.max(threadPeak.heap, now.heap)
        threadPeak.buffers = Math.max(threadPeak.buffers, now.buffers)
      }, 20)
      const cpuBefore = process.cpuUsage()
      const startMs = performance.now()
      await packages.build(admin, house.id, 'full')
      await packages.settle()
      const elapsedMs = performance.now() - startMs
      const cpu = process.cpuUsage(cpuBefore)
      oursCpuMs.push((cpu.user + cpu.system) / 1000)
      clearInterval(sampler)
      requestThreadGrowthMiB.heap.push(mebibytes(threadPeak.heap - threadBefore.heap))
      requestThreadGrowthMiB.buffers.push(mebibytes(threadPeak.buffers - threadBefore.buffers))
      const state = await packages.state(admin, house.id)
      if (state.package?.state !== 'ready') throw new Error('the package was not built')
      packageBytes = state.package.size_bytes ?? 0
      rssGrowthMiB.push(mebibytes(rssPeak - rssBefore))
      // the writer thread collects 50 ms after its answer (it runs with gc exposed here)
      await delay(250)
      forceGc()
      rssHeldAfterGcMiB.push(mebibytes(process.memoryUsage.rss() - rssSettledBefore))
      return elapsedMs
    }
    const runZip = async () => {
      const target = join(workDirectory, 'anchor.zip')
      await rm(target, { force: true })
      const ticksBefore = reapedChildTicks()
      const startMs = performance.now()
      const result = spawnSync(zipPath, ['-q', '-r', target, '.'], { cwd: sourceFolder })
      const elapsedMs = performance.now() - startMs
      if (result.status !== 0) throw new Error(`zip failed: ${result.stderr.toString()}`)
      zipCpuMs.push((reapedChildTicks() - ticksBefore) * msPerTick)
      return elapsedMs
    }
    // the build's two phases on their own (the job adds the rows around them): where time goes;
    // the zip written by the server's writer thread, then on this thread as before (health asked
    // during both: the same-run reference for what the thread spares requests)
    const writer = createPackageWriter({
      storage: app.deps.storage.location,
      database: app.deps.config.database,
    })
    const runPhases = async () => {
      let startMs = performance.now()
      const phasePlan = await planOfflinePackage(
        app.deps.database,
        app.deps.storage,
        packageDirectories(),
        {
          projectId: house.id,
          isWatermarked: false,
          variant: 'full',
          builtAt: timestamp,
        },
      )
      planMs.push(performance.now() - startMs)
      startMs = performance.now()
      const written = await writer.write(phasePlan, join(workDirectory, 'phases.zip'), {
        signal: new AbortController().signal,
        onProgress: () => {},
      })
      writeMs.push(performance.now() - startMs)
      const memory = written.threadMemory
      writerThreadGrowthMiB.heap.push(mebibytes(memory.heapPeakBytes - memory.heapStartBytes))
      writerThreadGrowthMiB.buffers.push(
        mebibytes(memory.buffersPeakBytes - memory.buffersStartBytes),
      )
      const noAbort = { signal: new AbortController().signal, onProgress: () => {} }
      await packages.build(admin, house.id, 'full')
      health.duringBuild.push(...(await healthDuring(app, packages.settle())))
      const threadWrite = writer.write(phasePlan, join(workDirectory, 'probe.zip'), noAbort)
      health.duringThreadWrite.push(...(await healthDuring(app, threadWrite)))
      await poiLists.begin()
      const requestThreadWrite = writePackageZip(
        phasePlan,
        readers,
        join(workDirectory, 'probe.zip'),
        noAbort,
      ).finally(() => poiLists.end())
      health.duringRequestThreadWrite.push(...(await healthDuring(app, requestThreadWrite)))
    }

    await runOurs()
    if (hasZip) await runZip()
    oursCpuMs.length = 0
    zipCpuMs.length = 0
    for (let round = 0; round < timedRuns; round++) {
      await quiet.beforeRound(`round ${round + 1}`)
      if (round % 2 === 0) {
        oursMs.push(await runOurs())
        if (hasZip) zipMs.push(await runZip())
      } else {
        if (hasZip) zipMs.push(await runZip())
        oursMs.push(await runOurs())
      }
      quiet.afterRound()
      await runPhases()
      console.log(
        `round ${round + 1}: ours ${oursMs.at(-1)?.toFixed(0)} ms (cpu ${oursCpuMs.at(-1)?.toFixed(0)}), ` +
          `zip ${zipMs.at(-1)?.toFixed(0) ?? '-'} ms (cpu ${zipCpuMs.at(-1)?.toFixed(0) ?? '-'}), ` +
          `plan ${planMs.at(-1)?.toFixed(0)} ms, write ${writeMs.at(-1)?.toFixed(0)} ms; ` +
          `RSS +${rssGrowthMiB.at(-1)?.toFixed(1)} MiB (after gc +${rssHeldAfterGcMiB.at(-1)?.toFixed(1)}), request thread heap +${requestThreadGrowthMiB.heap.at(-1)?.toFixed(1)} ` +
          `buffers +${requestThreadGrowthMiB.buffers.at(-1)?.toFixed(1)} MiB, ` +
          `writer thread heap +${writerThreadGrowthMiB.heap.at(-1)?.toFixed(1)} ` +
          `buffers +${writerThreadGrowthMiB.buffers.at(-1)?.toFixed(1)} MiB`,
      )
    }
    await writer.close()
    await poiLists.close()
    const ours = measure(oursMs, 'ms')
    const anchor = hasZip ? measure(zipMs, 'ms') : null
    const anchorBytes = hasZip ? (await stat(join(workDirectory, 'anchor.zip'))).size : null
    const report = {
      description:
        `Offline package of the seeded building case plus ${poiCount.toLocaleString('en')} POIs: the server job ` +
        '(plan + yazl stream + fsync + rename) vs `zip -q -r` of the same files; ' +
        'RSS growth sampled every 20 ms during each build.',
      machine,
      files: plan.entries.length,
      inputBytes: plan.totalBytes,
      packageBytes,
      anchorBytes,
      ours,
      anchor,
      ratio: anchor
        ? ratioOf('server build', 'zip -q -r', 'median ms', ours.median, anchor.median)
        : null,
      goal: 'ours ≤ 1.2× zip -q',
      // CPU time is far steadier than wall time on a shared machine: the work itself, ours
      // (every thread of this process, zlib's pool included) against zip's
      oursCpu: measure(oursCpuMs, 'ms'),
      anchorCpu: hasZip ? measure(zipCpuMs, 'ms') : null,
      cpuRatio: hasZip
        ? ratioOf(
            'server build CPU',
            'zip -q -r CPU',
            'median ms',
            median(oursCpuMs),
            median(zipCpuMs),
          )
        : null,
      phases: {
        plan: measure(planMs, 'ms'),
        writeZip: measure(writeMs, 'ms'),
      },
      // RSS is the process's (every thread); the two heaps say which thread grew
      rssGrowthMiB: measure(rssGrowthMiB, 'MiB'),
      rssHeldAfterGcMiB: measure(rssHeldAfterGcMiB, 'MiB'),
      requestThreadGrowthMiB: {
        heap: measure(requestThreadGrowthMiB.heap, 'MiB'),
        buffers: measure(requestThreadGrowthMiB.buffers, 'MiB'),
      },
      writerThreadGrowthMiB: {
        heap: measure(writerThreadGrowthMiB.heap, 'MiB'),
        buffers: measure(writerThreadGrowthMiB.buffers, 'MiB'),
      },
      health: {
        goal: 'p99 ≤ 50 ms during a build',
        ...Object.fromEntries(
          Object.entries(health).map(([name, samples]) => [
            name,
            {
              p50: percentile(samples, 0.5),
              p99: percentile(samples, 0.99),
              max: percentile(samples, 1),
              count: samples.length,
            },
          ]),
        ),
      },
    }
    console.log(
      JSON.stringify({
        ratio: report.ratio,
        cpuRatio: report.cpuRatio,
        phases: report.phases,
        rssGrowthMiB: report.rssGrowthMiB,
        rssHeldAfterGcMiB: report.rssHeldAfterGcMiB,
        requestThreadGrowthMiB: report.requestThreadGrowthMiB,
        writerThreadGrowthMiB: report.writerThreadGrowthMiB,
        health: report.health,
      }),
    )
    console.log(`wrote ${writeBenchResult('offline-package', report, quiet)}`)
  } finally {
    await testApp.close()
    await rm(workDirectory, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runOfflinePackageBench()
}
