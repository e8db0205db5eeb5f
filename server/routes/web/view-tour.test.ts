import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Project } from '../../../contract/project'
import { maxTourViewpoints, type TourViewpointRecord } from '../../../contract/view-tour'
import { callApi, createTestApp, type TestApp, signIn, testEditor } from '../../testing/test-app'
import { expectOwnerOnlyAccess, type MatrixCall } from './access-matrix-kit'
import { createProject } from './project-test-kit'

const view = { lng: 126.978, lat: 37.5665, zoom: 16, pitch: 45, bearing: 30 }

describe('the view tour: /viewTour/findall|add|del', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let city: Project

  const add = (json: Record<string, unknown>, as = token) =>
    callApi<TourViewpointRecord>(app, { url: '/web/viewTour/add', token: as, json })
  const list = async (projectId = city.id) =>
    (
      await callApi<TourViewpointRecord[]>(app, {
        url: '/web/viewTour/findall',
        token,
        json: { project_id: projectId },
      })
    ).envelope.datum

  beforeAll(async () => {
    test = await createTestApp()
    app = test.app
    token = await signIn(app, testEditor)
    city = await createProject(app, token, { kind: 'city' })
  })
  afterAll(async () => {
    await test.close()
  })

  it('appends viewpoints in order, deletes one and closes up the order', async () => {
    for (const name of ['Gate', 'Tower', 'River']) {
      const answer = await add({ project_id: city.id, name, ...view })
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
    }
    const byForm = await callApi<TourViewpointRecord>(app, {
      url: '/web/viewTour/add',
      token,
      form: {
        project_id: city.id,
        name: 'Park',
        lng: '127',
        lat: '37.5',
        zoom: '14.5',
        pitch: '0',
        bearing: '-90',
        dwell_seconds: '0',
      },
    })
    expect(byForm.envelope.datum).toMatchObject({
      seq: 4,
      zoom: 14.5,
      bearing: -90,
      dwell_seconds: 0,
    })
    const saved = await list()
    expect(saved.map((stop) => [stop.seq, stop.name])).toEqual([
      [1, 'Gate'],
      [2, 'Tower'],
      [3, 'River'],
      [4, 'Park'],
    ])
    expect(saved[0]).toMatchObject({ ...view, dwell_seconds: 3 })
    const removed = await callApi(app, {
      url: '/web/viewTour/del',
      token,
      json: { id: saved[1]!.id },
    })
    expect(removed.envelope.code).toBe('0')
    expect((await list()).map((stop) => [stop.seq, stop.name])).toEqual([
      [1, 'Gate'],
      [2, 'River'],
      [3, 'Park'],
    ])
  })

  it('refuses bad viewpoints, building projects and more than the limit; writes nothing', async () => {
    const project = await createProject(app, token, { kind: 'city' })
    const good = { project_id: project.id, name: 'v', ...view }
    for (const body of [
      { ...good, lng: 181 },
      { ...good, lat: -90.5 },
      { ...good, zoom: 25 },
      { ...good, pitch: 86 },
      { ...good, bearing: 'east' },
      { ...good, dwell_seconds: -1 },
      { ...good, name: '' },
      { ...good, zoom: undefined },
    ]) {
      const answer = await add(body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    const building = await createProject(app, token, { kind: 'building' } as never)
    const onBuilding = await add({ ...good, project_id: building.id })
    expect(onBuilding.envelope).toMatchObject({ messageId: 'project.cityOnly' })
    expect(await list(project.id)).toEqual([])
    for (let index = 0; index < maxTourViewpoints; index++)
      expect((await add({ ...good, name: `#${index + 1}` })).envelope.code).toBe('0')
    const over = await add(good)
    expect(over.statusCode).toBe(409)
    expect(over.envelope).toMatchObject({ messageId: 'tour.tooManyViewpoints' })
    expect(await list(project.id)).toHaveLength(maxTourViewpoints)
  })

  it('lets only the owner (or an admin) change the tour; readers by project token; copies carry it', async () => {
    const [mine] = await list()
    const writes: MatrixCall[] = [
      ['/web/viewTour/add', { project_id: city.id, name: 'x', ...view }],
      ['/web/viewTour/del', { id: mine!.id }],
    ]
    const read: MatrixCall = ['/web/viewTour/findall', { project_id: city.id }]
    const { projectTokenHeaders: headers, adminToken: admin } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: city.id,
      label: 'tour',
      writes,
      reads: [read],
    })
    const byToken = await callApi<TourViewpointRecord[]>(app, { url: read[0], headers, json: {} })
    expect(byToken.envelope.datum.map((stop) => stop.name)).toEqual(['Gate', 'River', 'Park'])
    expect(
      (await add({ project_id: city.id, name: 'Admin view', ...view }, admin)).envelope.code,
    ).toBe('0')
    const unknown = await callApi(app, {
      url: '/web/viewTour/del',
      token,
      json: { id: '00000000-0000-4000-8000-000000000000' },
    })
    expect(unknown.statusCode).toBe(404)

    const copy = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      form: { id: city.id },
    })
    expect((await list(copy.envelope.datum.id)).map((stop) => [stop.seq, stop.name])).toEqual([
      [1, 'Gate'],
      [2, 'River'],
      [3, 'Park'],
      [4, 'Admin view'],
    ])
    await callApi(app, {
      url: '/web/project/deleteProject',
      token,
      form: { id: copy.envelope.datum.id },
    })
    const gone = await callApi(app, {
      url: '/web/viewTour/findall',
      token,
      json: { project_id: copy.envelope.datum.id },
    })
    expect(gone.statusCode).toBe(404)
  })
})
