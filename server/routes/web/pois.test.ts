import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  CreatedPoisDatum,
  ModelPoiItem,
  Poi,
  PoiCustom,
  PoiDetail,
  PoiModel,
  PoiPage,
  ProjectPoisDatum,
} from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import type { Template } from '../../../contract/templates'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { createProject, sampleFiles, signInNewUser, uploadImage } from './project-test-kit'
import {
  addFloors,
  addMonomer,
  type Caller,
  callPoi,
  countPois,
  expectRefused,
  libraryCamera,
  okPoi,
  ownTemplate,
  projectTokenOf,
} from './pois-test-kit'

/**
 * The POI calls (issue 16, contract/pois.ts) on a real database: every call with the access
 * matrix (owner, another editor, a guest, nobody, an admin, a project-token holder) and the bad
 * inputs of the issue, all-or-nothing for the list calls.
 */

let test: TestApp
let owner: Caller
let other: Caller
let guest: Caller
let admin: Caller
let city: Project
let building: Project
let otherBuilding: Project
let camera: Template
let mine: Template
let theirs: Template
let floors: string[]
let otherFloor: string

const app = () => test.app
const call = <Datum>(
  caller: Caller,
  name: Parameters<typeof callPoi>[2],
  body: unknown,
  query?: string,
) => callPoi<Datum>(app(), caller, name, body, query)
const ok = <Datum>(
  caller: Caller,
  name: Parameters<typeof callPoi>[2],
  body: unknown,
  query?: string,
) => okPoi<Datum>(app(), caller, name, body, query)

/** A city POI body (Shanghai). */
const cityPoi = (overrides: Record<string, unknown> = {}) => ({
  projectid: city.id,
  name: 'Gate camera',
  category_id: camera.id,
  x: 121.5,
  y: 31.2,
  z: 12,
  ...overrides,
})

/** A building POI body on the first floor. */
const buildingPoi = (overrides: Record<string, unknown> = {}) => ({
  projectid: building.id,
  name: 'Corridor sensor',
  category_id: mine.id,
  x: 4,
  y: 1.5,
  z: -2,
  floor_id: floors[0],
  ...overrides,
})

