import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { JobQueue } from '../job-queue'
import { createPgJobQueue, type PgJobQueueOptions } from '../pg-job-queue'

/**
 * What the shared queue's tests (PostgreSQL only) have in common: the database they may use,
 * a wait for rows other connections change, and queues on throwaway schemas that one call
 * closes and drops again. Test-only.
 */

/** `DATABASE_URL` when it names PostgreSQL; the shared queue's tests skip without it. */
export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined

/** Polls every 100 ms until `check` holds (rows and files change on other connections' time). */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  tries = 600,
): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (await check()) return
    await new Promise((resolveWait) => setTimeout(resolveWait, 100))
  }
  throw new Error(`never happened: ${what}`)
}

/** Queues the test opens on new schemas; `closeAll` (in `afterEach`) closes them, drops the schemas. */
export function pgTestQueues(schemaSuffix: string) {
  const queues: JobQueue[] = []
  const schemas: string[] = []
  return {
    newSchema(): string {
      const schema = `test_${randomBytes(6).toString('hex')}_${schemaSuffix}`
      schemas.push(schema)
      return schema
    },
    /** A queue on `schema` that polls and claims quickly; `runsJobs` false is an API process. */
    open(
      schema: string,
      runsJobs: boolean,
      options: Partial<Pick<PgJobQueueOptions, 'bytes'>> = {},
    ): JobQueue {
      const queue = createPgJobQueue({
        connectionString: postgresUrl!,
        schema,
        runsJobs,
        pollMs: 100,
        claimMs: 2_000,
        onError: (error) => console.error(error),
        ...options,
      })
      queues.push(queue)
      return queue
    },
    async closeAll(): Promise<void> {
      await Promise.all(queues.splice(0).map((queue) => queue.close()))
      const client = new pg.Client({ connectionString: postgresUrl })
      await client.connect()
      try {
        for (const schema of schemas.splice(0))
          await client.query(`drop schema if exists ${schema} cascade`)
      } finally {
        await client.end()
      }
    },
  }
}
