import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObliquePhotograph } from '../../../contract/city'
import { type LocationAnchor, maxAnchorsPerTarget } from '../../../contract/location'
import type { Project } from '../../../contract/project'
import { callApi, createTestApp, type TestApp, signIn, testEditor } from '../../testing/test-app'
import { expectOwnerOnlyAccess, type MatrixCall } from './access-matrix-kit'
import { createProject } from './project-test-kit'

/** Three anchors of a building: model corners paired with places in Seoul. */
const anchors = [
  { name: 'north-west corner', x: 0, y: 0, z: 0, lng: 126.978, lat: 37.5665 },
  { name: 'north-east corner', x: 40, y: 0, z: 0, lng: 126.97845, lat: 37.5665 },
  { name: 'south-east corner', x: 40, y: 30, z: 1.5, lng: 126.97845, lat: 37.56677, offset: 2 },
]

describe('anchor points: /poi location mapping', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let building: Project

  const add = (json: Record<string, unknown>, as = token) =>
    callApi<LocationAnchor>(app, { url: '/web/poi/addLocationMapping', token: as, json })
  const list = async (json: Record<string, unknown>) =>
    (await callApi<LocationAnchor[]>(app, { url: '/web/poi/getLocationMapping', token, json }))
      .envelope

  beforeAll(async () => {
    test = await createTestApp()
    app = test.app
    token = await signIn(app, testEditor)
    building = await createProject(app, token, { kind: 'building' } as never)
  })
  afterAll(async () => {
    await test.close()
  })

  it("saves a building model's anchors, changes and deletes one, and lists them in order", async () => {
    for (const anchor of anchors) {
      const answer = await add({ project_id: building.id, ...anchor })
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
      expect(answer.envelope.datum).toMatchObject({
        project_id: building.id,
        target: '',
        offset: 0,
        ...anchor,
      })
    }
    // a form post carries numbers as text (SPEC §7: most calls are form posts)
    const byForm = await callApi<LocationAnchor>(app, {
      url: '/web/poi/addLocationMapping',
      token,
      form: {
        project_id: building.id,
        name: 'door',
        x: '12.5',
        y: '-3',
        lng: '126.9781',
        lat: '37.56655',
      },
    })
    expect(byForm.envelope.datum).toMatchObject({ x: 12.5, y: -3, z: 0, lng: 126.9781 })
    const saved = await list({ project_id: building.id })
    expect(saved.datum.map((anchor) => anchor.name)).toEqual([
      ...anchors.map((anchor) => anchor.name),
      'door',
    ])
    const moved = await callApi<LocationAnchor>(app, {
      url: '/web/poi/updateLocationMapping',
      token,
      json: { id: byForm.envelope.datum.id, name: 'front door', lat: 37.5666, offset: -1 },
    })
    expect(moved.envelope.datum).toMatchObject({
      name: 'front door',
      lat: 37.5666,
      offset: -1,
      x: 12.5,
    })
    const removed = await callApi(app, {
      url: '/web/poi/deleteLocationMapping',
      token,
      json: { id: byForm.envelope.datum.id },
    })
    expect(removed.envelope.code).toBe('0')
    expect((await list({ project_id: building.id })).datum).toHaveLength(anchors.length)
  })

  it('refuses bad anchors with a clear message and writes nothing', async () => {
    const project = await createProject(app, token, { kind: 'building' } as never)
    const good = { project_id: project.id, name: 'a', x: 1, y: 2, lng: 126.9, lat: 37.5 }
    const refusals: Array<Record<string, unknown>> = [
      { ...good, lng: 180.5 },
      { ...good, lat: -91 },
      { ...good, lat: 'north' },
      { ...good, x: 2e7 },
      { ...good, y: null },
      { ...good, offset: 20_000 },
      { ...good, name: '  ' },
      { ...good, name: 'n'.repeat(101) },
      { ...good, lng: undefined },
    ]
    for (const body of refusals) {
      const answer = await add(body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
      expect(answer.envelope.code, JSON.stringify(body)).not.toBe('0')
    }
    // a building project's anchors place its own model: no other target
    const wrongTarget = await add({ ...good, target: 'a tileset' })
    expect(wrongTarget.statusCode).toBe(400)
    expect(wrongTarget.envelope).toMatchObject({ messageId: 'location.targetNotFound' })
    expect((await list({ project_id: project.id })).datum).toEqual([])
  })

  it(`keeps at most ${maxAnchorsPerTarget} anchors per model`, async () => {
    const project = await createProject(app, token, { kind: 'building' } as never)
    for (let index = 0; index < maxAnchorsPerTarget; index++) {
      const answer = await add({
        project_id: project.id,
        name: `#${index}`,
        x: index,
        y: index % 7,
        lng: 126.9 + index / 1e5,
        lat: 37.5,
      })
      expect(answer.envelope.code).toBe('0')
    }
    const over = await add({ project_id: project.id, name: 'one more', x: 0, y: 0, lng: 1, lat: 1 })
    expect(over.statusCode).toBe(409)
    expect(over.envelope).toMatchObject({ messageId: 'location.tooManyAnchors' })
    expect(over.envelope.message).toContain(String(maxAnchorsPerTarget))
    expect((await list({ project_id: project.id })).datum).toHaveLength(maxAnchorsPerTarget)
  })

  it("keeps a city tileset's anchors apart, and carries them along with a project copy", async () => {
    const city = await createProject(app, token, { kind: 'city' })
    const tileset = (
      await callApi<ObliquePhotograph>(app, {
        url: '/web/obliquephotograph/add',
        token,
        json: { project_id: city.id, name: 'Harbour mesh', placement: { lng: 121.5, lat: 31.2 } },
      })
    ).envelope.datum
    const onTileset = await add({ project_id: city.id, target: tileset.id, ...anchors[0] })
    expect(onTileset.envelope.datum.target).toBe(tileset.id)
    // a city's anchors belong to one of its tilesets
    const noTileset = await add({ project_id: city.id, ...anchors[1] })
    expect(noTileset.envelope).toMatchObject({ messageId: 'location.targetNotFound' })
    const otherTileset = await add({
      project_id: city.id,
      target: '00000000-0000-4000-8000-000000000000',
      ...anchors[1],
    })
    expect(otherTileset.envelope).toMatchObject({ messageId: 'location.targetNotFound' })
    expect((await list({ project_id: city.id, target: tileset.id })).datum).toHaveLength(1)
    expect((await list({ project_id: city.id })).datum).toHaveLength(0)

    const copy = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      form: { id: city.id },
    })
    const copyId = copy.envelope.datum.id
    const [copiedTileset] = (
      await callApi<ObliquePhotograph[]>(app, {
        url: '/web/obliquephotograph/find',
        token,
        json: { project_id: copyId },
      })
    ).envelope.datum
    const copied = await list({ project_id: copyId, target: copiedTileset!.id })
    expect(copied.datum.map((anchor) => anchor.name)).toEqual([anchors[0]!.name])
    expect(copied.datum[0]!.id).not.toBe(onTileset.envelope.datum.id)
    // deleting the project deletes its anchors
    await callApi(app, { url: '/web/project/deleteProject', token, form: { id: city.id } })
    const gone = await callApi(app, {
      url: '/web/poi/updateLocationMapping',
      token,
      json: { id: onTileset.envelope.datum.id, name: 'x' },
    })
    expect(gone.statusCode).toBe(404)
    expect(gone.envelope).toMatchObject({ messageId: 'location.anchorNotFound' })
  })

  it("keeps the placement the anchors solved with the project's location, and its copy", async () => {
    const update = (project_center: unknown, id = building.id) =>
      callApi<Project>(app, {
        url: '/web/project/updateProject',
        token,
        json: { id, project_center },
      })
    const placed = await update({ lng: 126.978, lat: 37.5665, heading: 270, scale: 1.002 })
    expect(placed.envelope.code, placed.envelope.message).toBe('0')
    expect(placed.envelope.datum.project_center).toEqual({
      lng: 126.978,
      lat: 37.5665,
      heading: 270,
      scale: 1.002,
    })
    // a point picked on the map moves the origin and keeps the placement
    const moved = await update({ lng: 126.98, lat: 37.57 })
    expect(moved.envelope.datum.project_center).toMatchObject({ lng: 126.98, heading: 270 })
    for (const bad of [
      { lng: 126.98, lat: 37.57, heading: 361, scale: 1 },
      { lng: 126.98, lat: 37.57, heading: 10, scale: 0 },
      { lng: 126.98, lat: 37.57, heading: 'north', scale: 1 },
    ]) {
      const answer = await update(bad)
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400)
    }
    const copy = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      form: { id: building.id },
    })
    const read = await callApi<Project>(app, {
      url: '/web/project/findProjectOne',
      token,
      form: { id: copy.envelope.datum.id },
    })
    expect(read.envelope.datum.project_center).toEqual({
      lng: 126.98,
      lat: 37.57,
      heading: 270,
      scale: 1.002,
    })
  })

  it('lets only the owner (or an admin) change anchors; readers by project token; nobody else', async () => {
    const mine = (await list({ project_id: building.id })).datum[0]!
    const writes: MatrixCall[] = [
      ['/web/poi/addLocationMapping', { project_id: building.id, ...anchors[0] }],
      ['/web/poi/updateLocationMapping', { id: mine.id, name: 'theirs' }],
      ['/web/poi/deleteLocationMapping', { id: mine.id }],
    ]
    const read: MatrixCall = ['/web/poi/getLocationMapping', { project_id: building.id }]
    const { projectTokenHeaders: headers, adminToken: admin } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: building.id,
      label: 'anchor',
      writes,
      reads: [read],
    })
    const byToken = await callApi<LocationAnchor[]>(app, { url: read[0], headers, json: {} })
    expect(byToken.envelope.datum.map((anchor) => anchor.id)).toContain(mine.id)
    const renamed = await callApi<LocationAnchor>(app, {
      url: '/web/poi/updateLocationMapping',
      token: admin,
      json: { id: mine.id, name: 'Renamed by admin' },
    })
    expect(renamed.envelope.datum.name).toBe('Renamed by admin')
    expect((await list({ project_id: building.id })).datum.map((anchor) => anchor.id)).toContain(
      mine.id,
    )
  })
})
