import { isMainModule } from './bench-stats'
import { runGmlParseBench } from './gml-parse'
import { runGmlRouteBench } from './gml-route'

/**
 * The IndoorGML benchmarks for the bench harness: each entry runs on its own, returns its
 * report and writes bench/results/<name>.json. Standalone: `npx tsx bench/gml/index.ts` runs
 * both (about 4 minutes on a busy 2-core machine); each file also runs alone.
 */
export const gmlBenchmarks = [
  { name: 'gml-route', run: runGmlRouteBench },
  { name: 'gml-parse', run: runGmlParseBench },
] as const

export { runGmlParseBench, runGmlRouteBench }

if (isMainModule(import.meta.url)) {
  for (const benchmark of gmlBenchmarks) await benchmark.run()
}
