/**
 * Weather cost in the city (issue 19): frame time with rain or snow falling vs the same styled
 * map without weather (goal: ≤ 1.15×, the building's style-frames goal), at 1920×1080 in
 * Chromium (SwiftShader: the ratio is what counts). The real city engine draws an offline map
 * tilted to 70° under the sunny sky; cases are interleaved round by round in one page.
 * `npm run bench -- city-style-frames`; writes bench/results/city-style-frames.json.
 */
import { fileURLToPath } from 'node:url'
import { runWeatherFramesBench } from './lib/weather-frames'

/** Builds the page, runs it in Chromium, writes the report. */
export function runCityStyleFramesBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  return runWeatherFramesBench(
    {
      name: 'city-style-frames',
      pageRoot: fileURLToPath(new URL('./city-style-frames-page/', import.meta.url)),
      htmlFile: 'city-style-frames.html',
      entry: 'runCityStyleFramesBench',
      description:
        'Frame time (camera turn + MapLibre render + pixel read-back through city.sampleStylePixels, so SwiftShader GPU work counts) of the city map tilted to 70° under the sunny sky, 1920×1080, production build in Chromium; cases interleaved by round in one page.',
      outDir: fileURLToPath(new URL('../dist/bench-city-style-frames/', import.meta.url)),
    },
    options,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runCityStyleFramesBench()
  console.log(
    JSON.stringify({ cases: report.cases, ratios: report.ratios, goals: report.goals }, null, 2),
  )
}
