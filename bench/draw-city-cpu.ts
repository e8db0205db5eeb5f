/**
 * Where the city drawing frames go (issue 18): the draw-city-frames page orbited as that bench
 * does, and the CPU time the browser's GPU process (SwiftShader: the software GPU's work) and
 * renderer (the page and its workers) spend per drawn frame, read from /proc at the orbit's start
 * and end. On a shared machine the frame intervals come in whole refreshes and swing with the
 * load; CPU per frame is steadier, so an A/B of engine versions shows here when the frame steps
 * hide it. Noisy all the same: compare sides of the same run only.
 * `DRAW_BENCH_COMPARE=<checkout>[,…] DRAW_BENCH_ROUNDS=2 npx tsx bench/draw-city-cpu.ts`
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DrawBenchCase, DrawBenchSample } from './draw-city/page/draw-city-bench-protocol'
import { drawCitySettings } from './draw-city-frames'
import { buildBenchPage, openBenchPage } from './lib/bench-page'
import { launchBenchBrowser } from './lib/browser'
import { startStaticServer } from './lib/static-server'
import { percentile } from './lib/stats'

const root = fileURLToPath(new URL('./draw-city/page/', import.meta.url))
const outDir = fileURLToPath(new URL('../dist/bench-draw-city-cpu/', import.meta.url))
const html = 'draw-city.html'
const compareTrees = (process.env.DRAW_BENCH_COMPARE ?? '').split(',').filter(Boolean)
const rounds = Number(process.env.DRAW_BENCH_ROUNDS ?? 2)
const cases: DrawBenchCase[] = ['with-drawings', 'without-drawings']
const { viewport } = drawCitySettings

/** CPU ms (user + system, all threads) of the Chromium processes this script started, by type. */
function chromiumCpuMs(): Record<string, number> {
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        // Chromium rewrites its children's command lines as one string.
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        const type = /--type=([\w-]+)/.exec(commandLine)?.[1] ?? 'browser'
        // utime and stime, in clock ticks of 10 ms.
        const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10
        return [{ pid: Number(pid), ppid: Number(fields[1]), type, cpuMs }]
      } catch {
        return [] // gone meanwhile
      }
    })
  // Only this script's browser: other people's benchmarks run Chromium beside it.
  const ours = new Set([process.pid])
  for (let depth = 0; depth < 4; depth++)
    for (const entry of processes) if (ours.has(entry.ppid)) ours.add(entry.pid)
  const byType: Record<string, number> = {}
  for (const entry of processes)
    if (ours.has(entry.pid) && entry.pid !== process.pid)
      byType[entry.type] = (byType[entry.type] ?? 0) + entry.cpuMs
  return byType
}

await buildBenchPage(root, html, outDir)
for (const [index, tree] of compareTrees.entries())
  await buildBenchPage(root, html, join(outDir, `compare-${index}`), [
    { find: /^(\.\.\/){3}engine\//, replacement: `${resolve(tree, 'engine')}/` },
  ])
const sides = ['ours', ...compareTrees]
const server = await startStaticServer(outDir)
const browser = await launchBenchBrowser({ isFrameRateLimited: true })
const rows: { side: string; benchCase: DrawBenchCase; gpuMs: number; rendererMs: number }[] = []
try {
  for (let round = 0; round <= rounds; round++)
    for (const benchCase of cases)
      for (let offset = 0; offset < sides.length; offset++) {
        const side = (offset + round) % sides.length
        const context = await browser.newContext({ viewport })
        const page = await openBenchPage(context, {
          url: `${server.origin}/${side === 0 ? '' : `compare-${side - 1}/`}${html}`,
          entry: 'runDrawCityBench',
          logPrefix: `draw-city-cpu ${sides[side]} ${benchCase}`,
          log: console.log,
        })
        const cpuAt: Record<string, Record<string, number>> = {}
        await page.exposeFunction('drawBenchMark', (point: string) => {
          cpuAt[point] = chromiumCpuMs()
        })
        const sample = (await page.evaluate((config) => window.runDrawCityBench(config), {
          benchCase,
          ...drawCitySettings,
          pathDurationMs: round === 0 ? 2_000 : 8_000,
        })) as DrawBenchSample
        await context.close()
        const frames = Math.max(1, sample.frameIntervalsMs.length)
        const perFrame = (type: string) =>
          ((cpuAt.end?.[type] ?? 0) - (cpuAt.start?.[type] ?? 0)) / frames
        const row = {
          side: sides[side]!,
          benchCase,
          gpuMs: perFrame('gpu-process'),
          rendererMs: perFrame('renderer'),
        }
        console.log(
          `${round === 0 ? 'warm-up' : `round ${round}`} ${row.side} ${benchCase}: ${frames} frames, median ${percentile(sample.frameIntervalsMs, 0.5).toFixed(1)} ms, work to a pixel read back median ${percentile(sample.frameWorkMs, 0.5).toFixed(1)} ms; CPU a frame: GPU process ${row.gpuMs.toFixed(1)} ms, renderer ${row.rendererMs.toFixed(1)} ms; pictures painted while orbiting ${sample.orbitPaints}`,
        )
        if (round > 0) rows.push(row)
      }
} finally {
  await browser.close()
  await server.close()
}
for (const side of sides)
  for (const benchCase of cases) {
    const of = rows.filter((row) => row.side === side && row.benchCase === benchCase)
    if (of.length === 0) continue // warm-up only (DRAW_BENCH_ROUNDS=0)
    const median = (values: number[]) => percentile(values, 0.5).toFixed(1)
    console.log(
      `${side} ${benchCase}: CPU a frame (median of rounds): GPU process ${median(of.map((row) => row.gpuMs))} ms, renderer ${median(of.map((row) => row.rendererMs))} ms`,
    )
  }
