import { createReadStream, readFileSync } from 'node:fs'
import { XMLParser } from 'fast-xml-parser'
import { buildNavigationGraph } from '../../workers/indoor-route/build-navigation-graph'
import { IndoorGmlParser } from '../../workers/indoor-route/gml-parser'

/**
 * One measured parse, alone in its own process so its peak memory is its own:
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

/**
 * This process's own peak RSS: VmHWM, the high-water mark of its address space. Not
 * getrusage's maxRSS: on Linux a spawned child starts as a fork of its parent, whose resident
 * size at the fork is kept in the child's maxRSS across exec — so every child of a bench runner
 * holding 660 MB reported at least 660 MB (issue 14: peak RSS ratio 0.20 → 0.55).
 */
function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (match) return Number(match[1]) * 1024
  } catch {
    // No procfs: fall back to getrusage below.
  }
  return process.resourceUsage().maxRSS * 1024
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
    maxRssBytes: peakRssBytes(),
    counts,
  }),
)
