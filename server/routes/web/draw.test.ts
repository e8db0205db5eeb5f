import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AreaDraw, AreaDrawName, DrawPoint } from '../../../contract/draw'
import type { Project } from '../../../contract/project'
import { measureDrawing } from '../../../workers/geodesy/draw-geometry'
import { callApi, createTestApp, type TestApp, signIn, testEditor } from '../../testing/test-app'
import { expectOwnerOnlyAccess } from './access-matrix-kit'
import { createProject } from './project-test-kit'

/** A 100 m × 100 m-ish square in Seoul, counter-clockwise. */
const square: DrawPoint[] = [
  [126.978, 37.5665],
  [126.97913, 37.5665],
  [126.97913, 37.5674],
  [126.978, 37.5674],
]

describe('drawings: /areadraw/* and /findareadrawall', () => {
  let test: TestApp
  let app: FastifyInstance
  let token: string
  let project: Project

  const add = (json: Record<string, unknown>, as = token) =>
    callApi<AreaDraw>(app, { url: '/web/areadraw/add', token: as, json })
  const list = async (projectId = project.id) =>
    (
      await callApi<AreaDraw[]>(app, {
        url: '/web/areadraw/findall',
        token,
        json: { project_id: projectId },
      })
    ).envelope.datum

  beforeAll(async () => {
    test = await createTestApp()
    app = test.app
    token = await signIn(app, testEditor)
    project = await createProject(app, token, { kind: 'city' })
  })
  afterAll(async () => {
    await test.close()
  })

  it('saves one drawing of each type with the area and length measured on the server', async () => {
    const cases: Array<[number, DrawPoint[]]> = [
      [1, [square[0]!, square[1]!]],
      [2, [square[0]!]],
      [3, square],
      [4, square],
      [5, square],
    ]
    for (const [type, points] of cases) {
      const answer = await add({
        project_id: project.id,
        name: `type ${type}`,
        type,
        points,
        // Never trusted: the server measures.
        acreage: 1,
        length: 1,
      })
      expect(answer.envelope.code, answer.envelope.message).toBe('0')
      const expected = measureDrawing(type, points)
      expect(answer.envelope.datum).toMatchObject({
        kind: 'area',
        name: `type ${type}`,
        description: '',
        type,
        points,
        acreage: expected.areaSquareMeters,
        length: expected.lengthMeters,
        radius: expected.radiusMeters,
        style: { fill_color: '#ffffff80', outline_color: '#1e88e5ff', display_mode: 1 },
        is_visible: true,
      })
    }
    const saved = await list()
    const polygon = saved.find((drawing) => drawing.type === 4)!
    // ~100 m × 100 m.
    expect(polygon.acreage).toBeGreaterThan(9_000)
    expect(polygon.acreage).toBeLessThan(11_000)
    const circle = saved.find((drawing) => drawing.type === 1)!
    expect(circle.acreage).toBeCloseTo(Math.PI * circle.radius ** 2, -2)
    expect(saved.find((drawing) => drawing.type === 2)!.acreage).toBe(0)
  })

  it('takes a form with the points as JSON text, and a path with its colour and display mode', async () => {
    const answer = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/add',
      token,
      form: {
        project_id: project.id,
        kind: 'path',
        name: 'Patrol',
        description: 'night round',
        type: '3',
        points: JSON.stringify(square),
        'style.outline_color': '#FF0000',
        'style.display_mode': '3',
      },
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    expect(answer.envelope.datum).toMatchObject({
      kind: 'path',
      description: 'night round',
      length: measureDrawing(3, square).lengthMeters,
      style: { outline_color: '#ff0000ff', display_mode: 3 },
    })
    const paths = await callApi<AreaDraw[]>(app, {
      url: '/web/areadraw/findall',
      token,
      json: { project_id: project.id, kind: 'path' },
    })
    expect(paths.envelope.datum.map((drawing) => drawing.name)).toEqual(['Patrol'])
    const names = await callApi<AreaDrawName[]>(app, {
      url: '/web/findareadrawall',
      token,
      json: { project_id: project.id },
    })
    expect(names.envelope.datum.map((item) => item.area_name)).toContain('Patrol')
    expect(Object.keys(names.envelope.datum[0]!).sort()).toEqual([
      'area_name',
      'id',
      'kind',
      'type',
    ])
  })

  it('measures again when the points change, keeps the measure when only the name does', async () => {
    const added = (await add({ project_id: project.id, name: 'Yard', type: 4, points: square }))
      .envelope.datum
    const renamed = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/update',
      token,
      json: { id: added.id, name: 'Yard 2', style: { fill_color: '#00ff0040' }, is_visible: false },
    })
    expect(renamed.envelope.datum).toMatchObject({
      name: 'Yard 2',
      acreage: added.acreage,
      is_visible: false,
      style: { fill_color: '#00ff0040', outline_color: '#1e88e5ff' },
    })
    const half: DrawPoint[] = [square[0]!, square[1]!, square[2]!]
    const reshaped = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/update',
      token,
      json: { id: added.id, points: half },
    })
    expect(reshaped.envelope.datum.acreage).toBeCloseTo(added.acreage / 2, 0)
    const found = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/find',
      token,
      json: { id: added.id },
    })
    expect(found.envelope.datum.points).toEqual(half)
    const deleted = await callApi(app, { url: '/web/areadraw/del', token, json: { id: added.id } })
    expect(deleted.envelope.code).toBe('0')
    const gone = await callApi(app, { url: '/web/areadraw/find', token, json: { id: added.id } })
    expect(gone.statusCode).toBe(404)
    expect(gone.envelope.message).toBe('This drawing does not exist.')
  })

  it('refuses bad shapes with a clear message and writes nothing', async () => {
    const before = (await list()).length
    const bowtie: DrawPoint[] = [square[0]!, square[2]!, square[1]!, square[3]!]
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ type: 4, points: square.slice(0, 2) }, 'draw.tooFewPoints', 'at least 3 points; it has 2'],
      [{ type: 2, points: square.slice(0, 2) }, 'draw.tooManyPoints', 'at most 1 points'],
      [
        {
          type: 3,
          points: [
            [0, 0],
            [181, 0],
          ],
        },
        'draw.coordinateOutOfRange',
        'Point 2 is out of range',
      ],
      [
        {
          type: 3,
          points: [
            [0, 0],
            [0, -90.1],
          ],
        },
        'draw.coordinateOutOfRange',
        'Point 2',
      ],
      [{ type: 4, points: bowtie }, 'draw.polygonSelfIntersecting', 'edges 1 and 3'],
      [{ type: 1, points: [square[0]!, square[0]!] }, 'draw.circleRadiusOutOfRange', '2000 km'],
      [
        {
          type: 4,
          points: [
            [0, 0],
            [120, 0],
            [-120, 1],
          ],
        },
        'draw.polygonTooWide',
        '80°',
      ],
      [{ kind: 'path', type: 4, points: square }, 'draw.pathType', 'polyline'],
    ]
    for (const [body, messageId, text] of refusals) {
      const answer = await add({ project_id: project.id, name: 'bad', ...body })
      expect(answer.statusCode, messageId).toBe(400)
      expect(answer.envelope).toMatchObject({ messageId })
      expect(answer.envelope.message).toContain(text)
    }
    const malformed: Array<Record<string, unknown>> = [
      { type: 6, points: square },
      {
        type: 4,
        points: [
          [0, 0],
          [1, 'x'],
          [1, 1],
        ],
      },
      {
        type: 4,
        points: [
          [0, 0, 0],
          [1, 0],
          [1, 1],
        ],
      },
      { type: 4, points: 'not json' },
      { type: 4, points: square, style: { fill_color: 'red' } },
      { type: 3, kind: 'fence', points: square },
      { type: 4 },
    ]
    for (const body of malformed) {
      const answer = await add({ project_id: project.id, name: 'bad', ...body })
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    const empty = await add({ project_id: project.id, name: ' ', type: 4, points: square })
    expect(empty.statusCode).toBe(400)
    expect((await list()).length).toBe(before)
    // An update with a bad shape leaves the drawing as it was.
    const kept = (await add({ project_id: project.id, name: 'Kept', type: 4, points: square }))
      .envelope.datum
    const badUpdate = await callApi(app, {
      url: '/web/areadraw/update',
      token,
      json: { id: kept.id, name: 'Changed', points: bowtie },
    })
    expect(badUpdate.statusCode).toBe(400)
    const after = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/find',
      token,
      json: { id: kept.id },
    })
    expect(after.envelope.datum).toMatchObject({ name: 'Kept', points: square })
    await callApi(app, { url: '/web/areadraw/del', token, json: { id: kept.id } })
  })

  it('modifies name, description and style; a style change keeps the fields not given', async () => {
    const path = (
      await add({
        project_id: project.id,
        kind: 'path',
        name: 'Round',
        type: 3,
        points: square,
        style: { outline_color: '#ff000080', display_mode: 2 },
      })
    ).envelope.datum
    const update = (json: Record<string, unknown>) =>
      callApi<AreaDraw>(app, { url: '/web/areadraw/update', token, json: { id: path.id, ...json } })
    const modified = await update({
      name: ' Night round ',
      description: 'after 22:00',
      style: { fill_color: '#00ff0040' },
    })
    expect(modified.envelope.code, modified.envelope.message).toBe('0')
    expect(modified.envelope.datum).toMatchObject({
      name: 'Night round',
      description: 'after 22:00',
      length: path.length,
      // The outline colour and display mode given at add stay: only the fill changed.
      style: { fill_color: '#00ff0040', outline_color: '#ff000080', display_mode: 2 },
    })
    const restyled = await update({ style: { outline_color: '#123ABC', display_mode: 0 } })
    expect(restyled.envelope.datum).toMatchObject({
      name: 'Night round',
      style: { fill_color: '#00ff0040', outline_color: '#123abcff', display_mode: 0 },
    })

    // Refused with the field and a message naming the rule; nothing of the call is written.
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 'x', style: { display_mode: 4 } }, 'style.display_mode', 'draw.displayMode'],
      [{ name: 'x', style: { display_mode: 1.5 } }, 'style.display_mode', 'draw.displayMode'],
      [{ name: 'x', style: { display_mode: -1 } }, 'style.display_mode', 'draw.displayMode'],
      [{ name: 'x', style: { fill_color: 'red' } }, 'style.fill_color', 'draw.colorFormat'],
      [
        { name: 'x', style: { outline_color: '#12345' } },
        'style.outline_color',
        'draw.colorFormat',
      ],
      [{ name: ' ' }, 'name', 'validation.tooShort'],
      [{ name: 'n'.repeat(101) }, 'name', 'validation.tooLong'],
      [{ name: 'x', description: 'd'.repeat(501) }, 'description', 'validation.tooLong'],
    ]
    for (const [body, field, messageId] of refusals) {
      const answer = await update(body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
      const { details } = answer.envelope.datum as unknown as {
        details: Array<Record<string, unknown>>
      }
      expect(details, JSON.stringify(answer.envelope)).toContainEqual(
        expect.objectContaining({ field, messageId }),
      )
    }
    const displayRefusal = await update({ style: { display_mode: 7 } })
    expect(displayRefusal.envelope).toMatchObject({
      messageId: 'validation.invalidFields',
      params: { fields: 'style.display_mode' },
    })
    expect(displayRefusal.envelope.message).toContain('3 (path only)')
    const after = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/find',
      token,
      json: { id: path.id },
    })
    expect(after.envelope.datum).toMatchObject({
      name: 'Night round',
      description: 'after 22:00',
      style: { fill_color: '#00ff0040', outline_color: '#123abcff', display_mode: 0 },
    })
    const unknown = await callApi(app, {
      url: '/web/areadraw/update',
      token,
      json: { id: '00000000-0000-4000-8000-000000000000', name: 'x' },
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.envelope.message).toBe('This drawing does not exist.')
    await callApi(app, { url: '/web/areadraw/del', token, json: { id: path.id } })
  })

  it('takes a 100,000-point polygon and refuses 100,001 points', async () => {
    const ring = (count: number) =>
      Array.from({ length: count }, (_, index): DrawPoint => {
        const angle = (2 * Math.PI * index) / count
        return [126.9 + 0.05 * Math.cos(angle), 37.5 + 0.04 * Math.sin(angle)]
      })
    const big = await add({ project_id: project.id, name: 'Big', type: 4, points: ring(100_000) })
    expect(big.envelope.code, big.envelope.message).toBe('0')
    expect(big.envelope.datum.points).toHaveLength(100_000)
    expect(big.envelope.datum.acreage).toBeGreaterThan(1e7)
    const tooBig = await add({
      project_id: project.id,
      name: 'Too big',
      type: 4,
      points: ring(100_001),
    })
    expect(tooBig.statusCode).toBe(400)
    expect(tooBig.envelope.message).toContain('100000')
    await callApi(app, { url: '/web/areadraw/del', token, json: { id: big.envelope.datum.id } })
  })

  it('lets only the owner change drawings; readers by project token; nobody else', async () => {
    const mine = (await add({ project_id: project.id, name: 'Mine', type: 4, points: square }))
      .envelope.datum
    const { projectTokenHeaders: headers, adminToken: admin } = await expectOwnerOnlyAccess(app, {
      ownerToken: token,
      projectId: project.id,
      label: 'draw',
      writes: [
        ['/web/areadraw/add', { project_id: project.id, name: 'x', type: 2, points: [square[0]] }],
        ['/web/areadraw/update', { id: mine.id, name: 'theirs' }],
        ['/web/areadraw/del', { id: mine.id }],
      ],
      reads: [
        ['/web/areadraw/find', { id: mine.id }],
        ['/web/areadraw/findall', { project_id: project.id }],
        ['/web/findareadrawall', { project_id: project.id }],
      ],
    })
    const byToken = await callApi<AreaDraw[]>(app, {
      url: '/web/areadraw/findall',
      headers,
      json: {},
    })
    expect(byToken.envelope.datum.map((drawing) => drawing.id)).toContain(mine.id)
    const adminRename = await callApi<AreaDraw>(app, {
      url: '/web/areadraw/update',
      token: admin,
      json: { id: mine.id, name: 'Renamed by admin' },
    })
    expect(adminRename.envelope.datum.name).toBe('Renamed by admin')
    const unknown = await callApi(app, {
      url: '/web/areadraw/del',
      token,
      json: { id: '00000000-0000-4000-8000-000000000000' },
    })
    expect(unknown.statusCode).toBe(404)
    const building = await createProject(app, token, { kind: 'building' } as never)
    const onBuilding = await add({
      project_id: building.id,
      name: 'x',
      type: 2,
      points: [square[0]],
    })
    expect(onBuilding.statusCode).toBe(400)
    expect(onBuilding.envelope).toMatchObject({ messageId: 'project.cityOnly' })
  })

  it('copies drawings with their project and deletes them with it', async () => {
    const source = await createProject(app, token, { kind: 'city', name: 'Drawn' })
    await add({ project_id: source.id, name: 'Zone', type: 4, points: square })
    const copied = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token,
      json: { id: source.id },
    })
    expect(copied.envelope.code, copied.envelope.message).toBe('0')
    expect((await list(copied.envelope.datum.id)).map((drawing) => drawing.name)).toEqual(['Zone'])
    await callApi(app, { url: '/web/project/deleteProject', token, json: { id: source.id } })
    const rows = await app.deps.database.db
      .selectFrom('area_draws')
      .select('id')
      .where('project_id', '=', source.id)
      .execute()
    expect(rows).toEqual([])
  })
})
