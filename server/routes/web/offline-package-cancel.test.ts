import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DownloadState, OfflinePackage } from '../../../contract/offline-package'
import type { Job } from '../../modules/jobs/job-queue'
import { holdJob } from '../../modules/jobs/testing/hold-job'
import {
  callApi,
  createTestApp,
  runOnPostgres,
  signIn,
  type TestApp,
  testAdmin,
} from '../../testing/test-app'
import { sbmFixtureFiles } from './building-test-kit'
import { createProject, postMultipart, signInNewUser } from './project-test-kit'

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : undefined

/** Polls until `check` holds (on PostgreSQL the queue's rows change on other connections' time). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await check()) return
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
  }
  throw new Error(`never happened: ${what}`)
}

/**
 * Cancelling an offline package build (issue 22 item 3): who may, what the page reads after it,
 * and that a fresh build runs afterwards. On PostgreSQL the build runs on the shared job queue
 * and the cancel is answered by a second API process that runs no jobs, so it can only reach
 * the build through the queue; on SQLite one process with its in-process queue does both.
 */
describe('cancelling an offline package build', () => {
  let testApp: TestApp
  /** The process that answers the cancel requests (the same one on SQLite). */
  let other: TestApp
  let owner: string
  let stranger: string
  let admin: string
  let projectId: string
  let strangersProjectId: string
  const held: Job<unknown>[] = []

  const call = <Datum>(on: TestApp, url: string, token: string, json: unknown) =>
    callApi<Datum>(on.app, { url, token, json })
  const state = async () => {
    const answer = await call<DownloadState>(testApp, '/web/bimBiz/checkSbkDownloadState', owner, {
      project_id: projectId,
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    return answer.envelope.datum
  }
  const build = async () => {
    // builds are ordered by their start: each starts a minute after the one before
    testApp.clock.advanceMs(60_000)
    const answer = await call<OfflinePackage>(testApp, '/web/bimBiz/buildSbkFile', owner, {
      project_id: projectId,
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    return answer.envelope.datum
  }
  const cancel = (json: unknown, token = owner) =>
    call<OfflinePackage>(other, '/web/bimBiz/cancelSbkBuild', token, json)
  const jobIdOf = async (packageId: string) =>
    (
      await testApp.app.deps.database.db
        .selectFrom('offline_packages')
        .select('job_id')
        .where('id', '=', packageId)
        .executeTakeFirstOrThrow()
    ).job_id

  beforeAll(async () => {
    const queue: Record<string, string> =
      postgresUrl === undefined ? {} : { JOB_QUEUE: 'postgres', JOB_CLAIM_SECONDS: '5' }
    testApp = await createTestApp({ env: queue })
    other =
      postgresUrl === undefined
        ? testApp
        : await createTestApp({ sharing: testApp, env: { ...queue, JOBS_IN_API: 'false' } })
    const { app } = testApp
    const suffix = randomBytes(3).toString('hex')
    owner = await signInNewUser(app, `cancel-owner-${suffix}`)
    stranger = await signInNewUser(app, `cancel-stranger-${suffix}`)
    admin = await signIn(app, testAdmin)
    projectId = (await createProject(app, owner, { kind: 'building', name: 'Cancelled tower' })).id
    strangersProjectId = (await createProject(app, stranger, { kind: 'building', name: 'Other' }))
      .id
    const upload = await postMultipart(app, '/web/upload/uploadZip', owner, [
      { name: 'project_id', value: projectId },
      { name: 'file', value: (await sbmFixtureFiles()).duck, fileName: 'duck.sbm' },
    ])
    expect(upload.envelope.code, upload.envelope.message).toBe('0')
    // both slots of the io lane held, so each build waits in the queue until they are let go
    const hold = holdJob()
    app.deps.jobs.register(hold)
    for (const tag of ['a', 'b']) {
      const job = app.deps.jobs.submit(hold, 'holder', { tag })
      // they end cancelled: that is how the tests let the lane go
      job.result.catch(() => {})
      held.push(job)
    }
    await until(() => held.every((job) => job.status().state === 'running'), 'the io lane is held')
  })
  afterAll(async () => {
    for (const job of held) job.cancel()
    if (other !== testApp) await other?.close()
    const schema =
      testApp?.config.database.kind === 'postgres' ? testApp.config.database.schema : undefined
    await testApp?.close()
    if (schema !== undefined)
      await runOnPostgres(postgresUrl!, `drop schema if exists ${schema}_jobs cascade`)
  })

  it('refuses other users, unknown builds and bad input', async () => {
    const building = await build()
    expect(building.state).toBe('building')
    // another user's project, or their own project with this build's id
    const foreign = await cancel({ project_id: projectId, package_id: building.id }, stranger)
    expect(foreign.statusCode).toBe(403)
    expect(foreign.envelope.messageId).toBe('project.foreign')
    const elsewhere = await cancel(
      { project_id: strangersProjectId, package_id: building.id },
      stranger,
    )
    expect(elsewhere.statusCode).toBe(404)
    expect(elsewhere.envelope.messageId).toBe('offlinePackage.notFound')
    const missing = await cancel({ project_id: projectId })
    expect(missing.statusCode).toBe(400)
    const unknown = await cancel({ project_id: projectId, package_id: 'no-such-build' })
    expect(unknown.statusCode).toBe(404)
    // none of that touched the build
    expect((await state()).package).toMatchObject({ id: building.id, state: 'building' })

    // the admin may, like the owner
    const byAdmin = await cancel({ project_id: projectId, package_id: building.id }, admin)
    expect(byAdmin.envelope.code, byAdmin.envelope.message).toBe('0')
    expect(byAdmin.envelope.datum).toMatchObject({
      id: building.id,
      state: 'failed',
      error_message_id: 'offlinePackage.cancelled',
      download_url: null,
    })
  })

  it("cancels the owner's waiting build from any process; a fresh build then runs to the end", async () => {
    const building = await build()
    const jobId = await jobIdOf(building.id)
    expect(jobId).not.toBeNull()
    const cancelled = await cancel({ project_id: projectId, package_id: building.id })
    expect(cancelled.envelope.code, cancelled.envelope.message).toBe('0')
    expect(cancelled.envelope.datum).toMatchObject({
      id: building.id,
      state: 'failed',
      error_message_id: 'offlinePackage.cancelled',
    })
    // what the download page reads, from the process that submitted the build
    expect((await state()).package).toMatchObject({
      id: building.id,
      state: 'failed',
      error_message_id: 'offlinePackage.cancelled',
    })
    // the queue was told: the job ends cancelled in the process that submitted it
    await until(
      () => testApp.app.deps.jobs.status(jobId!)?.state === 'cancelled',
      'the build job is cancelled',
    )
    // a second cancel finds nothing running
    const again = await cancel({ project_id: projectId, package_id: building.id })
    expect(again.statusCode).toBe(409)
    expect(again.envelope.messageId).toBe('offlinePackage.notBuilding')

    // a fresh build is a new one, not the cancelled one, and ends ready once the lane is free
    const fresh = await build()
    expect(fresh.id).not.toBe(building.id)
    expect(fresh.state).toBe('building')
    for (const job of held.splice(0)) job.cancel()
    await testApp.app.deps.services.offlinePackages.settle()
    expect((await state()).package).toMatchObject({ id: fresh.id, state: 'ready' })
    // the cancelled builds never wrote a file
    const folder = join(testApp.config.dataDir, 'offline-packages', projectId)
    expect(await readdir(folder)).toEqual([`${fresh.id}.zip`])
    // an ended build cannot be cancelled
    const ended = await cancel({ project_id: projectId, package_id: fresh.id })
    expect(ended.statusCode).toBe(409)
    expect(ended.envelope.messageId).toBe('offlinePackage.notBuilding')
  })
})
