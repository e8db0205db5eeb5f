import { createReadStream, readFileSync } from 'node:fs'
import { XMLParser } from 'fast-xml-parser'
import { buildNavigationGraph } from '../../workers/indoor-route/build-navigation-graph'
import { IndoorGmlParser } from '../../workers/indoor-route/gml-parser'

/**
 * One measured parse, alone in its own process so its peak memory (maxRSS) is its own:
 * `tsx parse-child.ts <ours|ours-graph|fast-xml-parser|baseline> <file>`. Prints one JSON
 * line. Module loading happens before the clock starts.
 */
const [mode, file] = process.argv.slice(2)
if (!mode || !file) throw new Error('usage: parse-child.ts <mode> <file>')

async function parseOurs() {
  const parser = new IndoorGmlParser({ maxSizeBytes: Number.POSITIVE_INFINITY })
  for await (const chunk of createReadStream(file!, { highWaterMark: 1 << 20 })) {
    parser.writeBytes(chunk as Buffer)
  }
  return parser.finish()
}

const startedAt = performance.now()
let counts: Record<string, number> = {}
let buildDurationMs: number | undefined
if (mode === 'ours' || mode === 'ours-graph') {
  const parsed = await parseOurs()
  counts = { states: parsed.states.length, transitions: parsed.transitions.length }
  if (mode === 'ours-graph') {
    const buildStartedAt = performance.now()
    const { graph } = buildNavigationGraph(parsed)
    buildDurationMs = performance.now() - buildStartedAt
    counts.edges = graph.edgeFrom.length
  }
} else if (mode === 'fast-xml-parser') {
  // The anchor builds a whole document object, as DOM-style parsers do.
  const document = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(file, 'utf8'))
  counts = { topLevelKeys: Object.keys(document).length }
} else if (mode !== 'baseline') {
  throw new Error(`unknown mode ${mode}`)
}
const durationMs = performance.now() - startedAt
console.log(
  JSON.stringify({
    mode,
    durationMs,
    buildDurationMs,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    counts,
  }),
)
