/**
 * Web app load (issue 12 item 16): what a new visitor's browser downloads, and how long until
 * the sign-in form is on screen — the build and server of a baseline commit (default: main
 * before precompression and lazy pages) against the current tree's, side by side in one run.
 *
 * Both sides are built here from their own sources (`git archive` of the baseline into
 * dist/bench-data/, sharing this tree's node_modules) and served by their own server
 * (`server/serve.ts` of each tree, each on a fresh data folder), so each side sends what it
 * would send in production: headers, encodings and chunks included. Every run is a fresh
 * browser context (empty cache) that opens `/#/login` and stops the clock when the password
 * field exists; bytes are what crossed the network (Chromium's encodedDataLength: headers and
 * compressed bodies). Two network profiles: loopback as is, and a throttled link (20 Mbit/s,
 * 40 ms round trip) where bytes turn into time as they do for a user on a LAN or VPN.
 *
 *   npx tsx bench/web-app-load.ts      (or `npm run bench -- web-app-load`)
 *
 * Writes bench/results/web-app-load.json. WEB_APP_BENCH_BASELINE=<commit> picks the baseline,
 * BENCH_ROUNDS the timed loads per side and profile, BENCH_PORT the first of two server ports.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Browser, chromium } from 'playwright-core'
import { chromiumArgs, chromiumExecutablePath } from '../tools/chromium'
import { QuietRounds } from './lib/quiet-rounds'
import { machineInfo, measure, ratioOf, writeBenchResult } from './lib/stats'

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url))
/** main at the time of issue 12 item 16: uncompressed, MapLibre preloaded on sign-in. */
const defaultBaseline = '95c6cb2c4df40e3fa987e7391b25ead20d69eeb0'
/** Timed loads per side and network profile (BENCH_ROUNDS, default 5). */
const timedRuns = Number(process.env.BENCH_ROUNDS) || 5

/** A network as Chromium's DevTools emulates it; null means loopback, unthrottled. */
interface NetworkProfile {
  name: string
  description: string
  conditions: { latency: number; downloadThroughput: number; uploadThroughput: number } | null
}

const profiles: NetworkProfile[] = [
  { name: 'loopback', description: 'no throttling (127.0.0.1)', conditions: null },
  {
    name: 'link-20mbit',
    description: '20 Mbit/s down, 10 Mbit/s up, 40 ms round trip (DevTools emulation)',
    conditions: { latency: 40, downloadThroughput: 20e6 / 8, uploadThroughput: 10e6 / 8 },
  },
]

/** Libraries whose code must not reach the sign-in page; strings only their code carries. */
const libraryMarkers: Record<string, string> = {
  maplibre: 'Style is not done loading',
  three: 'THREE.WebGLRenderer',
  deck: 'deck.gl',
}

interface Side {
  name: 'before' | 'after'
  commit: string
  root: string
  webDir: string
  origin: string
  server: ChildProcess
  dataDir: string
}

interface LoadSample {
  formVisibleMs: number
  bytesToForm: number
  bytesTotal: number
  requests: number
  librariesLoaded: string[]
  encodings: string[]
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repositoryRoot, encoding: 'utf8' }).trim()
}

