// Sums the vitest and Playwright JSON reports into the one closing line CI reads:
// "N passed, M failed" (", K skipped" when any). Exits non-zero when a report is missing or
// no test ran, so a run that tested nothing never looks green.
// Just above that line it names every failed test, every test that passed only on a retry and
// every unhandled error (from the `*.outcomes.json` beside a vitest report, written by
// tools/vitest-outcome-reporter.ts): CI shows only the tail of a run.
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
let missing = 0
const named = { failed: [], flaky: [], unhandled: [] }
// Playwright colours its messages (ESC [ … m); the tail of a run is read as plain text.
const terminalColours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.error(`missing test report: ${path}`)
    missing++
    continue
  }
  const report = JSON.parse(readFileSync(path, 'utf8'))
  if ('numPassedTests' in report) {
    passed += report.numPassedTests
    failed += report.numFailedTests
    skipped += report.numPendingTests + (report.numTodoTests ?? 0)
    nameVitestOutcomes(path, report)
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky
    failed += report.stats.unexpected
    skipped += report.stats.skipped
    namePlaywrightOutcomes(report)
  }
}

for (const [kind, lines] of Object.entries(named)) {
  if (lines.length === 0) continue
  console.log(`${kind} (${lines.length}):`)
  for (const line of [...new Set(lines)]) console.log(`  ${line}`)
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(missing > 0 || failed > 0 || passed === 0 ? 1 : 0)

function nameVitestOutcomes(path, report) {
  const outcomesPath = path.replace(/\.json$/, '.outcomes.json')
  const outcomes = existsSync(outcomesPath)
    ? JSON.parse(readFileSync(outcomesPath, 'utf8'))
    : { failed: [], flaky: [], unhandled: [] }
  for (const test of outcomes.flaky) named.flaky.push(`${test.file} › ${test.name}`)
  for (const message of outcomes.unhandled) named.unhandled.push(message)
  // The JSON report itself holds the failures (also when the reporter did not run).
  const root = process.cwd()
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue
      const error = String(test.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300)
      named.failed.push(`${file.name.replace(`${root}/`, '')} › ${test.fullName}: ${error}`)
    }
    // A file that failed before any test ran (an import error) has no failed test.
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      named.failed.push(
        `${file.name.replace(`${root}/`, '')}: ${String(file.message).split('\n')[0]}`,
      )
    }
  }
}

function namePlaywrightOutcomes(report) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const title = `${spec.file}:${spec.line} › ${spec.title}`
        if (test.status === 'unexpected') {
          const error = test.results?.at(-1)?.errors?.[0]?.message ?? ''
          const plain = error.replace(terminalColours, '').split('\n')[0].slice(0, 300)
          named.failed.push(`${title}: ${plain}`)
        } else if (test.status === 'flaky') {
          named.flaky.push(title)
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
}
