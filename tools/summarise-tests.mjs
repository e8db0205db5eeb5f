// Sums the vitest and Playwright JSON reports into the one closing line CI reads:
// "N passed, M failed" (", K skipped" when any). Exits non-zero when a report is missing or
// no test ran, so a run that tested nothing never looks green.
import { existsSync, readFileSync } from 'node:fs'

let passed = 0
let failed = 0
let skipped = 0
let missing = 0
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
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky
    failed += report.stats.unexpected
    skipped += report.stats.skipped
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(missing > 0 || failed > 0 || passed === 0 ? 1 : 0)
