import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UploadJpgDatum } from '../../../contract/files'
import {
  type Investigation,
  type InvestigationCallName,
  type InvestigationPage,
  investigationLimits,
  investigationRoutes,
} from '../../../contract/investigations'
import { type Alarm, iotRoutes } from '../../../contract/iot'
import type { PoiDetail } from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { createProject, postMultipart, sampleFiles, signInNewUser } from './project-test-kit'
import {
  type Answer,
  type Caller,
  expectRefused,
  libraryCamera,
  okPoi,
  projectTokenOf,
} from './pois-test-kit'

/**
 * Inspections (issue 17 item 7, contract/investigations.ts) on a real database: records against
 * an alarm or a POI with who, when, findings, state and photos from the shared image upload;
 * listed with the alarm and with the POI; photos released when a record drops them or goes;
 * refusals that write nothing; and the access matrix (owner, another editor, a guest, nobody,
 * an admin, a project-token holder).
 */

let test: TestApp
let owner: { token: string }
let other: { token: string }
let guest: Caller
let admin: Caller
let shareToken: string
let city: Project
let theirs: Project
let sensor: PoiDetail
let hall: PoiDetail
let alarm: Alarm
let jpeg: Buffer

async function call<Datum>(
  caller: Caller,
  name: InvestigationCallName,
  body: unknown,
): Promise<Answer<Datum>> {
  return (await callApi<Datum>(test.app, {
    url: investigationRoutes[name].path,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
    ...(caller !== undefined && 'projectToken' in caller
      ? { headers: { projecttoken: caller.projectToken } }
      : {}),
  })) as Answer<Datum>
}

async function ok<Datum>(
  caller: Caller,
  name: InvestigationCallName,
  body: unknown,
): Promise<Datum> {
  const answer = await call<Datum>(caller, name, body)
  if (answer.envelope.code !== '0') {
    throw new Error(`${name}: ${answer.statusCode} ${answer.envelope.message}`)
  }
  return answer.envelope.datum
}

/** A photo uploaded as the shared image upload does it, for a project (or for none). */
async function photo(caller: { token: string }, project?: Project): Promise<UploadJpgDatum> {
  const answer = await postMultipart<UploadJpgDatum>(
    test.app,
    '/web/upload/uploadJpg',
    caller.token,
    [
      ...(project === undefined ? [] : [{ name: 'project_id', value: project.id }]),
      { name: 'file', value: jpeg, fileName: 'site.jpg', contentType: 'image/jpeg' },
    ],
  )
  if (answer.envelope.code !== '0') throw new Error(`upload failed: ${answer.envelope.message}`)
  return answer.envelope.datum
}

/** The HTTP status of a served file. */
async function served(url: string): Promise<number> {
  return (await test.app.inject({ method: 'GET', url })).statusCode
}