/** The baseline's sources in dist/bench-data/, extracted once per commit. */
function checkoutBaseline(commit: string): string {
  const root = join(repositoryRoot, 'dist', 'bench-data', `web-app-${commit.slice(0, 12)}`)
  if (!existsSync(join(root, 'package.json'))) {
    mkdirSync(root, { recursive: true })
    execFileSync('bash', ['-c', `git archive ${commit} | tar -x -C "${root}"`], {
      cwd: repositoryRoot,
    })
  }
  if (!existsSync(join(root, 'node_modules'))) {
    symlinkSync(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'), 'dir')
  }
  return root
}

/** What the baseline's vite.config.ts imported and the project has since dropped. */
const removedBabelPlugin = "import babel from '@rolldown/plugin-babel'"
const babelMacroCall = "babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] })"

/**
 * The baseline's build needs `@rolldown/plugin-babel`, removed from the project (its releases
 * want Node ≥ 22.12; issue 14 item 9). It only ran lingui's macro plugin in Babel before
 * react(); the project's `tools/vite-lingui-macro.ts` does that same step (same Babel plugin,
 * same place in the chain), so the baseline's config gets it in that plugin's place. Nothing
 * else of the baseline changes. Returns what was changed, for the report (null: nothing).
 */
function adaptBaselineBuild(root: string): string | null {
  const configPath = join(root, 'vite.config.ts')
  const config = readFileSync(configPath, 'utf8')
  if (!config.includes(removedBabelPlugin)) {
    return config.includes('./tools/vite-lingui-macro')
      ? 'vite.config.ts: @rolldown/plugin-babel replaced by tools/vite-lingui-macro.ts'
      : null
  }
  if (!config.includes(babelMacroCall)) {
    throw new Error('the baseline uses @rolldown/plugin-babel in a way this bench cannot replace')
  }
  mkdirSync(join(root, 'tools'), { recursive: true })
  copyFileSync(
    join(repositoryRoot, 'tools', 'vite-lingui-macro.ts'),
    join(root, 'tools', 'vite-lingui-macro.ts'),
  )
  writeFileSync(
    configPath,
    config
      .replace(removedBabelPlugin, "import { linguiMacro } from './tools/vite-lingui-macro'")
      .replace(babelMacroCall, 'linguiMacro()'),
  )
  return adaptBaselineBuild(root)
}

function build(root: string, outDir: string): void {
  console.log(`building ${root} → ${outDir}`)
  execFileSync(
    process.execPath,
    [join(repositoryRoot, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', outDir],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  )
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function startServer(
  name: Side['name'],
  commit: string,
  root: string,
  webDir: string,
): Promise<Side> {
  // BENCH_PORT (and the next one) on a shared machine where each user has a port range.
  const port = process.env.BENCH_PORT
    ? Number(process.env.BENCH_PORT) + (name === 'before' ? 0 : 1)
    : await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), `twinscape-web-app-bench-${name}-`))
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/serve.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      ADMIN_PASSWORD: 'bench-Admin-pass-2026',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const origin = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${origin}/web/health`)).ok) {
        return { name, commit, root, webDir, origin, server, dataDir }
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  server.kill()
  throw new Error(`the ${name} server did not start`)
}

async function loadSignIn(
  browser: Browser,
  side: Side,
  profile: NetworkProfile,
): Promise<LoadSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    if (profile.conditions) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        ...profile.conditions,
      })
    }
    let formSeen = false
    let bytesToForm = 0
    let bytesTotal = 0
    let requests = 0
    const encodings = new Set<string>()
    const scriptRequests = new Set<string>()
    cdp.on('Network.responseReceived', (event) => {
      const encoding =
        event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding']
      if (/javascript|css/.test(event.response.mimeType)) {
        scriptRequests.add(event.requestId)
        encodings.add(encoding ?? 'identity')
      }
    })
    cdp.on('Network.loadingFinished', (event) => {
      requests++
      bytesTotal += event.encodedDataLength
      if (!formSeen) bytesToForm += event.encodedDataLength
    })
    await page.goto(`${side.origin}/#/login`, { waitUntil: 'commit' })
    // Checked every 10 ms (not per animation frame: on a busy software-GPU machine frames
    // stalled for minutes), so it resolves within 10 ms of the password field being laid out;
    // performance.now() counts from the navigation's start.
    const formVisibleMs = (await (
      await page.waitForFunction(
        () => {
          const field = document.querySelector('input[type="password"]')
          return field && field.getBoundingClientRect().width > 0 ? performance.now() : false
        },
        undefined,
        { polling: 10, timeout: 120_000 },
      )
    ).jsonValue()) as number
    formSeen = true
    await page.waitForLoadState('networkidle')
    const librariesLoaded: string[] = []
    for (const url of await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => entry.name),
    )) {
      if (!/\.(m?js|css)$/.test(new URL(url).pathname)) continue
      const body = await (await fetch(url)).text()
      for (const [library, marker] of Object.entries(libraryMarkers)) {
        if (body.includes(marker) && !librariesLoaded.includes(library))
          librariesLoaded.push(library)
      }
    }
    return {
      formVisibleMs,
      bytesToForm,
      bytesTotal,
      requests,
      librariesLoaded: librariesLoaded.sort(),
      encodings: [...encodings].sort(),
    }
  } finally {
    await context.close()
  }
}