beforeAll(async () => {
  test = await createTestApp()
  owner = { token: await signIn(test.app, testEditor) }
  admin = { token: await signIn(test.app, testAdmin) }
  other = { token: await signInNewUser(test.app, 'poi-other-editor') }
  guest = { token: await signInNewUser(test.app, 'poi-guest', 'guest') }
  const { png } = await sampleFiles()
  const ownerToken = (owner as { token: string }).token
  const otherToken = (other as { token: string }).token
  const icon = await uploadImage(test.app, ownerToken, png, 'icon.png')
  const otherIcon = await uploadImage(test.app, otherToken, png, 'icon.png')
  city = await createProject(test.app, ownerToken, { name: 'POI city' }, icon)
  building = await createProject(test.app, ownerToken, { kind: 'building', name: 'POI building' })
  otherBuilding = await createProject(test.app, otherToken, { kind: 'building', name: 'Theirs' })
  floors = await addFloors(test.app, building.id, ['F1', 'F2'])
  otherFloor = (await addFloors(test.app, otherBuilding.id, ['Their F1']))[0]!
  camera = await libraryCamera(test.app, ownerToken)
  mine = await ownTemplate(test.app, ownerToken, `${icon.rootPath}${icon.jpgName}`, 'SENSOR-MINE')
  theirs = await ownTemplate(
    test.app,
    otherToken,
    `${otherIcon.rootPath}${otherIcon.jpgName}`,
    'SENSOR-THEIRS',
  )
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('creatPoi', () => {
  it('creates a city POI in WGS84 with its template look and static attributes', async () => {
    const poi = await ok<PoiDetail>(
      owner,
      'creatPoi',
      cityPoi({ heading: 45, devicecode: 'CAM-1' }),
    )
    expect(poi).toMatchObject({
      projectid: city.id,
      name: 'Gate camera',
      type: '2D',
      category_id: camera.id,
      category_node_id: camera.category_id,
      poicategory_code: 'CAM-2D',
      x: 121.5,
      y: 31.2,
      z: 12,
      heading: 45,
      floor_id: '',
      devicecode: 'CAM-1',
      iconpath: camera.iconpath,
      template_name: camera.name,
      modelList: [],
    })
    // Earth-centred metres of the same point: about 6,370 km from the centre
    const radius = Math.hypot(poi.cartisian_x, poi.cartisian_y, poi.cartisian_z)
    expect(radius).toBeGreaterThan(6_360_000)
    expect(radius).toBeLessThan(6_380_000)
    expect(poi.customs.map((custom) => custom.property_column).sort()).toEqual([
      'brand',
      'stream_url',
    ])
    // a form post (SPEC §7: most calls are form-encoded) does the same
    const form = await callApi<PoiDetail>(app(), {
      url: '/web/poi/creatPoi',
      token: (owner as { token: string }).token,
      form: {
        projectid: city.id,
        name: 'Form camera',
        category_id: camera.id,
        x: '121.51',
        y: '31.21',
      },
    })
    expect(form.envelope.datum).toMatchObject({ name: 'Form camera', x: 121.51, z: 0 })
  })

  it('creates a building POI on a floor of the project, in scene metres', async () => {
    const poi = await ok<PoiDetail>(
      owner,
      'creatPoi',
      buildingPoi({ customs: [{ property_column: 'range_m', column_value: '50' }] }),
    )
    expect(poi).toMatchObject({ floor_id: floors[0], x: 4, y: 1.5, z: -2, cartisian_x: 4 })
    expect(poi.customs).toEqual([
      expect.objectContaining({
        property_column: 'range_m',
        column_des: 'Range',
        column_value: '50',
      }),
    ])
  })

  it('takes a POI with many long custom properties (over the default 64 KB body limit)', async () => {
    const customs = Array.from({ length: 150 }, (_, index) => ({
      property_column: `note_${index}`,
      column_value: 'x'.repeat(450),
    }))
    const poi = await ok<PoiDetail>(owner, 'creatPoi', buildingPoi({ name: 'Notes', customs }))
    expect(poi.customs).toHaveLength(151)
  })

  it('refuses bad input with a clear message and writes nothing', async () => {
    const before = await countPois(app())
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [cityPoi({ category_id: undefined }), 400, 'poi.selectCategory', 'category_id'],
      [cityPoi({ category_id: '' }), 400, 'poi.selectCategory', 'category_id'],
      [cityPoi({ x: 181 }), 400, 'poi.longitudeRange', 'x'],
      [cityPoi({ y: -91 }), 400, 'poi.latitudeRange', 'y'],
      [cityPoi({ z: 1e9 }), 400, 'validation.tooBig', 'z'],
      [cityPoi({ heading: 181 }), 400, 'validation.tooBig', 'heading'],
      [cityPoi({ pitch: -91 }), 400, 'validation.tooSmall', 'pitch'],
      [cityPoi({ x: 'NaN' }), 400, 'validation.expectedNumber', 'x'],
      [cityPoi({ x: 'Infinity' }), 400, 'validation.expectedNumber', 'x'],
      [cityPoi({ category_id: theirs.id }), 400, 'poi.templateNotUsable', 'category_id'],
      [cityPoi({ floor_id: floors[0] }), 400, 'poi.floorNotFound', 'floor_id'],
      [cityPoi({ distance_min: 50, distance_max: 10 }), 400, 'poi.distanceOrder', 'distance_min'],
      [cityPoi({ pid: 'no-such-poi' }), 400, 'poi.parentNotFound', 'pid'],
      [cityPoi({ modelList: ['no-such-model'] }), 400, 'poi.modelNotFound', 'modelList'],
      [buildingPoi({ floor_id: undefined }), 400, 'poi.selectFloor', 'floor_id'],
      [buildingPoi({ floor_id: otherFloor }), 400, 'poi.floorNotFound', 'floor_id'],
      [buildingPoi({ x: 2e6 }), 400, 'validation.tooBig', 'x'],
      [buildingPoi({ name: '  ' }), 400, 'validation.tooShort', 'name'],
    ]
    for (const [body, status, messageId, field] of cases) {
      const answer = await call<{ details: Array<{ field: string; messageId: string }> }>(
        owner,
        'creatPoi',
        body,
      )
      expect(answer.statusCode, `${field}: ${answer.envelope.message}`).toBe(status)
      const details = answer.envelope.datum.details
      expect(details[0], JSON.stringify(details)).toMatchObject({ field, messageId })
    }
    expect(await countPois(app())).toBe(before)
  })

  it('keeps device codes unique per project (another project may reuse one)', async () => {
    await ok(owner, 'creatPoi', cityPoi({ devicecode: 'DUP-1' }))
    expectRefused(
      await call(owner, 'creatPoi', cityPoi({ devicecode: 'DUP-1' })),
      400,
      'poi.devicecodeTaken',
    )
    await ok(owner, 'creatPoi', buildingPoi({ devicecode: 'DUP-1' }))
  })

  it('follows the access matrix', async () => {
    const tokenHolder = {
      projectToken: await projectTokenOf(app(), (owner as { token: string }).token, city),
    }
    expectRefused(await call(other, 'creatPoi', cityPoi()), 403, 'project.foreign')
    expectRefused(await call(guest, 'creatPoi', cityPoi()), 403)
    expectRefused(await call(undefined, 'creatPoi', cityPoi()), 401)
    expectRefused(await call(tokenHolder, 'creatPoi', cityPoi()), 401)
    expectRefused(
      await call(owner, 'creatPoi', cityPoi({ projectid: 'no-such-project' })),
      404,
      'project.notFound',
    )
    const byAdmin = await ok<PoiDetail>(admin, 'creatPoi', cityPoi({ name: 'By admin' }))
    expect(byAdmin.projectid).toBe(city.id)
  })
})

describe('updataPoi and deletePoi', () => {
  it('changes fields and custom property values, and refuses parent cycles', async () => {
    const a = await ok<PoiDetail>(owner, 'creatPoi', cityPoi({ name: 'A' }))
    const b = await ok<PoiDetail>(owner, 'creatPoi', cityPoi({ name: 'B', pid: a.id }))
    const c = await ok<PoiDetail>(owner, 'creatPoi', cityPoi({ name: 'C', pid: b.id }))
    const changed = await ok<PoiDetail>(owner, 'updataPoi', {
      id: a.id,
      name: 'A moved',
      x: 121.6,
      heading: -90,
      customs: [{ property_column: 'brand', column_value: 'Acme' }],
    })
    expect(changed).toMatchObject({ name: 'A moved', x: 121.6, y: 31.2, heading: -90 })
    expect(changed.customs.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Acme',
    )
    expect(changed.cartisian_x).not.toBe(a.cartisian_x)

    // a → c would close a → c → b → a
    const cycle = await call(owner, 'updataPoi', { id: a.id, pid: c.id })
    expectRefused(cycle, 400, 'poi.parentCycle')
    expect(cycle.envelope.message).toContain('Unable to link parent POI.')
    expectRefused(await call(owner, 'updataPoi', { id: a.id, pid: a.id }), 400, 'poi.parentCycle')
    expectRefused(await call(owner, 'updataPoi', { id: a.id, x: 500 }), 400, 'poi.longitudeRange')
    expect((await ok<PoiDetail>(owner, 'findPoiDetail', { id: a.id })).pid).toBe('')

    expectRefused(await call(other, 'updataPoi', { id: a.id, name: 'x' }), 404, 'poi.notFound')
    expectRefused(await call(guest, 'updataPoi', { id: a.id, name: 'x' }), 403)
    expectRefused(await call(undefined, 'updataPoi', { id: a.id, name: 'x' }), 401)
    expect((await ok<PoiDetail>(admin, 'updataPoi', { id: a.id, state: 'alarm' })).state).toBe(
      'alarm',
    )

    // deleting b leaves c without a parent
    expectRefused(await call(other, 'deletePoi', { id: b.id }), 404, 'poi.notFound')
    expect(await ok(owner, 'deletePoi', { id: b.id })).toEqual({ deleted: 1 })
    expect((await ok<PoiDetail>(owner, 'findPoiDetail', { id: c.id })).pid).toBe('')
    expectRefused(await call(owner, 'findPoiDetail', { id: b.id }), 404, 'poi.notFound')
  })

  it('moves a building POI to another floor of its project only', async () => {
    const poi = await ok<PoiDetail>(owner, 'creatPoi', buildingPoi({ name: 'Mover' }))
    expect(
      (await ok<PoiDetail>(owner, 'updataPoi', { id: poi.id, floor_id: floors[1] })).floor_id,
    ).toBe(floors[1])
    expectRefused(
      await call(owner, 'updataPoi', { id: poi.id, floor_id: otherFloor }),
      400,
      'poi.floorNotFound',
    )
    expectRefused(
      await call(owner, 'updataPoi', { id: poi.id, floor_id: '' }),
      400,
      'poi.selectFloor',
    )
  })

  it('makes a POI use another template: its attributes follow', async () => {
    const poi = await ok<PoiDetail>(owner, 'creatPoi', buildingPoi({ name: 'Retemplated' }))
    const changed = await ok<PoiDetail>(owner, 'updataPoi', { id: poi.id, category_id: camera.id })
    expect(changed).toMatchObject({ category_id: camera.id, poicategory_code: 'CAM-2D' })
    expect(changed.customs.map((custom) => custom.property_column).sort()).toEqual([
      'brand',
      'stream_url',
    ])
    expectRefused(
      await call(owner, 'updataPoi', { id: poi.id, category_id: theirs.id }),
      400,
      'poi.templateNotUsable',
    )
  })
})

describe('list calls', () => {
  it('creates copies with or without their custom properties (isCopyProperties)', async () => {
    const source = await ok<PoiDetail>(owner, 'creatPoi', cityPoi({ name: 'Source' }))
    await ok(owner, 'updataPoi', {
      id: source.id,
      customs: [{ property_column: 'brand', column_value: 'Copied brand' }],
    })
    const copy = (index: number) => ({
      name: `Copy ${index}`,
      category_id: camera.id,
      x: 121.5 + index * 0.0001,
      y: 31.2,
      source_id: source.id,
    })
    const withProps = await ok<CreatedPoisDatum>(owner, 'creatPoiList', {
      projectid: city.id,
      list: [copy(1), copy(2)],
    })
    expect(withProps.count).toBe(2)
    expect(withProps.list.map((poi) => poi.name)).toEqual(['Copy 1', 'Copy 2'])
    const copied = await ok<PoiCustom[]>(owner, 'selectCustomByPoi', { id: withProps.list[0]!.id })
    expect(copied.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Copied brand',
    )
    const without = await ok<CreatedPoisDatum>(
      owner,
      'creatPoiList',
      { projectid: city.id, list: [copy(3)] },
      'isCopyProperties=false',
    )
    const fresh = await ok<PoiCustom[]>(owner, 'selectCustomByPoi', { id: without.list[0]!.id })
    expect(fresh.find((custom) => custom.property_column === 'brand')?.column_value).not.toBe(
      'Copied brand',
    )
  })

  it('is all or nothing: one bad item refuses the list, naming it', async () => {
    const before = await countPois(app(), city.id)
    const list = Array.from({ length: 10 }, (_, index) => ({
      name: `Bulk ${index}`,
      category_id: camera.id,
      x: index === 5 ? 200 : 121,
      y: 31,
    }))
    const answer = await call<{ details: Array<{ field: string }> }>(owner, 'creatPoiList', {
      projectid: city.id,
      list,
    })
    expectRefused(answer, 400, 'poi.longitudeRange')
    expect(answer.envelope.datum.details[0]!.field).toBe('list.5.x')
    const repeated = await call(owner, 'creatPoiList', {
      projectid: city.id,
      list: [
        { ...list[0], devicecode: 'SAME' },
        { ...list[1], devicecode: 'SAME' },
      ],
    })
    expectRefused(repeated, 400, 'poi.devicecodeRepeated')
    expect(await countPois(app(), city.id)).toBe(before)
  })

  it('refuses more than 100,000 POIs in one call, naming the limit', async () => {
    const item = { name: 'x', category_id: camera.id, x: 1, y: 1 }
    const list = Array.from({ length: 100_001 }, () => item)
    const answer = await call<{ details: Array<{ messageId: string; params: unknown }> }>(
      owner,
      'creatPoiList',
      { projectid: city.id, list },
    )
    expectRefused(answer, 400)
    expect(answer.envelope.datum.details[0]).toMatchObject({
      messageId: 'poi.tooManyInList',
      params: { max: 100_000, count: 100_001 },
    })
    expect(JSON.stringify(answer.envelope)).toContain('100000')
    const ids = Array.from({ length: 100_001 }, (_, index) => `id-${index}`)
    expectRefused(await call(owner, 'deletePoiList', { ids }), 400)
    expectRefused(
      await call(owner, 'updataPoiList', { list: ids.map((id) => ({ id, name: 'x' })) }),
      400,
    )
  }, 60_000)

  it("changes nothing when a bulk update or delete names another user's POI", async () => {
    const created = await ok<CreatedPoisDatum>(owner, 'creatPoiList', {
      projectid: city.id,
      list: [1, 2, 3].map((index) => ({
        name: `Mine ${index}`,
        category_id: camera.id,
        x: 121,
        y: 31,
      })),
    })
    const foreign = await ok<PoiDetail>(other, 'creatPoi', {
      projectid: otherBuilding.id,
      name: 'Theirs',
      category_id: theirs.id,
      x: 0,
      y: 0,
      floor_id: otherFloor,
    })
    const ids = [...created.list.map((poi) => poi.id), foreign.id]
    expectRefused(
      await call(owner, 'updataPoiList', { list: ids.map((id) => ({ id, name: 'Renamed' })) }),
      404,
      'poi.notYours',
    )
    expectRefused(await call(owner, 'deletePoiList', { ids }), 404, 'poi.notYours')
    expectRefused(
      await call(owner, 'deletePoiList', { ids: [created.list[0]!.id, 'made-up'] }),
      404,
      'poi.notYours',
    )
    for (const poi of created.list) {
      expect((await ok<PoiDetail>(owner, 'findPoiDetail', { id: poi.id })).name).toBe(poi.name)
    }
    expect((await ok<PoiDetail>(other, 'findPoiDetail', { id: foreign.id })).name).toBe('Theirs')

    // the owner's own: applied together, device codes may be swapped in one call
    await ok(owner, 'updataPoiList', {
      list: [
        { id: created.list[0]!.id, devicecode: 'SWAP-A' },
        { id: created.list[1]!.id, devicecode: 'SWAP-B' },
      ],
    })
    expect(
      await ok(owner, 'updataPoiList', {
        list: [
          { id: created.list[0]!.id, devicecode: 'SWAP-B', state: 'on' },
          { id: created.list[1]!.id, devicecode: 'SWAP-A', state: 'on' },
          { id: created.list[2]!.id, state: 'on' },
        ],
      }),
    ).toEqual({ count: 3 })
    const first = await ok<PoiDetail>(owner, 'findPoiDetail', { id: created.list[0]!.id })
    expect(first).toMatchObject({ devicecode: 'SWAP-B', state: 'on' })
    expect(await ok(owner, 'deletePoiList', { ids: created.list.map((poi) => poi.id) })).toEqual({
      count: 3,
    })
    expectRefused(await call(guest, 'deletePoiList', { ids: [foreign.id] }), 403)
  })
})

describe('reads', () => {
  let project: Project
  let pois: Poi[]

  beforeAll(async () => {
    project = await createProject(app(), (owner as { token: string }).token, {
      kind: 'building',
      name: 'Query building',
    })
    const [f1, f2] = await addFloors(app(), project.id, ['Ground', 'Roof'])
    const list = Array.from({ length: 30 }, (_, index) => ({
      name: index % 3 === 0 ? `Camera ${index}` : `Smoke detector ${index}`,
      category_id: index % 3 === 0 ? camera.id : mine.id,
      x: index,
      y: 0,
      floor_id: index < 10 ? f1 : f2,
      devicecode: `DEV-${String(index).padStart(3, '0')}`,
    }))
    pois = (await ok<CreatedPoisDatum>(owner, 'creatPoiList', { projectid: project.id, list })).list
  })

  it('pages and filters by template, category, floor, name, device code and kind', async () => {
    const page = (body: Record<string, unknown>, query = 'pageNo=1&pageSize=100') =>
      ok<PoiPage>(owner, 'findPoi', { projectid: project.id, ...body }, query)
    const first = await page({}, 'pageNo=2&pageSize=7')
    expect(first).toMatchObject({ total: 30, pageNo: 2, pageSize: 7 })
    expect(first.list.map((poi) => poi.id)).toEqual(pois.slice(7, 14).map((poi) => poi.id))
    expect((await page({ category_id: camera.id })).total).toBe(10)
    expect((await page({ category_node_id: camera.category_id })).total).toBe(10)
    expect((await page({ floor_id: pois[0]!.floor_id })).total).toBe(10)
    expect((await page({ name: 'smoke' })).total).toBe(20)
    expect((await page({ name: 'camera 1' })).list.map((poi) => poi.name).sort()).toEqual([
      'Camera 12',
      'Camera 15',
      'Camera 18',
    ])
    expect((await page({ name: 'a' })).total).toBe(10)
    expect((await page({ name: 'zz' })).total).toBe(0)
    // a name search's total comes with its page, and past its last page too
    const secondSmoke = await page({ name: 'smoke' }, 'pageNo=2&pageSize=7')
    expect(secondSmoke).toMatchObject({ total: 20, pageNo: 2 })
    expect(secondSmoke.list).toHaveLength(7)
    expect(await page({ name: 'smoke' }, 'pageNo=4&pageSize=7')).toMatchObject({
      total: 20,
      list: [],
    })
    expect((await page({ devicecode: 'DEV-02' })).total).toBe(10)
    expect((await page({ devicecode: 'DEV-029' })).list[0]!.name).toBe('Smoke detector 29')
    expect(
      (await page({ type: '2D', category_id: mine.id, floor_id: pois[0]!.floor_id })).total,
    ).toBe(6)
    const byName = await page({ sort: 'name', order: 'desc' }, 'pageSize=1')
    expect(byName.list[0]!.name).toBe('Smoke detector 8')
  })

  it('finds names by every gram of the keyword when no single gram is rare', async () => {
    // more POIs than the gram count's cap (2,000) share each gram of 'door 1', so the search
    // narrows by the POIs that have them all
    const doors = await createProject(app(), (owner as { token: string }).token, {
      kind: 'building',
      name: 'Doors',
    })
    const [floor] = await addFloors(app(), doors.id, ['Ground'])
    const list = Array.from({ length: 2_100 }, (_, index) => ({
      name: `Door ${index}`,
      category_id: camera.id,
      x: index,
      y: 0,
      floor_id: floor,
    }))
    await ok<CreatedPoisDatum>(owner, 'creatPoiList', { projectid: doors.id, list })
    const find = (body: Record<string, unknown>, query: string) =>
      ok<PoiPage>(owner, 'findPoi', { projectid: doors.id, ...body }, query)
    // Door 1, 10–19, 100–199, 1000–1999
    const matching = list.filter((poi) => poi.name.startsWith('Door 1')).map((poi) => poi.name)
    expect(matching).toHaveLength(1_111)
    const first = await find({ name: 'DOOR 1', sort: 'name', order: 'asc' }, 'pageSize=5')
    expect(first.total).toBe(1_111)
    expect(first.list.map((poi) => poi.name)).toEqual(matching.sort().slice(0, 5))
    // Door 20, 200–209, 2000–2099
    expect((await find({ name: 'door 20' }, 'pageSize=5')).total).toBe(111)
    // Door 500–509 have every gram looked up (the first six), none has the name
    expect((await find({ name: 'door 5000' }, 'pageSize=5')).total).toBe(0)
  })

  it('answers the scene its POIs in columns', async () => {
    const columns = await ok<ProjectPoisDatum>(owner, 'findProjectPoiDetail', {
      projectid: project.id,
    })
    expect(columns.count).toBe(30)
    expect(columns.ids).toEqual(pois.map((poi) => poi.id))
    expect(columns.positions.slice(0, 6)).toEqual([0, 0, 0, 1, 0, 0])
    expect(columns.templates.map((template) => template.id)).toEqual([camera.id, mine.id])
    expect(columns.templates[0]).toMatchObject({ type: '2D', iconpath: camera.iconpath })
    expect(columns.template.slice(0, 4)).toEqual([0, 1, 1, 0])
    expect(columns.floors).toHaveLength(2)
    expect(columns.floor[0]).toBe(0)
    expect(columns.floor[29]).toBe(1)
    expect(columns.devicecode[3]).toBe('DEV-003')
  })

  it('lets readers read and nobody else (owner, admin, token holder; case rules)', async () => {
    const holder = {
      projectToken: await projectTokenOf(app(), (owner as { token: string }).token, project),
    }
    const poi = pois[0]!
    for (const reader of [owner, admin, holder]) {
      expect((await ok<PoiPage>(reader, 'findPoi', { projectid: project.id })).total).toBe(30)
      expect(
        (await ok<ProjectPoisDatum>(reader, 'findProjectPoiDetail', { projectid: project.id }))
          .count,
      ).toBe(30)
      expect((await ok<PoiDetail>(reader, 'findPoiDetail', { id: poi.id })).id).toBe(poi.id)
      expect(await ok<PoiCustom[]>(reader, 'selectCustomByPoi', { id: poi.id })).toHaveLength(2)
      expect(await ok(reader, 'findmodelidbypoi', { id: poi.id })).toEqual({
        poi_id: poi.id,
        modelList: [],
      })
      expect(await ok(reader, 'findModelByPoi', { id: poi.id })).toEqual([])
    }
    for (const stranger of [other, guest]) {
      expectRefused(
        await call(stranger, 'findPoi', { projectid: project.id }),
        403,
        'project.foreign',
      )
      expectRefused(
        await call(stranger, 'findProjectPoiDetail', { projectid: project.id }),
        403,
        'project.foreign',
      )
      expectRefused(await call(stranger, 'findPoiDetail', { id: poi.id }), 404, 'poi.notFound')
      expectRefused(await call(stranger, 'selectCustomByPoi', { id: poi.id }), 404, 'poi.notFound')
      expectRefused(await call(stranger, 'findmodelidbypoi', { id: poi.id }), 404)
      expectRefused(await call(stranger, 'findModelByPoi', { id: poi.id }), 404)
    }
    expectRefused(await call(undefined, 'findPoi', { projectid: project.id }), 401)
    expectRefused(await call(undefined, 'findPoiDetail', { id: poi.id }), 401)
    // a project case is read by everyone signed in, changed by none of them
    await app()
      .deps.database.db.updateTable('projects')
      .set({ is_case: 1 })
      .where('id', '=', project.id)
      .execute()
    try {
      expect((await ok<PoiPage>(guest, 'findPoi', { projectid: project.id })).total).toBe(30)
      expect((await ok<PoiDetail>(other, 'findPoiDetail', { id: poi.id })).id).toBe(poi.id)
      expectRefused(await call(other, 'updataPoi', { id: poi.id, name: 'x' }), 404, 'poi.notFound')
      expectRefused(await call(other, 'deletePoiList', { ids: [poi.id] }), 404, 'poi.notYours')
    } finally {
      await app()
        .deps.database.db.updateTable('projects')
        .set({ is_case: 0 })
        .where('id', '=', project.id)
        .execute()
    }
    // a token of another project opens nothing here
    const cityHolder = {
      projectToken: await projectTokenOf(app(), (owner as { token: string }).token, city),
    }
    expectRefused(await call(cityHolder, 'findPoi', { projectid: project.id }), 403)
    expectRefused(await call(cityHolder, 'findPoiDetail', { id: poi.id }), 404)
  })
})

describe('model POIs', () => {
  it('links POIs to a model once and answers them both ways', async () => {
    const monomer = await addMonomer(app(), city.id, 'Tower A')
    const created = await ok<CreatedPoisDatum>(owner, 'creatPoiList', {
      projectid: city.id,
      list: [1, 2].map((index) => ({
        name: `Linked ${index}`,
        category_id: camera.id,
        x: 121,
        y: 31,
      })),
    })
    const ids = created.list.map((poi) => poi.id)
    expectRefused(await call(other, 'addPoi', { model_id: monomer, ids }), 404, 'poi.notYours')
    expect(await ok(owner, 'addPoi', { model_id: monomer, ids })).toEqual({ count: 2 })
    const again = await call(owner, 'addPoi', { model_id: monomer, ids: [ids[0]] })
    expectRefused(again, 409, 'poi.alreadyLinked')
    expect(again.envelope.message).toBe('Already linked.')
    expectRefused(
      await call(owner, 'addPoi', { model_id: 'no-such-model', ids }),
      400,
      'poi.modelNotFound',
    )
    const items = await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: monomer })
    expect(items.map((item) => [item.name, item.template_name, item.icon_path])).toEqual([
      ['Linked 1', camera.name, camera.iconpath],
      ['Linked 2', camera.name, camera.iconpath],
    ])
    expect(await ok(owner, 'findmodelidbypoi', { id: ids[0] })).toEqual({
      poi_id: ids[0],
      modelList: [monomer],
    })
    expect(await ok<PoiModel[]>(owner, 'findModelByPoi', { id: ids[0] })).toEqual([
      { id: monomer, modelname: 'Tower A', kind: 'monomer' },
    ])
    expectRefused(await call(other, 'selectPoisBymodel', { model_id: monomer }), 403)
    // modelList on an update replaces the links; a POI made with one is linked at once
    await ok(owner, 'updataPoi', { id: ids[1], modelList: [] })
    expect(
      await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: monomer }),
    ).toHaveLength(1)
    const made = await ok<PoiDetail>(
      owner,
      'creatPoi',
      cityPoi({ name: 'Made linked', modelList: [monomer] }),
    )
    expect(made.modelList).toEqual([monomer])
    expect(
      (await ok<PoiPage>(owner, 'findPoi', { projectid: city.id, model_id: monomer })).total,
    ).toBe(2)
  })
})

