/**
 * A job worker as its own process, for the queue's fault test: it runs `test.hold` jobs of the
 * shared queue in JOB_SCHEMA, says `running <job id>` on stdout when one starts, and holds it
 * until stopped (the test kills it with SIGKILL mid-job).
 */
import { createPgJobQueue } from '../pg-job-queue'
import { holdJob } from './hold-job'

const queue = createPgJobQueue({
  connectionString: process.env.DATABASE_URL!,
  schema: process.env.JOB_SCHEMA!,
  runsJobs: true,
  pollMs: 100,
  claimMs: 2_000,
})
queue.register(
  holdJob((jobId) => {
    process.stdout.write(`running ${jobId}\n`)
  }),
)
process.stdout.write('ready\n')