async function recordCount(): Promise<number> {
  const row = await test.app.deps.database.db
    .selectFrom('investigations')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

const hourAgo = () => new Date(test.clock.nowMs() - 3_600_000).toISOString()

beforeAll(async () => {
  test = await createTestApp()
  owner = { token: await signIn(test.app, testEditor) }
  other = { token: await signInNewUser(test.app, 'inspections-other-editor') }
  guest = { token: await signInNewUser(test.app, 'inspections-guest', 'guest') }
  admin = { token: await signIn(test.app, testAdmin) }
  jpeg = (await sampleFiles()).jpeg
  city = await createProject(test.app, owner.token, { name: 'Inspected city' })
  theirs = await createProject(test.app, other.token, { name: 'Their inspected city' })
  const camera = await libraryCamera(test.app, owner.token)
  const make = (name: string, devicecode: string) =>
    okPoi<PoiDetail>(test.app, owner, 'creatPoi', {
      projectid: city.id,
      name,
      category_id: camera.id,
      x: 121.5,
      y: 31.2,
      devicecode,
    })
  sensor = await make('Smoke sensor', 'S-SMOKE')
  hall = await make('Hall door', '')
  const provisioned = await callApi(test.app, {
    url: iotRoutes.provisionDevice.path,
    token: owner.token,
    json: { poi_id: sensor.id },
  })
  if (provisioned.envelope.code !== '0') throw new Error(provisioned.envelope.message)
  const raised = await callApi<Alarm>(test.app, {
    url: iotRoutes.addAlarm.path,
    token: owner.token,
    json: { poi_id: sensor.id, code: 3 },
  })
  if (raised.envelope.code !== '0') throw new Error(raised.envelope.message)
  alarm = raised.envelope.datum
  shareToken = await projectTokenOf(test.app, owner.token, city)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('inspection records', () => {
  let first: Investigation

  it('records an inspection of an alarm: who, when, findings, state and photos, listed with the alarm and its POI', async () => {
    const [front, back] = [await photo(owner, city), await photo(owner, city)]
    const inspectedAt = hourAgo()
    first = await ok<Investigation>(owner, 'addInvestigation', {
      alarm_id: alarm.id,
      inspector: 'Kim Min-jun',
      inspected_at: inspectedAt,
      findings: 'Smoke from a burnt toaster in the pantry; detector cleaned.',
      state: 'in_progress',
      photos: [front.uuid, back.uuid],
    })
    expect(first).toMatchObject({
      projectid: city.id,
      alarm_id: alarm.id,
      poi_id: sensor.id,
      devicecode: 'S-SMOKE',
      inspector: 'Kim Min-jun',
      inspected_at: inspectedAt,
      findings: 'Smoke from a burnt toaster in the pantry; detector cleaned.',
      state: 'in_progress',
      created_by: testEditor.name,
      updated_by: testEditor.name,
    })
    expect(first.photos.map((shown) => shown.id)).toEqual([front.uuid, back.uuid])
    expect(first.photos[0]?.url).toBe(`/web/files/${front.jpgName}`)
    for (const shown of first.photos) {
      expect(await served(shown.url)).toBe(200)
      expect(await served(shown.thumbnail_url)).toBe(200)
    }
    const ofAlarm = await ok<InvestigationPage>(owner, 'findInvestigations', {
      projectid: city.id,
      alarm_id: alarm.id,
    })
    expect(ofAlarm.total).toBe(1)
    expect(ofAlarm.list[0]?.id).toBe(first.id)
    const ofPoi = await ok<InvestigationPage>(owner, 'findInvestigations', {
      projectid: city.id,
      poi_id: sensor.id,
    })
    expect(ofPoi.list.map((record) => record.id)).toEqual([first.id])
    // a share-link holder reads them (the preview lists alarms too)
    const shared = await ok<InvestigationPage>({ projectToken: shareToken }, 'findInvestigations', {
      projectid: city.id,
    })
    expect(shared.list.map((record) => record.id)).toEqual([first.id])
  })

  it('records an inspection of a POI without an alarm: the inspector is the caller, the time now, the state open', async () => {
    const record = await ok<Investigation>(owner, 'addInvestigation', {
      poi_id: hall.id,
      findings: 'Door closer loose.',
    })
    expect(record).toMatchObject({
      alarm_id: '',
      poi_id: hall.id,
      devicecode: '',
      inspector: testEditor.name,
      inspected_at: new Date(test.clock.nowMs()).toISOString(),
      state: 'open',
      photos: [],
    })
    const page = await ok<InvestigationPage>(owner, 'findInvestigations', {
      projectid: city.id,
      state: 'open',
    })
    expect(page.list.map((found) => found.id)).toEqual([record.id])
    const all = await ok<InvestigationPage>(owner, 'findInvestigations', { projectid: city.id })
    // newest inspection first
    expect(all.list.map((found) => found.id)).toEqual([record.id, first.id])
    await ok(owner, 'deleteInvestigation', { id: record.id })
  })

  it('changes a record and its photos; a photo it drops is released', async () => {
    const [kept, dropped] = first.photos
    const added = await photo(owner, city)
    test.clock.advanceMs(60_000)
    const changed = await ok<Investigation>(owner, 'updateInvestigation', {
      id: first.id,
      state: 'resolved',
      findings: 'Detector cleaned and tested; alarm cause removed.',
      photos: [added.uuid, kept!.id],
    })
    expect(changed).toMatchObject({
      state: 'resolved',
      findings: 'Detector cleaned and tested; alarm cause removed.',
      inspector: 'Kim Min-jun',
      inspected_at: first.inspected_at,
      updated_at: new Date(test.clock.nowMs()).toISOString(),
    })
    expect(changed.photos.map((shown) => shown.id)).toEqual([added.uuid, kept!.id])
    expect(await served(dropped!.url)).toBe(404)
    expect(await served(kept!.url)).toBe(200)
    // the admin may change it without re-uploading the owner's photos
    const reopened = await ok<Investigation>(admin, 'updateInvestigation', {
      id: first.id,
      state: 'open',
      photos: [kept!.id, added.uuid],
    })
    expect(reopened).toMatchObject({ state: 'open', updated_by: testAdmin.name })
    first = reopened
  })

  it('refuses bad input with its field and writes nothing', async () => {
    const before = await recordCount()
    const mine = await photo(owner, city)
    const unattached = await photo(owner)
    const foreign = await photo(other, theirs)
    expectRefused(
      await call(owner, 'addInvestigation', { findings: 'Nothing named' }),
      400,
      'investigation.nameTheSubject',
    )
    expectRefused(
      await call(owner, 'addInvestigation', { alarm_id: 'no-such-alarm' }),
      404,
      'alarm.notFound',
    )
    expectRefused(
      await call(owner, 'addInvestigation', { poi_id: 'no-such-poi' }),
      404,
      'poi.notFound',
    )
    expectRefused(
      await call(owner, 'addInvestigation', { alarm_id: alarm.id, poi_id: hall.id }),
      400,
      'investigation.poiNotOfAlarm',
    )
    expectRefused(
      await call(owner, 'addInvestigation', {
        alarm_id: alarm.id,
        inspected_at: new Date(test.clock.nowMs() + 3_600_000).toISOString(),
      }),
      400,
      'investigation.inFuture',
    )
    expectRefused(
      await call(owner, 'addInvestigation', { alarm_id: alarm.id, inspected_at: 'yesterday' }),
      400,
    )
    expectRefused(await call(owner, 'addInvestigation', { alarm_id: alarm.id, state: 'done' }), 400)
    expectRefused(
      await call(owner, 'addInvestigation', {
        alarm_id: alarm.id,
        findings: 'x'.repeat(investigationLimits.findingsMaxLength + 1),
      }),
      400,
    )
    expectRefused(
      await call(owner, 'addInvestigation', {
        alarm_id: alarm.id,
        photos: Array.from({ length: investigationLimits.maxPhotos + 1 }, () => mine.uuid),
      }),
      400,
    )
    expectRefused(
      await call(owner, 'addInvestigation', { alarm_id: alarm.id, photos: [mine.uuid, mine.uuid] }),
      400,
      'investigation.duplicatePhoto',
    )
    for (const refused of [unattached, foreign]) {
      expectRefused(
        await call(owner, 'addInvestigation', { alarm_id: alarm.id, photos: [refused.uuid] }),
        404,
        'investigation.photoNotFound',
      )
    }
    expectRefused(
      await call(owner, 'updateInvestigation', { id: first.id, photos: [foreign.uuid] }),
      404,
      'investigation.photoNotFound',
    )
    expectRefused(
      await call(owner, 'updateInvestigation', { id: 'no-such-record', state: 'open' }),
      404,
      'investigation.notFound',
    )
    expect(await recordCount()).toBe(before)
    const unchanged = await ok<InvestigationPage>(owner, 'findInvestigations', {
      projectid: city.id,
      alarm_id: alarm.id,
    })
    expect(unchanged.list[0]?.photos.map((shown) => shown.id)).toEqual(
      first.photos.map((shown) => shown.id),
    )
  })

  it('lets only editors of the project write records, and only its readers read them', async () => {
    const before = await recordCount()
    const body = { alarm_id: alarm.id, findings: 'Not mine to write' }
    expectRefused(await call(other, 'addInvestigation', body), 404, 'alarm.notFound')
    expectRefused(await call(other, 'addInvestigation', { poi_id: hall.id }), 404, 'poi.notFound')
    expectRefused(await call(guest, 'addInvestigation', body), 403)
    expectRefused(await call(undefined, 'addInvestigation', body), 401)
    expectRefused(await call({ projectToken: shareToken }, 'addInvestigation', body), 401)
    expectRefused(
      await call(other, 'updateInvestigation', { id: first.id, state: 'resolved' }),
      404,
      'investigation.notFound',
    )
    expectRefused(
      await call(guest, 'updateInvestigation', { id: first.id, state: 'resolved' }),
      403,
    )
    expectRefused(
      await call(other, 'deleteInvestigation', { id: first.id }),
      404,
      'investigation.notFound',
    )
    expectRefused(await call(undefined, 'deleteInvestigation', { id: first.id }), 401)
    expectRefused(await call(other, 'findInvestigations', { projectid: city.id }), 403)
    expectRefused(await call(undefined, 'findInvestigations', { projectid: city.id }), 401)
    expect(await recordCount()).toBe(before)
    const found = await ok<InvestigationPage>(admin, 'findInvestigations', { projectid: city.id })
    expect(found.list.map((record) => record.id)).toContain(first.id)
  })

  it('deletes a record with its photos, and the records of a deleted project', async () => {
    const photos = first.photos
    expect(await ok(owner, 'deleteInvestigation', { id: first.id })).toEqual({ deleted: 1 })
    for (const shown of photos) expect(await served(shown.url)).toBe(404)
    expectRefused(
      await call(owner, 'deleteInvestigation', { id: first.id }),
      404,
      'investigation.notFound',
    )
    const picture = await photo(owner, city)
    const last = await ok<Investigation>(owner, 'addInvestigation', {
      alarm_id: alarm.id,
      photos: [picture.uuid],
    })
    const deleted = await callApi(test.app, {
      url: '/web/project/deleteProject',
      token: owner.token,
      json: { id: city.id },
    })
    expect(deleted.envelope.code).toBe('0')
    expect(await recordCount()).toBe(0)
    expect(await served(last.photos[0]!.url)).toBe(404)
  })
})