describe('project copy and delete', () => {
  it('carries POIs along (parents and floors point at the copies) and removes them', async () => {
    const ownerToken = (owner as { token: string }).token
    const source = await createProject(app(), ownerToken, { kind: 'building', name: 'To copy' })
    const [floor] = await addFloors(app(), source.id, ['Only floor'])
    const parent = await ok<PoiDetail>(owner, 'creatPoi', {
      projectid: source.id,
      name: 'Parent',
      category_id: mine.id,
      x: 1,
      y: 2,
      floor_id: floor,
    })
    await ok(owner, 'creatPoi', {
      projectid: source.id,
      name: 'Child',
      category_id: mine.id,
      x: 1,
      y: 2,
      floor_id: floor,
      pid: parent.id,
    })
    const copied = await callApi<Project>(app(), {
      url: '/web/project/copyProject',
      token: ownerToken,
      json: { id: source.id, name: 'Copied' },
    })
    expect(copied.envelope.code, copied.envelope.message).toBe('0')
    const copy = copied.envelope.datum
    const page = await ok<PoiPage>(owner, 'findPoi', { projectid: copy.id, sort: 'name' })
    const [child, copiedParent] = page.list
    expect(page.total).toBe(2)
    expect(child!.pid).toBe(copiedParent!.id)
    expect(copiedParent!.id).not.toBe(parent.id)
    expect(child!.floor_id).not.toBe(floor)
    expect(child!.floor_id).not.toBe('')
    expect(await ok<PoiCustom[]>(owner, 'selectCustomByPoi', { id: child!.id })).toHaveLength(1)
    expect((await ok<PoiPage>(owner, 'findPoi', { projectid: copy.id, name: 'chil' })).total).toBe(
      1,
    )

    const deleted = await callApi(app(), {
      url: '/web/project/deleteProject',
      token: ownerToken,
      json: { id: source.id },
    })
    expect(deleted.envelope.code, deleted.envelope.message).toBe('0')
    expect(await countPois(app(), source.id)).toBe(0)
    expect(await countPois(app(), copy.id)).toBe(2)
  })
})

