/**
 * `npm run bench` runs every benchmark; `npm run bench -- unzip` only the named ones. Each
 * writes bench/results/<name>.json (see bench/README.md for how to read them). Modules are
 * imported only when their benchmark runs, so one that is broken does not stop the others.
 */
import { runUnzipBench } from './scenes/unzip'

const benchmarks: Record<string, () => Promise<unknown>> = {
  unzip: () => runUnzipBench(),
  'gml-route': async () => (await import('./gml/gml-route')).runGmlRouteBench(),
  'gml-parse': async () => (await import('./gml/gml-parse')).runGmlParseBench(),
  'sbm-node': async () => (await import('./sbm/sbm-node-bench')).runSbmNodeBench(),
  'sbm-browser': async () => (await import('./sbm/sbm-browser-bench')).runSbmBrowserBench(),
  'find-project-all': async () =>
    (await import('./projects/find-project-all')).runFindProjectAllBench(),
  'tileset-ingest': async () => (await import('./tileset-ingest')).runTilesetIngestBench(),
  'city-tiles': async () => (await import('./city-tiles')).runCityTilesBench(),
  'poi-city-frames': async () => (await import('./poi-city-frames')).runPoiCityFramesBench(),
  'draw-city-frames': async () => (await import('./draw-city-frames')).runDrawCityFramesBench(),
  'web-app-load': async () => (await import('./web-app-load')).runWebAppLoadBench(),
  hostile: async () => (await import('./hostile/hostile-bench')).runHostileBench(),
  'flood-poi-list': async () => (await import('./flood/flood-poi-list')).runFloodPoiListBench(),
  templates: async () => (await import('./templates/templates-list')).runTemplatesBench(),
  'style-frames': async () => (await import('./style-frames')).runStyleFramesBench(),
  'city-style-frames': async () => (await import('./city-style-frames')).runCityStyleFramesBench(),
  'poi-building-frames': async () =>
    (await import('./poi-building-frames')).runPoiBuildingFramesBench(),
  'template-zip-health': async () =>
    (await import('./templates/template-zip-health')).runTemplateZipHealthBench(),
  'pois-find': async () => (await import('./pois/pois-find')).runPoisFindBench(),
  'pois-create-list': async () =>
    (await import('./pois/pois-create-list')).runPoisCreateListBench(),
  'iot-ingest': async () => (await import('./iot-ingest')).runIotIngestBench(),
  'iot-timeseries': async () => (await import('./iot-timeseries')).runIotTimeseriesBench(),
  'iot-latency': async () => (await import('./iot-latency')).runIotLatencyBench(),
  'offline-package': async () => (await import('./offline-package')).runOfflinePackageBench(),
  'offline-viewer': async () => (await import('./offline-viewer')).runOfflineViewerBench(),
  'model-merge': async () => (await import('./model-merge')).runModelMergeBench(),
  fences: async () => (await import('./fences')).runFencesBench(),
  'job-queue': async () => (await import('./job-queue')).runJobQueueBench(),
  'two-processes': async () => (await import('./two-processes')).runTwoProcessesBench(),
  's3-tiles': async () => (await import('./s3-tiles')).runS3TilesBench(),
}

const requested = process.argv.slice(2).filter((argument) => !argument.startsWith('-'))
const unknown = requested.filter((name) => !(name in benchmarks))
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}`,
  )
  process.exit(2)
}

let failures = 0
for (const name of requested.length > 0 ? requested : Object.keys(benchmarks)) {
  const startedAtMs = performance.now()
  console.log(`== ${name}`)
  try {
    await benchmarks[name]!()
    console.log(`== ${name} done in ${((performance.now() - startedAtMs) / 1000).toFixed(1)} s`)
  } catch (error) {
    failures++
    console.error(`== ${name} failed:`, error)
  }
}
process.exit(failures > 0 ? 1 : 0)
