/**
 * Weather cost (issue 19): frame time with rain or snow falling vs the same styled scene without
 * weather (goal: ≤ 1.15×), at 1920×1080 in Chromium (SwiftShader: the ratio is what counts).
 * The real engine draws a seeded 8-floor building under the default sky with a grass ground;
 * cases are interleaved round by round in one page. `npm run bench -- style-frames`; writes
 * bench/results/style-frames.json.
 */
import { fileURLToPath } from 'node:url'
import { runWeatherFramesBench } from './lib/weather-frames'

/** Builds the page, runs it in Chromium, writes the report. */
export function runStyleFramesBench(
  options: { rounds?: number; log?: (line: string) => void } = {},
) {
  return runWeatherFramesBench(
    {
      name: 'style-frames',
      pageRoot: fileURLToPath(new URL('./style-frames-page/', import.meta.url)),
      htmlFile: 'style-frames.html',
      entry: 'runStyleFramesBench',
      description:
        'Frame time (camera step + render + pixel read-back through building.sampleStylePixels, so SwiftShader GPU work counts) along a fixed orbit of a seeded 8-floor building, 1920×1080, sunny sky and grass ground, production build in Chromium; cases interleaved by round in one page.',
      outDir: fileURLToPath(new URL('../dist/bench-style-frames/', import.meta.url)),
    },
    options,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runStyleFramesBench()
  console.log(
    JSON.stringify({ cases: report.cases, ratios: report.ratios, goals: report.goals }, null, 2),
  )
}
