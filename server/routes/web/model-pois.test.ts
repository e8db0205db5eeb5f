import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GisModel } from '../../../contract/city'
import { type CopyModelDatum, modelCopyRoutes } from '../../../contract/model-copy'
import type {
  CreatedPoisDatum,
  ModelPoiItem,
  PoiCustom,
  PoiDetail,
  PoiModel,
  ProjectPoisDatum,
} from '../../../contract/pois'
import type { Project } from '../../../contract/project'
import {
  type CategoryNode,
  type Template,
  type TemplatePage,
  templateRoutes,
} from '../../../contract/templates'
import {
  callApi,
  createTestApp,
  signIn,
  type TestApp,
  testAdmin,
  testEditor,
} from '../../testing/test-app'
import { createProject, signInNewUser } from './project-test-kit'
import {
  type Answer,
  addMonomer,
  type Caller,
  callPoi,
  countPois,
  expectRefused,
  libraryCamera,
  okPoi,
  projectTokenOf,
} from './pois-test-kit'

/**
 * The model-POI page's calls (issue 16 "model POIs", `/home/model/poi`) on a real database:
 * what `selectPoisBymodel`, `findmodelidbypoi` and `findModelByPoi` answer in the cases the
 * page relies on, and model copy (`/poi/copyModel`): a model with its POIs, all or nothing,
 * with the access matrix.
 */

let test: TestApp
let owner: Caller
let other: Caller
let guest: Caller
let admin: Caller
let city: Project
let camera: Template

const app = () => test.app
const call = <Datum>(caller: Caller, name: Parameters<typeof callPoi>[2], body: unknown) =>
  callPoi<Datum>(app(), caller, name, body)
const ok = <Datum>(caller: Caller, name: Parameters<typeof callPoi>[2], body: unknown) =>
  okPoi<Datum>(app(), caller, name, body)

/** Calls `/poi/copyModel`. */
async function copyModel(caller: Caller, body: unknown): Promise<Answer<CopyModelDatum>> {
  return (await callApi<CopyModelDatum>(app(), {
    url: modelCopyRoutes.copyModel.path,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
  })) as Answer<CopyModelDatum>
}

/** How many monomer models the city project has. */
async function countModels(): Promise<number> {
  const rows = await app()
    .deps.database.db.selectFrom('gis_models')
    .select('id')
    .where('project_id', '=', city.id)
    .execute()
  return rows.length
}

/** Two POIs (a parent and its child) attached to a new model, the parent with a device code. */
async function modelWithPois(name: string) {
  const model = await addMonomer(app(), city.id, name)
  const parent = await ok<PoiDetail>(owner, 'creatPoi', {
    projectid: city.id,
    name: `${name} gate`,
    category_id: camera.id,
    x: 121.5,
    y: 31.2,
    z: 10,
    heading: 45,
    devicecode: `${name}-DEV`,
    cameraPs: '{"view":1}',
    modelList: [model],
  })
  const child = await ok<PoiDetail>(owner, 'creatPoi', {
    projectid: city.id,
    name: `${name} lobby`,
    category_id: camera.id,
    x: 121.5001,
    y: 31.2001,
    z: 3,
    pid: parent.id,
    modelList: [model],
  })
  await ok(owner, 'updataPoi', {
    id: parent.id,
    customs: [{ property_column: 'brand', column_value: 'Model brand' }],
  })
  return { model, parent, child }
}

