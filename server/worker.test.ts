import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startScriptProcess } from './testing/server-process'
import { runOnPostgres } from './testing/test-app'

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined

// `npm run worker` needs the shared queue, which needs PostgreSQL
describe.skipIf(postgresUrl === undefined)('npm run worker', () => {
  it('starts as a job worker only (no sweep, no seeds, before any migration) and stops on SIGTERM', async () => {
    const schema = `worker_${randomBytes(6).toString('hex')}`
    const dataDir = await mkdtemp(join(tmpdir(), 'twinscape-worker-'))
    // an empty schema: no API process has migrated it yet
    await runOnPostgres(postgresUrl!, `create schema ${schema}`)
    try {
      const worker = await startScriptProcess(
        'server/worker.ts',
        {
          DATABASE_URL: postgresUrl!,
          DATABASE_SCHEMA: schema,
          DATA_DIR: dataDir,
          JOB_QUEUE: 'postgres',
          LOG_LEVEL: 'info',
        },
        /job worker running/,
      )
      worker.child.kill('SIGTERM')
      expect(await worker.exited).toBe(0)
      expect(worker.stdout()).toContain('shutting down: finishing running jobs')
      // the API processes seed and sweep: the worker wrote nothing of theirs
      expect(worker.stdout()).not.toMatch(/seeded|leftover files removed/)
      expect(await readdir(dataDir)).not.toContain('offline-packages')
    } finally {
      await runOnPostgres(postgresUrl!, `drop schema if exists ${schema} cascade`)
      await runOnPostgres(postgresUrl!, `drop schema if exists ${schema}_jobs cascade`)
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
