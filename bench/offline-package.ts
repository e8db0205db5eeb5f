/**
 * The offline package build (issue 20 item 6): the seeded building case ("House (SBM
 * building)") plus 10,000 POIs, built by the server's job (plan, stream every file through
 * yazl into a part file, fsync, rename) against Info-ZIP's `zip -q -r` zipping the same files
 * from a folder, in the same run (goal: ours ≤ 1.2× zip). The server's RSS is sampled during
 * each build, to show memory stays flat. Beside wall time it reports CPU time (ours: every thread
 * of this process; zip's: its reaped child times), steadier on a shared machine, and the build's
 * two phases timed on their own (reading the records, writing the zip with its fsync).
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
import { fileURLToPath } from 'node:url'
import { toAuthUser } from '../server/modules/accounts/users.service'
import {
  packageDirectories,
  planOfflinePackage,
} from '../server/modules/orders/offline-package-contents'
import { openSource, writePackageZip } from '../server/modules/orders/offline-package-zip'
import { timestampOf } from '../server/modules/time/clock'
import { createTestApp, testAdmin } from '../server/testing/test-app'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'

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
      packageDirectories(app.deps.config.dataDir),
      {
        projectId: house.id,
        isWatermarked: false,
        variant: 'full',
        builtAt: timestamp,
        scratchDirectory: workDirectory,
      },
    )
    for (const entry of plan.entries) {
      const target = join(sourceFolder, entry.path)
      await mkdir(dirname(target), { recursive: true })
      await pipeline(await openSource(entry.source, app.deps.storage), createWriteStream(target))
    }
    await plan.dispose()
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
    let packageBytes = 0
    const runOurs = async () => {
      const rssBefore = process.memoryUsage.rss()
      let rssPeak = rssBefore
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
      }, 20)
      const cpuBefore = process.cpuUsage()
      const startMs = performance.now()
      await packages.build(admin, house.id, 'full')
      await packages.settle()
      const elapsedMs = performance.now() - startMs
      const cpu = process.cpuUsage(cpuBefore)
      oursCpuMs.push((cpu.user + cpu.system) / 1000)
      clearInterval(sampler)
      const state = await packages.state(admin, house.id)
      if (state.package?.state !== 'ready') throw new Error('the package was not built')
      packageBytes = state.package.size_bytes ?? 0
      rssGrowthMiB.push((rssPeak - rssBefore) / 1_048_576)
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
    // the build's two phases on their own (the job adds the rows around them): where time goes
    const runPhases = async () => {
      let startMs = performance.now()
      const phasePlan = await planOfflinePackage(
        app.deps.database,
        app.deps.storage,
        packageDirectories(app.deps.config.dataDir),
        {
          projectId: house.id,
          isWatermarked: false,
          variant: 'full',
          builtAt: timestamp,
          scratchDirectory: workDirectory,
        },
      )
      planMs.push(performance.now() - startMs)
      startMs = performance.now()
      await writePackageZip(phasePlan, app.deps.storage, join(workDirectory, 'phases.zip'), {
        signal: new AbortController().signal,
        onProgress: () => {},
      })
      writeMs.push(performance.now() - startMs)
      await phasePlan.dispose()
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
          `plan ${planMs.at(-1)?.toFixed(0)} ms, write ${writeMs.at(-1)?.toFixed(0)} ms`,
      )
    }
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
      phases: { plan: measure(planMs, 'ms'), writeZip: measure(writeMs, 'ms') },
      rssGrowthMiB: measure(rssGrowthMiB, 'MiB'),
    }
    console.log(
      JSON.stringify({
        ratio: report.ratio,
        cpuRatio: report.cpuRatio,
        phases: report.phases,
        rssGrowthMiB: report.rssGrowthMiB,
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
