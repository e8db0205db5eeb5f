/**
 * The structure merge (issue 21 "Performance"): the seeded 8-floor ~2 M-triangle building
 * (bench/sbm/generate-building.ts, one GLB per floor plus a façade shell) merged by the server's
 * `/web/modelConfig/merge` job, against converting the same nine parts one by one with
 * `npm run sbm:convert` (a fresh process per file, as a person would), in the same run. A second
 * anchor converts the parts in this process with the same converter (no process start-up), so
 * the ratio shows what the merge adds beyond conversion itself. While each merge runs,
 * `/web/health` is asked every 10 ms (request thread never blocked: goal p99 ≤ 50 ms).
 *
 *   npx tsx bench/model-merge.ts      (or `npm run bench -- model-merge`)
 *   MERGE_BENCH_ROUNDS=3              timed rounds (default 2)
 *
 * Writes bench/results/model-merge.json. Goal: merge ≤ 1.5× the one-by-one conversion.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { NodeIO } from '@gltf-transform/core'
import type { MergeStatusDatum } from '../contract/model-config'
import { postMultipart } from '../server/routes/web/project-test-kit'
import { convertModelToSbm } from '../server/modules/convert/convert-model'
import { createTestApp, signIn, testEditor } from '../server/testing/test-app'
import { benchBuildingRecipe, generateBuilding } from './sbm/generate-building'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, percentile, ratioOf, writeBenchResult } from './lib/stats'

const timedRuns = Number(process.env.MERGE_BENCH_ROUNDS ?? 2)
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url))
/** The shell: the façade-like share of one more seeded storey. */
const shellTriangleCount = 120_000

interface Part {
  field: 'shell' | 'floors'
  fileName: string
  path: string
}

/** The nine parts as GLB files under dist/bench-data (made once, kept). */
async function prepareParts(): Promise<Part[]> {
  const { seed, floorCount, targetTriangleCount } = benchBuildingRecipe
  const folder = join(repositoryRoot, `dist/bench-data/merge-parts-${seed}-${floorCount}/`)
  mkdirSync(folder, { recursive: true })
  const io = new NodeIO()
  const parts: Part[] = []
  const make = async (part: Part, recipe: typeof benchBuildingRecipe) => {
    if (!existsSync(part.path)) {
      writeFileSync(part.path, await io.writeBinary(generateBuilding(recipe)))
    }
    parts.push(part)
  }
  await make(
    { field: 'shell', fileName: 'shell.glb', path: `${folder}shell.glb` },
    {
      seed: seed - 1,
      floorCount: 1,
      targetTriangleCount: shellTriangleCount,
    },
  )
  for (let floor = 0; floor < floorCount; floor++) {
    const fileName = `${floor + 1}F.glb`
    await make(
      { field: 'floors', fileName, path: `${folder}${fileName}` },
      {
        seed: seed + floor,
        floorCount: 1,
        targetTriangleCount: targetTriangleCount / floorCount,
      },
    )
  }
  return parts
}

