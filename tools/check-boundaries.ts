/**
 * Enforces the boundaries of architecture.md §3 by reading every import:
 * - engine/** never imports react, valtio, @lingui/* or src/**
 * - workers/** never imports engine/**, src/** or server/**
 * - src/** imports the engine only through engine/api/index.ts, and at run time only from
 *   src/engine-bridge/ (src tests may also use engine/testing/)
 * - server/** never imports src/** or engine/** (except `*.client.test.ts`, which drive the web
 *   client against the real server)
 * - contract/** imports nothing but zod and other contract files (its tests also vitest)
 * Exits non-zero and lists each violation. Run by `npm run lint`; pass a folder to check another
 * tree (tools/check-boundaries.test.ts plants violations in a temporary one).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const importPattern =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function* sourceFiles(folder: string): Generator<string> {
  if (!existsSync(folder)) return
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const path = join(folder, name)
    if (statSync(path).isDirectory()) yield* sourceFiles(path)
    else if (/\.(ts|tsx)$/.test(name)) yield path
  }
}

/** Every boundary violation under `root`, one line each (empty when the tree is clean). */
export function findBoundaryViolations(root: string): string[] {
  /** Where an import lands, as a root-relative path with `/`, or the package name. */
  const target = (fromFile: string, specifier: string): string =>
    specifier.startsWith('.')
      ? relative(root, resolve(dirname(fromFile), specifier))
          .split(sep)
          .join('/')
      : specifier

  const violations: string[] = []
  for (const area of ['engine', 'workers', 'src', 'server', 'contract']) {
    for (const file of sourceFiles(join(root, area))) {
      const text = readFileSync(file, 'utf8')
      const from = relative(root, file).split(sep).join('/')
      for (const match of text.matchAll(importPattern)) {
        const isTypeOnly = Boolean(match[2])
        const specifier = match[3] ?? match[4]
        if (!specifier) continue
        const to = target(file, specifier)
        const say = (rule: string) => violations.push(`${from}: imports '${specifier}' (${rule})`)
        const reaches = (folder: string) => to === folder || to.startsWith(`${folder}/`)
        if (area === 'engine') {
          if (/^(react|react-dom|valtio|@lingui\/)/.test(to) || reaches('src'))
            say('the engine never imports React, valtio, lingui or src/')
        } else if (area === 'workers') {
          if (reaches('engine') || reaches('src') || reaches('server'))
            say('workers never import engine/, src/ or server/')
        } else if (area === 'src') {
          if (!reaches('engine')) continue
          const isTestHarness = /\.test\.tsx?$/.test(from) && reaches('engine/testing')
          if (!isTestHarness && !/^engine\/api(\/index(\.ts)?)?$/.test(to))
            say('src/ imports the engine only through engine/api/index.ts')
          else if (!isTypeOnly && !isTestHarness && !from.startsWith('src/engine-bridge/'))
            say('src/ reaches the engine at run time only through src/engine-bridge/')
        } else if (area === 'server') {
          const isClientTest = from.endsWith('.client.test.ts')
          if ((reaches('src') && !isClientTest) || reaches('engine'))
            say('the server never imports src/ or engine/')
        } else if (area === 'contract') {
          const isTestRunner = to === 'vitest' && /\.test\.ts$/.test(from)
          if (to !== 'zod' && !reaches('contract') && !isTestRunner)
            say('contract/ imports nothing but zod and other contract files')
        }
      }
    }
  }
  return violations
}

// Run as a script (npm run lint), not when a test imports findBoundaryViolations.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'))
  const violations = findBoundaryViolations(root)
  if (violations.length > 0) {
    console.error(`Boundary violations (architecture.md §3):\n${violations.join('\n')}`)
    process.exit(1)
  }
  console.log('boundaries: ok')
}
