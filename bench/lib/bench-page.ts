import type { BrowserContext, Page } from 'playwright-core'
import { build } from 'vite'

/**
 * The browser side every page benchmark shares: its page is built once as a production bundle
 * (so timings are of what users get, not of Vite's dev transforms), then opened, with its errors
 * logged, until the page's entry function is defined.
 */

/**
 * Builds one bench page (an HTML entry in `root`) into `outDir` with Vite, production mode.
 * `alias` redirects imports (Vite's `resolve.alias`), e.g. the page's engine to another checkout.
 */
export async function buildBenchPage(
  root: string,
  htmlFile: string,
  outDir: string,
  alias: { find: RegExp; replacement: string }[] = [],
) {
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    resolve: { alias },
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // The pages bundle the engine and its map libraries: large chunks are expected here.
      chunkSizeWarningLimit: 5000,
      rollupOptions: { input: { page: `${root}${htmlFile}` } },
    },
  })
}

/** What {@link openBenchPage} needs to know of the page. */
export interface BenchPageTarget {
  /** Where the page is served, e.g. `${server.origin}/city.html`. */
  url: string
  /** The global function the page defines once ready, e.g. `runCityBench`. */
  entry: string
  /** Prefix of the log lines (the benchmark's name and case). */
  logPrefix: string
  log: (line: string) => void
  /** When set, the page's console lines starting with it are forwarded to the log. */
  consoleTag?: string
}

/** Opens a new page in `context`, logs its errors, waits for its entry function. */
export async function openBenchPage(
  context: Pick<BrowserContext, 'newPage'>,
  target: BenchPageTarget,
  beforeLoad?: (page: Page) => Promise<void>,
): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (error) => target.log(`${target.logPrefix}: page error: ${error.message}`))
  const tag = target.consoleTag
  if (tag)
    page.on('console', (message) => {
      const text = message.text()
      if (text.startsWith(tag)) target.log(`${target.logPrefix}: ${text.slice(tag.length).trim()}`)
    })
  await beforeLoad?.(page)
  await page.goto(target.url)
  await page.waitForFunction(
    (entry) => typeof (window as unknown as Record<string, unknown>)[entry] === 'function',
    target.entry,
  )
  return page
}
