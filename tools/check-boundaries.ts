/**
 * Enforces the engine/UI boundary of architecture.md §3 by reading every import:
 * - engine/** never imports react, valtio, @lingui/* or src/**
 * - workers/** never imports engine/** or src/**
 * - src/** imports engine/ at run time only from src/engine-bridge/ (type-only imports are fine)
 * Exits non-zero and lists each violation. Run by `npm run lint`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const importPattern =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function* sourceFiles(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const path = join(folder, name)
    if (statSync(path).isDirectory()) yield* sourceFiles(path)
    else if (/\.(ts|tsx)$/.test(name)) yield path
  }
}

/** Where an import lands, as a project-relative path, or the package name. */
function target(fromFile: string, specifier: string): string {
  if (specifier.startsWith('.')) return relative(root, resolve(dirname(fromFile), specifier))
  return specifier
}

const violations: string[] = []
for (const area of ['engine', 'workers', 'src']) {
  for (const file of sourceFiles(join(root, area))) {
    const text = readFileSync(file, 'utf8')
    const from = relative(root, file)
    for (const match of text.matchAll(importPattern)) {
      const isTypeOnly = Boolean(match[2])
      const specifier = match[3] ?? match[4]
      if (!specifier) continue
      const to = target(file, specifier)
      const say = (rule: string) => violations.push(`${from}: imports '${specifier}' (${rule})`)
      if (area === 'engine') {
        if (/^(react|react-dom|valtio|@lingui\/)/.test(to) || to.startsWith('src/'))
          say('the engine never imports React, valtio, lingui or src/')
      } else if (area === 'workers') {
        if (to.startsWith('engine/') || to.startsWith('src/'))
          say('workers never import engine/ or src/')
      } else if (
        to.startsWith('engine/') &&
        !isTypeOnly &&
        !from.startsWith('src/engine-bridge/')
      ) {
        say('src/ reaches the engine at run time only through src/engine-bridge/')
      }
    }
  }
}

if (violations.length > 0) {
  console.error(`Boundary violations (architecture.md §3):\n${violations.join('\n')}`)
  process.exit(1)
}
console.log('boundaries: ok')
