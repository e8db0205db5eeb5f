import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AreaDraw } from '../../../contract/draw'
import type { LiveEvent } from '../../../contract/iot-live'
import type { Project } from '../../../contract/project'
import type { Category } from '../../../contract/templates'
import type { TrackedObject } from '../../../contract/tracking'
import { callApi, type TestApp } from '../../testing/test-app'
import { expectOwnerOnlyAccess } from './access-matrix-kit'
import { createProject, signInNewUser } from './project-test-kit'
import { inside, openTrackingTestApp, square, type TrackingTestApp } from './tracking-test-kit'

/**
 * Location POIs (SPEC §7 `creatLocationPoi`, `selLocationPoi`, `delLocationPoi`; issue 18): the
 * positioned objects of a city or a building project, filed under the location category tree
 * and found by category or coding; and what their reports put on the project's live stream.
 */

describe('location POIs: /poi/creatLocationPoi|selLocationPoi|delLocationPoi', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let project: Project
  let guards: Category
  let night: Category
  let call: TrackingTestApp['call']
  let add: TrackingTestApp['addLocationPoi']
  let report: TrackingTestApp['report']

  const select = async (json: Record<string, unknown> = {}) =>
    (await call<TrackedObject[]>('/web/poi/selLocationPoi', { project_id: project.id, ...json }))
      .envelope.datum
  const category = async (name: string, pid: string, as = token) =>
    (await call<Category>('/web/poi/creatPoiCategory', { category_name: name, pid }, as)).envelope
      .datum

  beforeAll(async () => {
    ;({
      test,
      app,
      token,
      project,
      call,
      addLocationPoi: add,
      report,
    } = await openTrackingTestApp())
    // pid '0' makes a category of the location tree
    guards = await category('Guards', '0')
    night = await category('Night shift', guards.id)
  })
  afterAll(async () => {
    await test.close()
  })

  it('files location POIs under a location category and finds them by category (and below) or coding', async () => {
    const guard = await add({ name: 'Guard 1', category_id: night.id, coding: 'G-1' })
    expect(guard.envelope.code, guard.envelope.message).toBe('0')
    // the category's name stands for the free text left empty
    expect(guard.envelope.datum.object).toMatchObject({
      name: 'Guard 1',
      category: 'Night shift',
      category_id: night.id,
      coding: 'G-1',
      last_position: null,
    })
    const van = await callApi<{ object: TrackedObject }>(app, {
      url: '/web/poi/creatLocationPoi',
      token,
      form: { project_id: project.id, name: 'Van', category: 'vehicle', coding: 'V-1' },
    })
    expect(van.envelope.datum.object).toMatchObject({ category: 'vehicle', category_id: '' })

    // (both were made at the same test-clock time: their order is the ids')
    expect((await select()).map((object) => object.name).sort()).toEqual(['Guard 1', 'Van'])
    expect((await select({ category_id: guards.id })).map((object) => object.name)).toEqual([
      'Guard 1',
    ])
    expect((await select({ category_id: night.id })).map((object) => object.name)).toEqual([
      'Guard 1',
    ])
    expect((await select({ coding: 'V-1' })).map((object) => object.name)).toEqual(['Van'])
    expect(await select({ coding: 'nobody' })).toEqual([])

    const removed = await call('/web/poi/delLocationPoi', { id: guard.envelope.datum.object.id })
    expect(removed.envelope.code).toBe('0')
    expect((await select()).map((object) => object.name)).toEqual(['Van'])
  })

  it('refuses a category outside the location tree and a taken coding; writes nothing', async () => {
    const before = (await select()).length
    const stranger = await signInNewUser(app, 'outsider-location-poi')
    const theirs = await category('Their guards', '0', stranger)
    for (const categoryId of ['1', '2', theirs.id, '00000000-0000-4000-8000-000000000000']) {
      const answer = await add({ name: 'x', category_id: categoryId })
      expect(answer.statusCode, categoryId).toBe(400)
      expect(answer.envelope).toMatchObject({ messageId: 'tracking.categoryNotLocation' })
    }
    await add({ name: 'First', coding: 'C-7' })
    const taken = await add({ name: 'Second', coding: 'C-7' })
    expect(taken.statusCode).toBe(409)
    expect(taken.envelope).toMatchObject({ messageId: 'tracking.codingTaken' })
    expect(taken.envelope.message).toContain('C-7')
    // an empty coding is no coding: any number of objects may leave it out
    expect((await add({ name: 'No code 1' })).envelope.code).toBe('0')
    expect((await add({ name: 'No code 2' })).envelope.code).toBe('0')
    expect((await add({ name: '' })).statusCode).toBe(400)
    expect((await add({ name: 'x', coding: 'c'.repeat(101) })).statusCode).toBe(400)
    expect((await select()).map((object) => object.name)).toEqual(
      expect.arrayContaining(['First', 'No code 1', 'No code 2']),
    )
    expect((await select()).length).toBe(before + 3)
  })

  it('puts positions, fence crossings and fence changes on the live stream after they are saved', async () => {
    const frames: LiveEvent[] = []
    const subscription = app.deps.services.live.subscribe(project.id, undefined, {
      write: (text) => {
        for (const line of text.split('\n'))
          if (line.startsWith('data: ')) frames.push(JSON.parse(line.slice(6)) as LiveEvent)
        return true
      },
      onDrain: () => {},
    })
    try {
      const yard = (
        await call<AreaDraw>('/web/areadraw/add', {
          project_id: project.id,
          name: 'Yard',
          type: 4,
          points: square,
        })
      ).envelope.datum
      await call('/web/fence/set', { draw_id: yard.id, is_fence: true })
      expect(frames.at(-1)).toEqual({ type: 'fences', draw_ids: [yard.id] })

      const walker = (await add({ name: 'Walker', category_id: guards.id })).envelope.datum
      expect(frames.at(-1)).toMatchObject({
        type: 'positioned',
        object: { id: walker.object.id, name: 'Walker', last_position: null },
      })
      const reported = await report(walker.token, { ...inside, heading: 45 })
      expect(reported.statusCode).toBe(200)
      const [moved, entered] = frames.slice(-2)
      expect(moved).toMatchObject({
        type: 'positioned',
        object: {
          id: walker.object.id,
          last_position: { ...inside, heading: 45 },
          inside_fence_ids: [yard.id],
        },
      })
      expect(entered).toMatchObject({
        type: 'fenceEvent',
        event: { fence_id: yard.id, object_id: walker.object.id, kind: 'enter', ...inside },
      })
      // the event on the stream is the saved one
      const saved = await call<{ id: string }[]>('/web/fence/events', { project_id: project.id })
      expect(saved.envelope.datum[0]!.id).toBe(
        (entered as Extract<LiveEvent, { type: 'fenceEvent' }>).event.id,
      )

      await call('/web/poi/delLocationPoi', { id: walker.object.id })
      expect(frames.at(-1)).toEqual({ type: 'positionedDeleted', id: walker.object.id })
      await call('/web/areadraw/del', { id: yard.id })
      expect(frames.at(-1)).toEqual({ type: 'fences', draw_ids: [] })
      // a device token never reaches the stream
      expect(JSON.stringify(frames)).not.toContain(walker.token)
    } finally {
      subscription.close()
    }
  })

  it('lets only the owner (or an admin) add and delete them; readers by project token', async () => {
    const [some] = await select()
    const { projectTokenHeaders, adminToken } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: project.id,
      label: 'location-poi',
      writes: [
        ['/web/poi/creatLocationPoi', { project_id: project.id, name: 'x' }],
        ['/web/poi/delLocationPoi', { id: some!.id }],
      ],
      reads: [['/web/poi/selLocationPoi', { project_id: project.id }]],
    })
    const byToken = await callApi<TrackedObject[]>(app, {
      url: '/web/poi/selLocationPoi',
      headers: projectTokenHeaders,
      json: { coding: 'C-7' },
    })
    expect(byToken.envelope.datum.map((object) => object.name)).toEqual(['First'])
    const byAdmin = await add({ name: 'Added by admin' }, adminToken)
    expect(byAdmin.envelope.code, byAdmin.envelope.message).toBe('0')
  })

  it('files location POIs in a building project too: owner-only writes, reports without fences', async () => {
    const building = await createProject(app, token, { kind: 'building' } as never)
    const inBuilding = (json: Record<string, unknown>, as = token) =>
      add({ project_id: building.id, ...json }, as)
    const guard = await inBuilding({ name: 'Lift guard', category_id: guards.id, coding: 'L-1' })
    expect(guard.envelope.code, guard.envelope.message).toBe('0')
    expect(guard.envelope.datum.object).toMatchObject({
      project_id: building.id,
      category: 'Guards',
      coding: 'L-1',
    })
    // a coding is unique per project: the city's 'G-1' is free here, 'L-1' is not
    expect((await inBuilding({ name: 'Other', coding: 'G-1' })).envelope.code).toBe('0')
    expect((await inBuilding({ name: 'Twin', coding: 'L-1' })).statusCode).toBe(409)
    // its device reports as a city object's does; a building has no fences to cross
    const reported = await report(guard.envelope.datum.token, { ...inside, heading: 10 })
    expect(reported.statusCode, reported.body).toBe(200)
    expect(reported.json().datum.events).toEqual([])
    const listed = await call<TrackedObject[]>('/web/poi/selLocationPoi', {
      project_id: building.id,
      coding: 'L-1',
    })
    expect(listed.envelope.datum).toMatchObject([
      { name: 'Lift guard', last_position: { ...inside, heading: 10 }, inside_fence_ids: [] },
    ])
    // the building's own objects only, not the city project's
    const all = await call<TrackedObject[]>('/web/poi/selLocationPoi', { project_id: building.id })
    expect(all.envelope.datum.map((object) => object.name).sort()).toEqual(['Lift guard', 'Other'])

    const { adminToken } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: building.id,
      label: 'location-poi-building',
      writes: [
        ['/web/poi/creatLocationPoi', { project_id: building.id, name: 'x' }],
        ['/web/poi/delLocationPoi', { id: guard.envelope.datum.object.id }],
      ],
      reads: [['/web/poi/selLocationPoi', { project_id: building.id }]],
    })
    expect((await inBuilding({ name: 'By admin' }, adminToken)).envelope.code).toBe('0')
    const removed = await call('/web/poi/delLocationPoi', { id: guard.envelope.datum.object.id })
    expect(removed.envelope.code).toBe('0')
    // fences stay a city's: a building project has no areas to make one of
    const fence = await call('/web/areadraw/add', {
      project_id: building.id,
      name: 'Lobby',
      type: 4,
      points: square,
    })
    expect(fence.envelope).toMatchObject({ messageId: 'project.cityOnly' })
  })
})
