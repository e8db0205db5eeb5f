import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AreaDraw, DrawPoint } from '../../../contract/draw'
import type { Project } from '../../../contract/project'
import type { FenceEvent, TrackedObject, TrackPosition } from '../../../contract/tracking'
import { callApi, type TestApp } from '../../testing/test-app'
import { expectOwnerOnlyAccess } from './access-matrix-kit'
import { createProject } from './project-test-kit'
import {
  inside,
  openTrackingTestApp,
  outside,
  square,
  type TrackingTestApp,
} from './tracking-test-kit'

describe('fences and GPS positioning: /fence/*, location POIs, /api/v1/{token}/position', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let project: Project
  let fence: AreaDraw
  let call: TrackingTestApp['call']
  let report: TrackingTestApp['report']
  let addLocationPoi: TrackingTestApp['addLocationPoi']

  const events = async () =>
    (await call<FenceEvent[]>('/web/fence/events', { project_id: project.id })).envelope.datum

  beforeAll(async () => {
    ;({ test, app, token, project, call, report, addLocationPoi } = await openTrackingTestApp())
    fence = (
      await call<AreaDraw>('/web/areadraw/add', {
        project_id: project.id,
        name: 'Yard',
        type: 4,
        points: square,
      })
    ).envelope.datum
  })
  afterAll(async () => {
    await test.close()
  })

  it('records enter and leave when a walker crosses a fence, with its track', async () => {
    const set = await call('/web/fence/set', { draw_id: fence.id, is_fence: true })
    expect(set.envelope.code, set.envelope.message).toBe('0')
    const fences = await call<{ draw_id: string }[]>('/web/fence/findall', {
      project_id: project.id,
    })
    expect(fences.envelope.datum.map((item) => item.draw_id)).toEqual([fence.id])

    const added = await addLocationPoi({ name: 'Walker', category: 'person', coding: 'W-1' })
    expect(added.envelope.code, added.envelope.message).toBe('0')
    const walker = added.envelope.datum
    expect(walker.object).toMatchObject({
      name: 'Walker',
      last_position: null,
      inside_fence_ids: [],
    })

    const t0 = test.clock.nowMs()
    const steps = [outside, inside, inside, outside]
    const answers = []
    for (const [index, step] of steps.entries()) {
      const answer = await report(
        walker.token,
        { ...step, heading: 90, ts: t0 - (steps.length - index) * 1000 },
        // devices send whatever content type their stack sets
        index === 0 ? 'application/x-www-form-urlencoded' : 'application/json',
      )
      expect(answer.statusCode, answer.body).toBe(200)
      answers.push(answer.json().datum.events)
    }
    expect(answers).toEqual([
      [],
      [{ fence_id: fence.id, kind: 'enter' }],
      [],
      [{ fence_id: fence.id, kind: 'leave' }],
    ])
    const recorded = await events()
    expect(recorded.map((event) => event.kind)).toEqual(['leave', 'enter'])
    expect(recorded[0]).toMatchObject({
      fence_id: fence.id,
      object_id: walker.object.id,
      ...outside,
    })

    // A late report joins the track but does not move the walker or raise events.
    expect(
      (await report(walker.token, { ...inside, ts: t0 - 10_000 })).json().datum.events,
    ).toEqual([])
    const objects = await call<TrackedObject[]>('/web/poi/selLocationPoi', {
      project_id: project.id,
    })
    expect(objects.envelope.datum[0]).toMatchObject({
      last_position: { ...outside, heading: 90 },
      inside_fence_ids: [],
    })
    const track = await call<TrackPosition[]>('/web/tracked/track', { id: walker.object.id })
    expect(track.envelope.datum).toHaveLength(5)
    expect(track.envelope.datum[0]).toMatchObject(inside)
    expect(track.envelope.datum.map((position) => position.at)).toEqual(
      [...track.envelope.datum.map((position) => position.at)].sort(),
    )

    // Moving the fence's points over the walker: the next report enters the moved fence.
    const moved = square.map(([lng, lat]): DrawPoint => [lng + (outside.lng - inside.lng), lat])
    const update = await call('/web/areadraw/update', { id: fence.id, points: moved })
    expect(update.envelope.code).toBe('0')
    expect((await report(walker.token, outside)).json().datum.events).toEqual([
      { fence_id: fence.id, kind: 'enter' },
    ])
    // A circle can be a fence too; a path or a point cannot.
    const circle = await call<AreaDraw>('/web/areadraw/add', {
      project_id: project.id,
      name: 'Ring',
      type: 1,
      points: [
        [outside.lng, outside.lat],
        [outside.lng + 0.0005, outside.lat],
      ],
    })
    expect(
      (await call('/web/fence/set', { draw_id: circle.envelope.datum.id, is_fence: true })).envelope
        .code,
    ).toBe('0')
    expect((await report(walker.token, outside)).json().datum.events).toEqual([
      { fence_id: circle.envelope.datum.id, kind: 'enter' },
    ])
    const line = await call<AreaDraw>('/web/areadraw/add', {
      project_id: project.id,
      name: 'Line',
      type: 3,
      points: square,
    })
    const refused = await call('/web/fence/set', {
      draw_id: line.envelope.datum.id,
      is_fence: true,
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.envelope).toMatchObject({ messageId: 'tracking.fenceType' })
    // Deleting a fence's drawing ends the fence.
    await call('/web/areadraw/del', { id: circle.envelope.datum.id })
    const left = await call<{ draw_id: string }[]>('/web/fence/findall', { project_id: project.id })
    expect(left.envelope.datum.map((item) => item.draw_id)).toEqual([fence.id])
  })

  it('refuses bad tokens, malformed reports and times in the future, writing nothing', async () => {
    const walker = (await addLocationPoi({ name: 'Careful' })).envelope.datum
    const bad = await report('not-a-token', inside)
    expect(bad.statusCode).toBe(401)
    expect(bad.json()).toMatchObject({ messageId: 'tracking.unknownToken' })
    const forged = await report('A'.repeat(43), inside)
    expect(forged.statusCode).toBe(401)
    const future = await report(walker.token, { ...inside, ts: test.clock.nowMs() + 3_600_000 })
    expect(future.statusCode).toBe(400)
    expect(future.json()).toMatchObject({ messageId: 'tracking.futureTimestamp' })
    expect(future.json().message).toContain('3600')
    for (const body of [
      'not json',
      '',
      { lng: 200, lat: 0 },
      { lng: 0, lat: -91 },
      { lng: '1', lat: 0 },
      { lng: 0, lat: 0, heading: 400 },
      { lng: 0, lat: 0, ts: 'yesterday' },
      [1, 2],
    ]) {
      const answer = await report(walker.token, body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
      expect(answer.json().code).toBe('1000')
    }
    const tooBig = await report(walker.token, { ...inside, pad: 'x'.repeat(10_000) })
    expect(tooBig.statusCode).toBe(413)
    const track = await call<TrackPosition[]>('/web/tracked/track', { id: walker.object.id })
    expect(track.envelope.datum).toEqual([])
    const refusals: Array<[Record<string, unknown>, number]> = [
      [{ project_id: project.id, name: '' }, 400],
      [{ project_id: project.id, name: 'x'.repeat(101) }, 400],
      [{ name: 'no project' }, 400],
    ]
    for (const [json, status] of refusals)
      expect((await call('/web/poi/creatLocationPoi', json)).statusCode, JSON.stringify(json)).toBe(
        status,
      )
    // Deleting the object ends its token.
    await call('/web/poi/delLocationPoi', { id: walker.object.id })
    expect((await report(walker.token, inside)).statusCode).toBe(401)
    expect((await call('/web/poi/delLocationPoi', { id: walker.object.id })).statusCode).toBe(404)
  })

  it('lets only the owner change fences and objects; readers by project token; nobody else', async () => {
    const walker = (await addLocationPoi({ name: 'Guarded' })).envelope.datum
    await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: project.id,
      label: 'tracking',
      writes: [
        ['/web/fence/set', { draw_id: fence.id, is_fence: false }],
        ['/web/poi/creatLocationPoi', { project_id: project.id, name: 'x' }],
        ['/web/poi/delLocationPoi', { id: walker.object.id }],
      ],
      reads: [
        ['/web/fence/findall', { project_id: project.id }],
        ['/web/fence/events', { project_id: project.id }],
        ['/web/poi/selLocationPoi', { project_id: project.id }],
        ['/web/tracked/track', { id: walker.object.id }],
      ],
    })
    // the device token is not in any answer but the one that made it
    const listed = await call<TrackedObject[]>('/web/poi/selLocationPoi', {
      project_id: project.id,
    })
    expect(JSON.stringify(listed.envelope.datum)).not.toContain(walker.token)
  })

  it('removes fences, objects, tracks and events with their project', async () => {
    const other = await createProject(app, token, { kind: 'city' })
    const drawing = (
      await call<AreaDraw>('/web/areadraw/add', {
        project_id: other.id,
        name: 'Gone',
        type: 4,
        points: square,
      })
    ).envelope.datum
    await call('/web/fence/set', { draw_id: drawing.id, is_fence: true })
    const walker = (await addLocationPoi({ project_id: other.id, name: 'Gone' })).envelope.datum
    expect((await report(walker.token, inside)).json().datum.events).toHaveLength(1)
    const removed = await callApi(app, {
      url: '/web/project/deleteProject',
      token,
      form: { id: other.id },
    })
    expect(removed.envelope.code, removed.envelope.message).toBe('0')
    const db = app.deps.database.db
    for (const table of ['fences', 'tracked_objects', 'fence_events'] as const) {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .where('project_id', '=', other.id)
        .execute()
      expect(rows, table).toEqual([])
    }
    expect((await report(walker.token, inside)).statusCode).toBe(401)
  })
})