beforeAll(async () => {
  test = await createTestApp()
  owner = { token: await signIn(test.app, testEditor) }
  admin = { token: await signIn(test.app, testAdmin) }
  other = { token: await signInNewUser(test.app, 'model-poi-other') }
  guest = { token: await signInNewUser(test.app, 'model-poi-guest', 'guest') }
  const ownerToken = (owner as { token: string }).token
  city = await createProject(test.app, ownerToken, { name: 'Model POI city' })
  camera = await libraryCamera(test.app, ownerToken)
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('model POI reads', () => {
  it('answers a model without POIs as an empty list, and an unknown model as not found', async () => {
    const empty = await addMonomer(app(), city.id, 'Empty tower')
    expect(await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: empty })).toEqual([])
    expectRefused(
      await call(owner, 'selectPoisBymodel', { model_id: 'no-such-model' }),
      404,
      'poi.modelNotFound',
    )
    // a model of a project the caller may not read stays hidden
    expectRefused(await call(other, 'selectPoisBymodel', { model_id: empty }), 403)
  })

  it('lists a POI under every model it is attached to, until it is detached or deleted', async () => {
    const a = await addMonomer(app(), city.id, 'Tower A')
    const b = await addMonomer(app(), city.id, 'Tower B')
    const poi = await ok<PoiDetail>(owner, 'creatPoi', {
      projectid: city.id,
      name: 'Shared antenna',
      category_id: camera.id,
      x: 121.4,
      y: 31.1,
      modelList: [a, b],
    })
    const names = async (model: string) =>
      (await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: model })).map(
        (item) => item.name,
      )
    expect(await names(a)).toEqual(['Shared antenna'])
    expect(await names(b)).toEqual(['Shared antenna'])
    expect(
      (await ok<PoiModel[]>(owner, 'findModelByPoi', { id: poi.id }))
        .map((m) => `${m.modelname} ${m.kind}`)
        .sort(),
    ).toEqual(['Tower A monomer', 'Tower B monomer'])
    // detaching from one model (the page's delete action) keeps the other link and the POI
    await ok(owner, 'updataPoi', { id: poi.id, modelList: [b] })
    expect(await names(a)).toEqual([])
    expect(await ok(owner, 'findmodelidbypoi', { id: poi.id })).toEqual({
      poi_id: poi.id,
      modelList: [b],
    })
    await ok(owner, 'deletePoi', { id: poi.id })
    expect(await names(b)).toEqual([])
  })

  it('lets a project-token holder read a model’s POIs (the public preview)', async () => {
    const { model } = await modelWithPois('Token tower')
    const holder = {
      projectToken: await projectTokenOf(app(), (owner as { token: string }).token, city),
    }
    const items = await ok<ModelPoiItem[]>(holder, 'selectPoisBymodel', { model_id: model })
    expect(items.map((item) => item.name)).toEqual(['Token tower gate', 'Token tower lobby'])
    expect(items[0]!.icon_path).toBe(camera.iconpath)
  })
})

