import { describe, expect, it } from 'vitest'
import { runServerProcessToExit } from './testing/server-process'

describe('serve.ts start-up', () => {
  it('stops on an invalid variable with a clear message and no stack trace', async () => {
    const result = await runServerProcessToExit({
      PORT: 'eighty',
      TOKEN_IDLE_MINUTES: '-5',
      DATA_DIR: '/nonexistent/never-created',
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Invalid configuration:')
    expect(result.stderr).toContain(
      "PORT: PORT must be a whole number from 0 to 65535 (got 'eighty')",
    )
    expect(result.stderr).toContain('TOKEN_IDLE_MINUTES')
    expect(result.stderr).toContain('docs/configuration.md')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })
})