/** Runs the benchmark and writes bench/results/web-app-load.json. */
export async function runWebAppLoadBench(): Promise<void> {
  const baseline = git('rev-parse', process.env.WEB_APP_BENCH_BASELINE ?? defaultBaseline)
  const current = git('rev-parse', 'HEAD')
  const isDirty = git('status', '--porcelain', '--untracked-files=no').length > 0
  const baselineRoot = checkoutBaseline(baseline)
  const baselineBuildChange = adaptBaselineBuild(baselineRoot)
  const beforeWebDir = join(baselineRoot, 'dist', 'web')
  if (!existsSync(join(beforeWebDir, 'index.html'))) build(baselineRoot, beforeWebDir)
  const afterWebDir = join(repositoryRoot, 'dist', 'bench-data', 'web-app-current')
  build(repositoryRoot, afterWebDir)

  const sides: Side[] = []
  const quiet = new QuietRounds()
  // Chromium as the e2e tests start it: the bench browser's uncapped frame rate starved this
  // page's animation frames on a busy machine, and nothing here measures frame rates.
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath,
    args: chromiumArgs,
  })
  try {
    sides.push(await startServer('before', baseline, baselineRoot, beforeWebDir))
    sides.push(await startServer('after', current, repositoryRoot, afterWebDir))
    const results: Record<string, Record<string, LoadSample[]>> = {}
    for (const profile of profiles) {
      results[profile.name] = { before: [], after: [] }
      for (const side of sides) await loadSignIn(browser, side, profile) // warm-up, not counted
      for (let round = 0; round < timedRuns; round++) {
        // Alternate which side goes first, so neither always meets the busier moment.
        const order = round % 2 === 0 ? sides : [...sides].reverse()
        for (const side of order) {
          const sample = await quiet.round(`${profile.name} round ${round + 1} ${side.name}`, () =>
            loadSignIn(browser, side, profile),
          )
          console.log(
            `${profile.name} ${side.name}: form ${sample.formVisibleMs.toFixed(0)} ms, ` +
              `${sample.bytesToForm} bytes`,
          )
          results[profile.name]?.[side.name]?.push(sample)
        }
      }
    }

    const cases: Record<string, unknown> = {}
    const ratios = []
    for (const profile of profiles) {
      for (const side of sides) {
        const samples = results[profile.name]?.[side.name] ?? []
        const formVisible = measure(
          samples.map((sample) => sample.formVisibleMs),
          'ms',
        )
        const bytesToForm = measure(
          samples.map((sample) => sample.bytesToForm),
          'bytes',
        )
        cases[`${side.name}/${profile.name}`] = {
          commit: side.commit,
          network: profile.description,
          formVisibleMs: formVisible,
          bytesToForm,
          bytesTotal: measure(
            samples.map((sample) => sample.bytesTotal),
            'bytes',
          ),
          requests: measure(
            samples.map((sample) => sample.requests),
            'requests',
          ),
          librariesLoaded: samples[0]?.librariesLoaded ?? [],
          scriptEncodings: samples[0]?.encodings ?? [],
        }
      }
      const before = cases[`before/${profile.name}`] as {
        formVisibleMs: { median: number }
        bytesToForm: { median: number }
      }
      const after = cases[`after/${profile.name}`] as typeof before
      ratios.push(
        ratioOf(
          `after/${profile.name}`,
          `before/${profile.name}`,
          'formVisibleMs',
          after.formVisibleMs.median,
          before.formVisibleMs.median,
        ),
        ratioOf(
          `after/${profile.name}`,
          `before/${profile.name}`,
          'bytesToForm',
          after.bytesToForm.median,
          before.bytesToForm.median,
        ),
      )
    }
    const path = writeBenchResult(
      'web-app-load',
      {
        benchmark: 'web-app-load',
        description:
          'Opening /#/login in a fresh browser context (no cache): time until the password field ' +
          'is laid out (performance.now() from navigation start) and bytes that crossed the ' +
          "network (Chromium's encodedDataLength). before = the baseline commit's build and " +
          'server, after = this tree, both built and served in this run.',
        date: new Date().toISOString(),
        machine: machineInfo(browser.version()),
        baseline,
        baselineBuildChange,
        current: isDirty ? `${current} (with uncommitted changes)` : current,
        cases,
        ratios,
      },
      quiet,
    )
    console.log(`wrote ${path}`)
    for (const ratio of ratios)
      console.log(`${ratio.ours} ÷ ${ratio.anchor} ${ratio.metric}: ${ratio.value}`)
  } finally {
    await browser.close()
    for (const side of sides) {
      side.server.kill()
      await rm(side.dataDir, { recursive: true, force: true })
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runWebAppLoadBench()
}