describe('model copy', () => {
  it('copies a model with its POIs moved by each copy’s offset, attached to the copies', async () => {
    const { model, parent } = await modelWithPois('Copy tower')
    const poisBefore = await countPois(app(), city.id)
    const answer = await copyModel(owner, {
      model_id: model,
      copies: [
        { modelname: 'Copy tower 2', east: 100 },
        { modelname: 'Copy tower 3', north: 50, up: 6 },
      ],
    })
    expect(answer.envelope.code, answer.envelope.message).toBe('0')
    const { models, poiCount } = answer.envelope.datum
    expect(poiCount).toBe(4)
    expect(models.map((copy: GisModel) => copy.modelname)).toEqual(['Copy tower 2', 'Copy tower 3'])
    expect(models[0]!.feature_ids).toEqual([1, 2])
    expect(await countPois(app(), city.id)).toBe(poisBefore + 4)

    const first = await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: models[0]!.id })
    expect(first.map((item) => item.name)).toEqual(['Copy tower gate', 'Copy tower lobby'])
    const gate = first[0]!
    // 100 m east at 31.2° N is about 0.00105° of longitude
    expect(gate.x - parent.x).toBeCloseTo(100 / (111_320 * Math.cos((31.2 * Math.PI) / 180)), 5)
    expect(gate.y).toBeCloseTo(parent.y, 9)
    expect(gate.heading).toBe(45)
    expect(gate.modelList).toEqual([models[0]!.id])
    // the device code and the saved view stay with the original; the parent is the copied gate
    expect(gate.devicecode).toBe('')
    expect(gate.cameraPs).toBe('')
    expect(first[1]!.pid).toBe(gate.id)
    const customs = await ok<PoiCustom[]>(owner, 'selectCustomByPoi', { id: gate.id })
    expect(customs.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Model brand',
    )

    const second = await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: models[1]!.id })
    expect(second[0]!.y).toBeGreaterThan(parent.y)
    expect(second[0]!.z).toBeCloseTo(16, 9)
    // the original keeps its POIs and links
    expect(
      (await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: model })).map(
        (item) => item.id,
      ),
    ).toContain(parent.id)
  })

  it('copies without custom property values when isCopyProperties is false', async () => {
    const { model } = await modelWithPois('Plain tower')
    const answer = await copyModel(owner, {
      model_id: model,
      isCopyProperties: false,
      copies: [{ modelname: 'Plain tower 2', east: 20 }],
    })
    const copied = await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', {
      model_id: answer.envelope.datum.models[0]!.id,
    })
    const customs = await ok<PoiCustom[]>(owner, 'selectCustomByPoi', { id: copied[0]!.id })
    expect(customs.find((custom) => custom.property_column === 'brand')?.column_value).toBe(
      'Hikvision',
    )
  })

  it('copies nothing at all when one copy is refused', async () => {
    const { model } = await modelWithPois('Edge tower')
    const models = await countModels()
    const pois = await countPois(app(), city.id)
    // the second copy would move its POIs 20,000 km north: past the pole
    const answer = await copyModel(owner, {
      model_id: model,
      copies: [
        { modelname: 'Fine copy', east: 10 },
        { modelname: 'Off the map', north: 100_000 * 60 },
      ],
    })
    expectRefused(answer, 400)
    const offTheMap = await copyModel(owner, {
      model_id: model,
      copies: [
        { modelname: 'Fine copy', east: 10 },
        { modelname: 'Off the map', north: 100_000, up: 100_000 },
      ],
    })
    expectRefused(offTheMap, 400, 'modelCopy.outOfRange')
    expect(JSON.stringify(offTheMap.envelope.datum)).toContain('copies.1')
    expect(await countModels()).toBe(models)
    expect(await countPois(app(), city.id)).toBe(pois)
  })

  it('refuses bad input with a clear message', async () => {
    const { model } = await modelWithPois('Input tower')
    expectRefused(await copyModel(owner, { model_id: model, copies: [] }), 400)
    expectRefused(await copyModel(owner, { model_id: model, copies: [{ modelname: ' ' }] }), 400)
    expectRefused(
      await copyModel(owner, {
        model_id: model,
        copies: Array.from({ length: 101 }, (_, index) => ({ modelname: `C${index}` })),
      }),
      400,
    )
    expectRefused(
      await copyModel(owner, { model_id: model, copies: [{ modelname: 'C', east: 'far' }] }),
      400,
    )
    expectRefused(
      await copyModel(owner, { model_id: 'no-such-model', copies: [{ modelname: 'C' }] }),
      404,
      'poi.modelNotFound',
    )
  })

  it('follows the access matrix: other users’ models are unknown, admins may copy', async () => {
    const { model } = await modelWithPois('Guarded tower')
    const models = await countModels()
    const body = { model_id: model, copies: [{ modelname: 'Theirs now', east: 5 }] }
    expectRefused(await copyModel(other, body), 404, 'poi.modelNotFound')
    expectRefused(await copyModel(guest, body), 403)
    expectRefused(await copyModel(undefined, body), 401)
    expect(await countModels()).toBe(models)
    const byAdmin = await copyModel(admin, { ...body, copies: [{ modelname: 'By admin' }] })
    expect(byAdmin.envelope.code).toBe('0')
    expect(byAdmin.envelope.datum.models[0]!.project_id).toBe(city.id)
    expect(byAdmin.envelope.datum.poiCount).toBe(2)
  })

  it('copies a model without POIs as the model alone', async () => {
    const model = await addMonomer(app(), city.id, 'Bare tower')
    const answer = await copyModel(owner, { model_id: model, copies: [{ modelname: 'Bare 2' }] })
    expect(answer.envelope.datum.poiCount).toBe(0)
    expect(answer.envelope.datum.models).toHaveLength(1)
    const created = await ok<CreatedPoisDatum | ModelPoiItem[]>(owner, 'selectPoisBymodel', {
      model_id: answer.envelope.datum.models[0]!.id,
    })
    expect(created).toEqual([])
  })
})

