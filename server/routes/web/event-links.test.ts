import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AreaDraw } from '../../../contract/draw'
import { type EventLink, eventLinkRoutes } from '../../../contract/event-links'
import type { PoiDetail } from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import { callApi, createTestApp, signIn, type TestApp, testEditor } from '../../testing/test-app'
import { createProject, signInNewUser } from './project-test-kit'
import {
  type Answer,
  type Caller,
  expectRefused,
  libraryCamera,
  okPoi,
  projectTokenOf,
} from './pois-test-kit'

/**
 * Event linkage (issue 17 item 6, contract/event-links.ts) on a real database: links of a
 * source POI's event to target POIs and areas with the SPEC §8 refusals ('Already linked.',
 * 'Unable to link parent POI.' for itself and for cycles), the §9 depth, and the access matrix.
 */

let test: TestApp
let owner: Caller
let other: Caller
let guest: Caller
let shareToken: string
let city: Project
let theirs: Project
let area: AreaDraw
let p: Record<'sensor' | 'camera' | 'c' | 'd' | 'e' | 'theirs', PoiDetail>

type Name = keyof typeof eventLinkRoutes

async function call<Datum>(caller: Caller, name: Name, body: unknown): Promise<Answer<Datum>> {
  return (await callApi<Datum>(test.app, {
    url: eventLinkRoutes[name].path,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
    ...(caller !== undefined && 'projectToken' in caller
      ? { headers: { projecttoken: caller.projectToken } }
      : {}),
  })) as Answer<Datum>
}

async function ok<Datum>(caller: Caller, name: Name, body: unknown): Promise<Datum> {
  const answer = await call<Datum>(caller, name, body)
  if (answer.envelope.code !== '0') {
    throw new Error(`${name}: ${answer.statusCode} ${answer.envelope.message}`)
  }
  return answer.envelope.datum
}

const link = (source: PoiDetail, target: PoiDetail, event = 'alarm') => ({
  source: source.id,
  event,
  target_kind: 'poi',
  target: target.id,
})

