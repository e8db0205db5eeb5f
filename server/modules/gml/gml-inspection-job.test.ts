import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createJobQueue, type JobQueue } from '../jobs/job-queue'
import { gmlInspectionJob } from './gml-inspection-job'

const pnu = fileURLToPath(
  new URL(
    '../../../../shared/data/indoorgml/PNU-201_nav-demo_2019-05-24-corrected.gml',
    import.meta.url,
  ),
)
const options = { maxSizeBytes: 200 * 1024 * 1024 }

describe('gmlInspectionJob', () => {
  let jobs: JobQueue | undefined
  afterEach(async () => {
    await jobs?.close()
  })

  it('parses a large file in the queue’s CPU lane and reports the counts', async () => {
    jobs = createJobQueue({ slots: { cpu: 1 } })
    const job = jobs.submit(gmlInspectionJob, 'user-1', { filePath: pnu, options })
    expect(await job.result).toEqual({ stateCount: 80, transitionCount: 184 })
    expect(job.status()).toMatchObject({ kind: 'gml.inspect', state: 'succeeded' })
  })

  it('stops the thread when the job is cancelled', async () => {
    jobs = createJobQueue({ slots: { cpu: 1 } })
    const job = jobs.submit(gmlInspectionJob, 'user-1', { filePath: pnu, options })
    job.cancel()
    await expect(job.result).rejects.toBeDefined()
    expect(job.status().state).toBe('cancelled')
  })
})