/** Calls a template route by name. */
async function callTemplate<Datum>(
  caller: Caller,
  name: keyof typeof templateRoutes,
  body: unknown,
): Promise<Datum> {
  const answer = await callApi<Datum>(app(), {
    url: templateRoutes[name].path,
    json: body,
    ...(caller !== undefined && 'token' in caller ? { token: caller.token } : {}),
  })
  if (answer.envelope.code !== '0') throw new Error(`${name}: ${answer.envelope.message}`)
  return answer.envelope.datum
}

describe('seeded library names', () => {
  const keyOf = async (code: string) => {
    const page = await callTemplate<TemplatePage>(owner, 'selectTemplatePage', {
      keyword: code,
      pageSize: 50,
    })
    const found = page.list.find((template) => template.poicategory_code === code)!
    return { name: found.name, name_key: found.name_key, id: found.id }
  }

  it('answer a catalogue id beside the stored name, so the two cameras read apart', async () => {
    expect(await keyOf('CAM-2D')).toMatchObject({
      name: 'Camera',
      name_key: 'library.template.camera2d',
    })
    expect(await keyOf('camera-3d')).toMatchObject({
      name: 'Camera',
      name_key: 'library.template.camera3d',
    })
    expect((await keyOf('FIRE-EXT')).name_key).toBe('library.template.fireExtinguisherBox2d')
    expect((await keyOf('SENSOR-TEMP')).name_key).toBe('library.template.temperatureSensor')
    const one = await callTemplate<Template>(owner, 'selectTemplate', { id: camera.id })
    expect(one.name_key).toBe('library.template.camera2d')
    // the seeded categories too
    const trees = await callTemplate<CategoryNode[]>(owner, 'findAllCategories', { id: 0 })
    const names = new Map<string, string | undefined>()
    const walk = (nodes: readonly CategoryNode[]) => {
      for (const node of nodes) {
        names.set(node.category_name, node.name_key)
        walk(node.children)
      }
    }
    walk(trees)
    expect(names.get('Security')).toBe('library.category.security')
    expect(names.get('Cameras')).toBe('library.category.cameras')
  })

  it('answer the template list’s category path step by step, seeded steps with their ids', async () => {
    const page = await callTemplate<TemplatePage>(owner, 'selectTemplatePage', {
      keyword: 'CAM-2D',
      pageSize: 50,
    })
    const found = page.list.find((template) => template.poicategory_code === 'CAM-2D')!
    expect(found.category_path.map((step) => step.category_name).join(' / ')).toBe(found.category)
    expect(found.category_path).toEqual(
      expect.arrayContaining([
        { category_name: 'Security', name_key: 'library.category.security' },
        { category_name: 'Cameras', name_key: 'library.category.cameras' },
      ]),
    )
  })

  it('carry it on POI records, scene templates and model-POI items', async () => {
    const { model, parent } = await modelWithPois('Named tower')
    const detail = await ok<PoiDetail>(owner, 'findPoiDetail', { id: parent.id })
    expect(detail.template_name_key).toBe('library.template.camera2d')
    const items = await ok<ModelPoiItem[]>(owner, 'selectPoisBymodel', { model_id: model })
    expect(items[0]!.template_name_key).toBe('library.template.camera2d')
    const columns = await ok<ProjectPoisDatum>(owner, 'findProjectPoiDetail', {
      projectid: city.id,
    })
    expect(columns.templates.find((template) => template.id === camera.id)?.name_key).toBe(
      'library.template.camera2d',
    )
  })

  it('leave names users typed as they are, and a seeded one once an admin renames it', async () => {
    const own = await callTemplate<Template>(owner, 'createTemplate', {
      name: 'Camera',
      poicategory_code: 'CAM-2D',
      piddes: '1',
      iconpath: camera.iconpath,
    })
    expect(own.name).toBe('Camera')
    expect(own.name_key).toBeUndefined()
    const smoke = await keyOf('SMOKE-DET')
    expect(smoke.name_key).toBe('library.template.smokeDetector')
    await callTemplate(admin, 'updateTemplate', { id: smoke.id, name: 'Rauchmelder' })
    expect(await keyOf('SMOKE-DET')).toMatchObject({ name: 'Rauchmelder', name_key: undefined })
    await callTemplate(admin, 'updateTemplate', { id: smoke.id, name: 'Smoke detector' })
  })
})