beforeAll(async () => {
  test = await createTestApp()
  const ownerToken = await signIn(test.app, testEditor)
  const otherToken = await signInNewUser(test.app, 'links-other-editor')
  owner = { token: ownerToken }
  other = { token: otherToken }
  guest = { token: await signInNewUser(test.app, 'links-guest', 'guest') }
  city = await createProject(test.app, ownerToken, { name: 'Linked city', kind: 'city' })
  theirs = await createProject(test.app, otherToken, { name: 'Their linked city' })
  const camera = await libraryCamera(test.app, ownerToken)
  const make = (caller: Caller, project: Project, name: string) =>
    okPoi<PoiDetail>(test.app, caller, 'creatPoi', {
      projectid: project.id,
      name,
      category_id: camera.id,
      x: 121.5,
      y: 31.2,
      devicecode: '',
    })
  p = {
    sensor: await make(owner, city, 'Smoke sensor'),
    camera: await make(owner, city, 'Hall camera'),
    c: await make(owner, city, 'C'),
    d: await make(owner, city, 'D'),
    e: await make(owner, city, 'E'),
    theirs: await make(other, theirs, 'Their camera'),
  }
  const drawn = await callApi<AreaDraw>(test.app, {
    url: '/web/areadraw/add',
    token: ownerToken,
    json: {
      project_id: city.id,
      name: 'Hall area',
      type: 4,
      points: [
        [121.5, 31.2],
        [121.501, 31.2],
        [121.501, 31.201],
        [121.5, 31.201],
      ],
    },
  })
  if (drawn.envelope.code !== '0') throw new Error(drawn.envelope.message)
  area = drawn.envelope.datum
  shareToken = await projectTokenOf(test.app, ownerToken, city)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('event links', () => {
  it("links a sensor's alarm to a camera and an area, answered as linkage records with names", async () => {
    const toCamera = await ok<EventLink>(owner, 'addEventLink', link(p.sensor, p.camera))
    expect(toCamera).toMatchObject({
      projectid: city.id,
      source: p.sensor.id,
      source_name: 'Smoke sensor',
      event: 'alarm',
      target_kind: 'poi',
      target: p.camera.id,
      target_name: 'Hall camera',
    })
    const toArea = await ok<EventLink>(owner, 'addEventLink', {
      source: p.sensor.id,
      event: 'alarm',
      target_kind: 'area',
      target: area.id,
    })
    expect(toArea).toMatchObject({ target_kind: 'area', target: area.id, target_name: 'Hall area' })
    const found = await ok<EventLink[]>(owner, 'findEventLinks', { source: p.sensor.id })
    expect(found.map((record) => record.target_name).sort()).toEqual(['Hall area', 'Hall camera'])
    expect(
      await ok<EventLink[]>(owner, 'findEventLinks', { source: p.sensor.id, event: 'fault' }),
    ).toEqual([])
    // a share-link holder reads them (the preview reacts to alarms too)
    const shared = await ok<EventLink[]>({ projectToken: shareToken }, 'findAllEventLinks', {
      projectid: city.id,
    })
    expect(shared).toHaveLength(2)
  })

  it('refuses the same link twice, a POI linked to itself, and a link closing a cycle', async () => {
    expectRefused(
      await call(owner, 'addEventLink', link(p.sensor, p.camera)),
      409,
      'poi.alreadyLinked',
    )
    expectRefused(
      await call(owner, 'addEventLink', link(p.sensor, p.sensor)),
      400,
      'poi.parentCycle',
    )
    // the same pair with another event is another link
    await ok(owner, 'addEventLink', link(p.sensor, p.camera, 'fault'))
    // camera → c, then c → sensor would close sensor → camera → c → sensor
    await ok(owner, 'addEventLink', link(p.camera, p.c))
    expectRefused(await call(owner, 'addEventLink', link(p.c, p.sensor)), 400, 'poi.parentCycle')
    expectRefused(
      await call(owner, 'addEventLink', link(p.c, p.camera, 'link')),
      400,
      'poi.parentCycle',
    )
  })

  it('keeps a chain at most four POIs deep (SPEC §9)', async () => {
    // sensor → camera → c → d is four POIs; d → e would make five
    await ok(owner, 'addEventLink', link(p.c, p.d))
    expectRefused(await call(owner, 'addEventLink', link(p.d, p.e)), 400, 'eventLink.tooDeep')
    // e → sensor would make e the head of a five-POI chain
    expectRefused(await call(owner, 'addEventLink', link(p.e, p.sensor)), 400, 'eventLink.tooDeep')
    // a short side branch is fine
    await ok(owner, 'addEventLink', link(p.camera, p.e))
  })

  it('refuses targets of another project, unknown ids and bad input, and writes nothing', async () => {
    const before = (await ok<EventLink[]>(owner, 'findAllEventLinks', { projectid: city.id }))
      .length
    expectRefused(
      await call(owner, 'addEventLink', link(p.sensor, p.theirs)),
      404,
      'eventLink.targetNotFound',
    )
    expectRefused(
      await call(owner, 'addEventLink', {
        ...link(p.sensor, p.camera),
        target_kind: 'area',
        target: 'nope',
      }),
      404,
      'eventLink.targetNotFound',
    )
    expectRefused(
      await call(owner, 'addEventLink', { ...link(p.sensor, p.camera), event: 'party' }),
      400,
    )
    expectRefused(
      await call(owner, 'addEventLink', { ...link(p.sensor, p.camera), source: 'nope' }),
      404,
      'poi.notFound',
    )
    expect(await ok<EventLink[]>(owner, 'findAllEventLinks', { projectid: city.id })).toHaveLength(
      before,
    )
  })

  it('lets only editors of the project change links, and only its readers read them', async () => {
    const [first] = await ok<EventLink[]>(owner, 'findEventLinks', { source: p.sensor.id })
    expectRefused(await call(other, 'addEventLink', link(p.camera, p.d)), 404, 'poi.notFound')
    expectRefused(await call(guest, 'addEventLink', link(p.camera, p.d)), 403)
    expectRefused(await call(undefined, 'addEventLink', link(p.camera, p.d)), 401)
    expectRefused(
      await call({ projectToken: shareToken }, 'addEventLink', link(p.camera, p.d)),
      401,
    )
    expectRefused(
      await call(other, 'deleteEventLink', { id: first!.id }),
      404,
      'eventLink.notFound',
    )
    expectRefused(await call(other, 'findEventLinks', { source: p.sensor.id }), 404, 'poi.notFound')
    expectRefused(await call(other, 'findAllEventLinks', { projectid: city.id }), 403)
    expectRefused(await call(undefined, 'findAllEventLinks', { projectid: city.id }), 401)
    expect(await ok(owner, 'deleteEventLink', { id: first!.id })).toEqual({ deleted: 1 })
    expectRefused(
      await call(owner, 'deleteEventLink', { id: first!.id }),
      404,
      'eventLink.notFound',
    )
  })

  it('drops the links of a deleted POI from the answers', async () => {
    await okPoi(test.app, owner, 'deletePoiList', { ids: [p.e.id] })
    const all = await ok<EventLink[]>(owner, 'findAllEventLinks', { projectid: city.id })
    expect(all.some((record) => record.target === p.e.id || record.source === p.e.id)).toBe(false)
  })
})
