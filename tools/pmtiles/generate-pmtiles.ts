import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { generateRasterBasemap } from './raster-basemap'

const usage =
  'usage: tsx tools/pmtiles/generate-pmtiles.ts <out.pmtiles> [--seed N] [--min-zoom N] [--max-zoom N]'

/**
 * Writes a seeded raster PMTiles basemap to disk, for uploading by hand in the basemap setting
 * tab. Answers the colour of each zoom level, so whoever uploads it knows what the map must show.
 */
export function generatePmtilesFile(argv: readonly string[], cwd: string): string {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      seed: { type: 'string', default: '1' },
      'min-zoom': { type: 'string', default: '0' },
      'max-zoom': { type: 'string', default: '6' },
    },
  })
  const [outPath] = positionals
  const numbers = [values.seed, values['min-zoom'], values['max-zoom']].map(Number)
  if (!outPath || numbers.some((value) => !Number.isInteger(value))) throw new Error(usage)
  const [seed = 1, minZoom = 0, maxZoom = 6] = numbers
  const basemap = generateRasterBasemap({ seed, minZoom, maxZoom })
  const absolutePath = resolve(cwd, outPath)
  writeFileSync(absolutePath, basemap.bytes)
  const colours = basemap.colorsByZoom
    .map((colour, zoom) => (colour ? `  zoom ${zoom}: ${colour}` : null))
    .filter((line) => line !== null)
  return [`${absolutePath} (${basemap.bytes.byteLength} bytes)`, ...colours].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(generatePmtilesFile(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd()))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
}
