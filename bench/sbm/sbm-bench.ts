/**
 * All SBM benchmarks, for the harness (`bench/run.ts`) or standalone:
 * `npx tsx bench/sbm/sbm-bench.ts`. Writes bench/results/sbm-node.json (file size, BVH bytes per
 * triangle, decode to pickable and raycast throughput in Node) and bench/results/sbm-browser.json
 * (load to pickable, main-thread blocking, pick latency and worker raycast throughput in Chromium).
 */
import { fileURLToPath } from 'node:url'
import { runSbmBrowserBench, type SbmBrowserBenchOptions } from './sbm-browser-bench'
import { runSbmNodeBench, type SbmNodeBenchOptions } from './sbm-node-bench'

/** Runs the Node figures, then the Chromium ones; returns both reports. */
export async function runSbmBench(options: SbmNodeBenchOptions & SbmBrowserBenchOptions = {}) {
  const node = await runSbmNodeBench(options)
  const browser = await runSbmBrowserBench(options)
  return { node, browser }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { node, browser } = await runSbmBench()
  console.log(JSON.stringify({ node: node.goals, browser: browser.goals }, null, 2))
}
