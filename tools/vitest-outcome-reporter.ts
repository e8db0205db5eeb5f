/**
 * A vitest reporter that writes what CI's closing lines must name and the JSON report does not
 * hold: the tests that passed only on a retry (flaky), the failed ones with their first error
 * line, and unhandled errors. `tools/summarise-tests.mjs` prints them just before the closing
 * count, so the tail of a red run says which test failed. The file is `VITEST_OUTCOMES`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Reporter, TestCase, TestModule } from 'vitest/node'

interface Outcome {
  file: string
  name: string
  error?: string
}

export default class OutcomeReporter implements Reporter {
  private readonly failed: Outcome[] = []
  private readonly flaky: Outcome[] = []

  onTestCaseResult(testCase: TestCase): void {
    const outcome = { file: testCase.module.relativeModuleId, name: testCase.fullName }
    const result = testCase.result()
    if (result.state === 'failed') {
      this.failed.push({ ...outcome, error: firstLine(result.errors?.[0]?.message) })
    } else if (testCase.diagnostic()?.flaky) {
      this.flaky.push(outcome)
    }
  }

  onTestRunEnd(
    _modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<{ message?: string; name?: string }>,
  ): void {
    const path = process.env.VITEST_OUTCOMES
    if (!path) return
    mkdirSync(dirname(path), { recursive: true })
    const unhandled = unhandledErrors.map((error) => firstLine(error.message ?? error.name))
    writeFileSync(
      path,
      JSON.stringify({ failed: this.failed, flaky: this.flaky, unhandled }, null, 2),
    )
  }
}

function firstLine(message: string | undefined): string {
  return (message ?? '').split('\n')[0]!.slice(0, 300)
}
