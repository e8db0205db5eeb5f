import { z } from 'zod'

/**
 * Where background jobs run (docs/deploy.md "Job workers"): in the process that submits them
 * (`local`, the default, and the only choice on SQLite), or on a queue kept in PostgreSQL that
 * every API process and `npm run worker` process shares, so conversions, tileset ingests and
 * offline-package builds run on whichever worker is free, on any machine.
 */
export type JobQueueSettings =
  | { kind: 'local' }
  | {
      kind: 'postgres'
      /** The PostgreSQL schema the queue's tables live in (pg-boss makes them). */
      schema: string
      /** Whether this process runs shared jobs (worker processes always do). */
      runsJobsHere: boolean
      /** How long a dead worker's job stays claimed before another worker runs it again. */
      claimMs: number
    }

/** The environment variables of these settings, merged into server/config.ts's schema. */
export const jobQueueEnvironmentShape = {
  JOB_QUEUE: z
    .enum(['local', 'postgres'], { error: 'JOB_QUEUE must be local or postgres' })
    .default('local'),
  JOB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'JOB_SCHEMA must be a lower-case PostgreSQL schema name')
    .optional(),
  JOBS_IN_API: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'JOBS_IN_API must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .default(true),
  JOB_CLAIM_SECONDS: z
    .string()
    .regex(/^\d+$/, 'JOB_CLAIM_SECONDS must be a whole number from 5 to 3600')
    .transform(Number)
    .refine((value) => value >= 5 && value <= 3600, 'JOB_CLAIM_SECONDS must be from 5 to 3600')
    .default(30),
}

const jobQueueEnvironmentSchema = z.object(jobQueueEnvironmentShape)

/**
 * The settings from parsed variables, or the reason they cannot be used: the shared queue
 * needs PostgreSQL (`DATABASE_URL`).
 */
export function jobQueueSettingsOf(
  values: z.output<typeof jobQueueEnvironmentSchema> & {
    DATABASE_URL?: string | undefined
    DATABASE_SCHEMA?: string | undefined
  },
): JobQueueSettings | { problem: string } {
  if (values.JOB_QUEUE === 'local') return { kind: 'local' }
  if (values.DATABASE_URL === undefined) {
    return { problem: 'JOB_QUEUE: postgres needs a postgres:// DATABASE_URL' }
  }
  return {
    kind: 'postgres',
    schema:
      values.JOB_SCHEMA ??
      (values.DATABASE_SCHEMA === undefined ? 'twinscape_jobs' : `${values.DATABASE_SCHEMA}_jobs`),
    runsJobsHere: values.JOBS_IN_API,
    claimMs: values.JOB_CLAIM_SECONDS * 1000,
  }
}