/** A 1×1 PNG: the form needs maps and a preview; the parts refer to no map (reported). */
const onePixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** Runs the benchmark and writes its report. */
export async function runModelMergeBench(): Promise<void> {
  const machine = machineInfo(null)
  const quiet = new QuietRounds()
  const parts = await prepareParts()
  const workDirectory = await mkdtemp(join(tmpdir(), 'twinscape-merge-bench-'))
  const testApp = await createTestApp()
  try {
    const { app } = testApp
    const editor = await signIn(app, testEditor)
    const merges = app.deps.services.structureMerges
    const partBytes = parts.map((part) => readFileSync(part.path))

    let triangleCount = 0
    const runMerge = async () => {
      const healthMs: number[] = []
      let isRunning = true
      // Health asked back to back (10 ms apart) while the merge runs: each answer's time is how
      // long the request thread kept it waiting.
      const prober = (async () => {
        while (isRunning) {
          const startMs = performance.now()
          await app.inject({ method: 'GET', url: '/web/health' })
          healthMs.push(performance.now() - startMs)
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
      })()
      const startMs = performance.now()
      const started = await postMultipart<MergeStatusDatum>(app, '/web/modelConfig/merge', editor, [
        { name: 'output_name', value: 'Bench tower' },
        { name: 'storey_height', value: '3.6' },
        ...parts.map((part, index) => ({
          name: part.field,
          fileName: part.fileName,
          value: partBytes[index]!,
        })),
        { name: 'shell_maps', fileName: 'shell.png', value: onePixelPng },
        { name: 'floor_maps', fileName: 'floor.png', value: onePixelPng },
        { name: 'preview', fileName: 'preview.png', value: onePixelPng },
      ])
      if (started.envelope.code !== '0') {
        throw new Error(`the merge was refused: ${JSON.stringify(started.envelope)}`)
      }
      const id = started.envelope.datum.id
      await merges.settled(id)
      const elapsedMs = performance.now() - startMs
      isRunning = false
      await prober
      const user = (await app.deps.repositories.users.findByName(testEditor.name))!
      const { toAuthUser } = await import('../server/modules/accounts/users.service')
      const status = await merges.status(toAuthUser(user), id)
      if (status.state !== 'succeeded') {
        throw new Error(`the merge ended ${status.state}: ${JSON.stringify(status.error)}`)
      }
      triangleCount = status.result!.floors.reduce((sum, floor) => sum + floor.triangleCount, 0)
      return { elapsedMs, healthP99: percentile(healthMs, 0.99), healthCount: healthMs.length }
    }
    const runCli = () => {
      const startMs = performance.now()
      for (const [index, part] of parts.entries()) {
        const result = spawnSync(
          'npm',
          [
            'run',
            '--silent',
            'sbm:convert',
            '--',
            part.path,
            join(workDirectory, `${index}.sbm`),
            '--role',
            part.field === 'shell' ? 'shell' : 'floor',
          ],
          { cwd: repositoryRoot, encoding: 'utf8' },
        )
        if (result.status !== 0) throw new Error(`sbm:convert failed: ${result.stderr}`)
      }
      return performance.now() - startMs
    }
    const runInProcess = async () => {
      const startMs = performance.now()
      for (const [index, part] of parts.entries()) {
        await convertModelToSbm(
          { fileName: part.fileName, bytes: partBytes[index]!, readResource: async () => null },
          { role: part.field === 'shell' ? 'shell' : 'floor' },
        )
      }
      return performance.now() - startMs
    }

    console.log('model-merge: warm-up…')
    await quiet.round(
      'warm-up',
      async () => {
        await runMerge()
        runCli()
      },
      false,
    )
    const mergeMs: number[] = []
    const cliMs: number[] = []
    const inProcessMs: number[] = []
    const healthP99Ms: number[] = []
    for (let round = 0; round < timedRuns; round++) {
      await quiet.beforeRound(`round ${round + 1}`)
      // alternate the order so neither side always runs on a warmer machine
      const order = round % 2 === 0 ? ['merge', 'cli', 'in'] : ['in', 'cli', 'merge']
      for (const side of order) {
        if (side === 'merge') {
          const merged = await runMerge()
          mergeMs.push(merged.elapsedMs)
          healthP99Ms.push(merged.healthP99)
        } else if (side === 'cli') cliMs.push(runCli())
        else inProcessMs.push(await runInProcess())
      }
      quiet.afterRound()
      console.log(
        `round ${round + 1}: merge ${mergeMs.at(-1)?.toFixed(0)} ms (health p99 ${healthP99Ms.at(-1)?.toFixed(1)} ms), ` +
          `sbm:convert one by one ${cliMs.at(-1)?.toFixed(0)} ms, in-process ${inProcessMs.at(-1)?.toFixed(0)} ms`,
      )
    }
    const merge = measure(mergeMs, 'ms')
    const cli = measure(cliMs, 'ms')
    const inProcess = measure(inProcessMs, 'ms')
    const healthP99 = measure(healthP99Ms, 'ms')
    const ratio = ratioOf(
      'merge job',
      'sbm:convert one by one',
      'median ms',
      merge.median,
      cli.median,
    )
    const report = {
      description:
        'Structure merge of the seeded building as parts (8 floor GLBs + a shell GLB, ' +
        `${triangleCount} triangles in the result) through POST /web/modelConfig/merge until the ` +
        'job settled (upload, conversion pool, structure, ZIP) vs `npm run sbm:convert` of each ' +
        'part in turn (a process per file) and vs the same converter called in this process; ' +
        '/web/health p99 while each merge runs (asked every 10 ms).',
      machine,
      parts: parts.map((part) => part.fileName),
      triangleCount,
      merge,
      anchor: cli,
      inProcessConversion: inProcess,
      ratio,
      ratioToInProcess: ratioOf(
        'merge job',
        'convertModelToSbm in process',
        'median ms',
        merge.median,
        inProcess.median,
      ),
      healthP99,
      goals: {
        mergeVsOneByOne: { goal: '≤ 1.5×', met: ratio.value <= 1.5 },
        healthP99: { goal: '≤ 50 ms', met: healthP99.max <= 50 },
      },
    }
    console.log(JSON.stringify({ ratio: report.ratio, healthP99, goals: report.goals }))
    console.log(`wrote ${writeBenchResult('model-merge', report, quiet)}`)
  } finally {
    await testApp.close()
    await rm(workDirectory, { recursive: true, force: true })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runModelMergeBench()
}
