/**
 * Enforces the boundaries of architecture.md §3 by reading every import:
 * - engine/** never imports react, valtio, @lingui/* or src/**
 * - workers/** never imports engine/**, src/** or server/**
 * - src/** imports the engine only through engine/api/index.ts, and at run time only from
 *   src/engine-bridge/ (src tests may also use engine/testing/)
 * - server/** never imports src/** or engine/** (except `*.client.test.ts`, which drive the web
 *   client against the real server)
 * - contract/** imports nothing but zod and other contract files (its tests also vitest)
 * - no import circle in server/, contract/ or workers/ (type-only imports count: a circle of
 *   types is still two files that cannot be understood one without the other)
 * - src/api/** is a plain client: it never imports src/state/** or src/app/** (the session
 *   reacts to what the client reports, not the other way round; its tests may wire both)
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
          const isApiTest = /\.test\.tsx?$/.test(from)
          if (
            from.startsWith('src/api/') &&
            !isApiTest &&
            (reaches('src/state') || reaches('src/app'))
          )
            say('src/api/ is a plain client: it never imports src/state/ or src/app/')
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
  return [...violations, ...findImportCircles(root)]
}

/** The folders checked for import circles: the whole product. */
export const circleFreeAreas: readonly string[] = [
  'server',
  'contract',
  'workers',
  'engine',
  'src',
  'tools',
]

/** The file a relative import lands on (`./x` → x.ts, x.tsx or x/index.ts), if it exists. */
function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier)
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]
  return candidates.find((path) => /\.(ts|tsx)$/.test(path) && existsSync(path))
}

/**
 * Every import circle under `root` (architecture.md §3: imports point one way), one line each,
 * as the files of the circle in import order. Found as the strongly connected components of the
 * import graph (Tarjan), so each circle is named once however many paths run through it.
 */
export function findImportCircles(
  root: string,
  areas: readonly string[] = circleFreeAreas,
): string[] {
  const imports = new Map<string, string[]>()
  for (const area of areas) {
    for (const file of sourceFiles(join(root, area))) {
      const targets: string[] = []
      for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
        const specifier = match[3] ?? match[4]
        if (!specifier?.startsWith('.')) continue
        const target = resolveImport(file, specifier)
        if (target !== undefined) targets.push(target)
      }
      imports.set(file, targets)
    }
  }
  // Tarjan's algorithm, iterative so a deep tree cannot overflow the stack
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[] = []
  let counter = 0
  for (const start of imports.keys()) {
    if (index.has(start)) continue
    const work: Array<{ file: string; next: number }> = [{ file: start, next: 0 }]
    index.set(start, counter)
    lowLink.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = imports.get(frame.file) ?? []
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!index.has(target)) {
          index.set(target, counter)
          lowLink.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ file: target, next: 0 })
        } else if (onStack.has(target)) {
          lowLink.set(frame.file, Math.min(lowLink.get(frame.file)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) {
        lowLink.set(parent.file, Math.min(lowLink.get(parent.file)!, lowLink.get(frame.file)!))
      }
      if (lowLink.get(frame.file) !== index.get(frame.file)) continue
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== frame.file)
      const importsItself = imports.get(frame.file)?.includes(frame.file) ?? false
      if (component.length > 1 || importsItself) {
        const names = component.reverse().map((file) => relative(root, file).split(sep).join('/'))
        circles.push(`${names[0]}: import circle ${[...names, names[0]].join(' → ')}`)
      }
    }
  }
  return circles
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