describe('page totals', () => {
  it('stay right through creates, moves between floors and templates, and deletes', async () => {
    const ownerToken = (owner as { token: string }).token
    const project = await createProject(app(), ownerToken, { kind: 'building', name: 'Totals' })
    const [f1, f2] = await addFloors(app(), project.id, ['One', 'Two'])
    const created = await ok<CreatedPoisDatum>(owner, 'creatPoiList', {
      projectid: project.id,
      list: Array.from({ length: 8 }, (_, index) => ({
        name: `T${index}`,
        category_id: mine.id,
        x: index,
        y: 0,
        floor_id: f1,
      })),
    })
    const ids = created.list.map((poi) => poi.id)
    await ok(owner, 'updataPoiList', {
      list: ids.slice(0, 3).map((id) => ({ id, floor_id: f2, category_id: camera.id })),
    })
    await ok(owner, 'deletePoiList', { ids: [ids[0], ids[7]] })
    // the templates area moves POIs between templates too
    const moved = await callApi(app(), {
      url: '/web/poi/updatePoiCategoryId',
      token: ownerToken,
      json: { id: [ids[6]], poicategoryid: camera.id },
    })
    expect(moved.envelope.code, moved.envelope.message).toBe('0')
    const total = async (filter: Record<string, unknown>) =>
      (await ok<PoiPage>(owner, 'findPoi', { projectid: project.id, ...filter })).total
    const counted = async (filter: Record<string, unknown>) =>
      (await ok<PoiPage>(owner, 'findPoi', { projectid: project.id, ...filter }, 'pageSize=500'))
        .list.length
    for (const filter of [
      {},
      { floor_id: f1 },
      { floor_id: f2 },
      { category_id: mine.id },
      { category_id: camera.id },
      { category_node_id: camera.category_id },
    ]) {
      expect(await total(filter), JSON.stringify(filter)).toBe(await counted(filter))
    }
    expect(await total({})).toBe(6)
    expect(await total({ category_id: camera.id })).toBe(3)
    expect(await total({ floor_id: f2 })).toBe(2)
  })
})
