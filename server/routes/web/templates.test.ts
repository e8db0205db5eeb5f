import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Envelope } from '../../../contract/envelope'
import type { MessageId } from '../../../contract/messages'
import {
  type Category,
  type CategoryNode,
  type CategoryPage,
  type Template,
  type TemplateCallName,
  type TemplateEvent,
  type TemplateLabel,
  type TemplateLabels,
  type TemplatePage,
  type TemplateProperty,
  templateCalls,
} from '../../../contract/templates'
import {
  callApi,
  createTestApp,
  type TestApp,
  testAdmin,
  testEditor,
  signIn,
} from '../../testing/test-app'
import { createProject, sampleFiles, signInNewUser, uploadImage } from './project-test-kit'
import { seededTemplateModels } from '../../modules/template-files/seed-template-models'

/** A system template model every user may make templates from. */
const seededModelId = seededTemplateModels[0]!.id

let test: TestApp
let admin: string
let editor: string
let other: string
let guest: string
let icon: string
let otherIcon: string

type Answer<Datum> = { statusCode: number; envelope: Envelope<Datum> & { messageId?: MessageId } }

/** Calls one of the area's calls by name (JSON body, or form text when `form` is given). */
async function call<Datum = unknown>(
  token: string | undefined,
  name: TemplateCallName,
  body: unknown = {},
  options: { query?: string; form?: Record<string, string> } = {},
): Promise<Answer<Datum>> {
  const url = templateCalls[name].url + (options.query === undefined ? '' : `?${options.query}`)
  return (await callApi<Datum>(test.app, {
    url,
    ...(token === undefined ? {} : { token }),
    ...(options.form === undefined ? { json: body } : { form: options.form }),
  })) as Answer<Datum>
}

/** The datum of a call that must succeed. */
async function ok<Datum>(
  token: string,
  name: TemplateCallName,
  body: unknown = {},
  options: { query?: string; form?: Record<string, string> } = {},
): Promise<Datum> {
  const answer = await call<Datum>(token, name, body, options)
  if (answer.envelope.code !== '0') {
    throw new Error(`${name} failed: ${answer.statusCode} ${answer.envelope.message}`)
  }
  return answer.envelope.datum
}

/** Asserts a refusal: HTTP status and message id. */
function expectRefused(answer: Answer<unknown>, statusCode: number, messageId?: MessageId) {
  expect(answer.statusCode, answer.envelope.message).toBe(statusCode)
  if (messageId !== undefined) expect(answer.envelope.messageId).toBe(messageId)
}

const countRows = async (table: 'poi_templates' | 'poi_categories' | 'poi_template_properties') =>
  Number(
    (
      await test.app.deps.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  )

/** A POI made from a template (POIs are issue 16's; the table is migration 0007's). */
async function insertPoi(projectId: string, templateId: string, name = 'poi') {
  const id = randomUUID()
  const now = new Date().toISOString()
  await test.app.deps.database.db
    .insertInto('pois')
    .values({
      id,
      project_id: projectId,
      name,
      category_id: templateId,
      poicategory_code: 'x',
      template_type: '0',
      category_type: '2D',
      created_at: now,
      updated_at: now,
    })
    .execute()
  return id
}

beforeAll(async () => {
  test = await createTestApp()
  admin = await signIn(test.app, testAdmin)
  editor = await signIn(test.app, testEditor)
  other = await signInNewUser(test.app, 'other-editor')
  guest = await signInNewUser(test.app, 'guest-reader', 'guest')
  const { png } = await sampleFiles()
  const upload = await uploadImage(test.app, editor, png, 'icon.png')
  icon = `${upload.rootPath}${upload.jpgName}`
  const otherUpload = await uploadImage(test.app, other, png, 'icon.png')
  otherIcon = `${otherUpload.rootPath}${otherUpload.jpgName}`
}, 60_000)

afterAll(async () => {
  await test?.close()
})

describe('the seeded library', () => {
  it('gives a new user 2D categories and templates with icons that load', async () => {
    const forest = await ok<CategoryNode[]>(editor, 'findAllCategories', { id: 0 })
    expect(forest.map((root) => [root.id, root.category_name])).toEqual([
      ['1', '2D'],
      ['2', '3D'],
    ])
    const names = forest[0]!.children.map((child) => child.category_name)
    expect(names).toEqual(expect.arrayContaining(['Security', 'Sensors', 'Fire safety']))
    const page = await ok<TemplatePage>(editor, 'selectTemplatePage', { scope: 'system' })
    expect(page.total).toBe(5 + seededTemplateModels.length)
    const camera = page.list.find((template) => template.poicategory_code === 'CAM-2D')!
    expect(camera).toMatchObject({
      classify: '2D',
      category: '2D / Security / Cameras',
      encoding: 'CAM-2D',
      is_system: true,
      can_edit: false,
    })
    const image = await test.app.inject({ method: 'GET', url: camera.iconpath })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    const properties = await ok<TemplateProperty[]>(editor, 'selectProperties', {
      poicategoryid: camera.id,
    })
    expect(properties.map((property) => property.property_column)).toEqual(['brand', 'stream_url'])
  })

  it('gives a new user 3D templates made from the system models, whose preview and model load', async () => {
    const page = await ok<TemplatePage>(editor, 'selectTemplatePage', {
      scope: 'system',
      type: '3D',
    })
    expect(page.list.map((template) => template.poicategory_code).sort()).toEqual(
      seededTemplateModels.map((model) => model.code).sort(),
    )
    for (const model of seededTemplateModels) {
      const template = page.list.find((item) => item.category_zip_uuid === model.id)!
      expect(template).toMatchObject({
        name: model.name.en,
        classify: '3D',
        is_system: true,
        file_path: `/web/templateModels/${model.id}/`,
        glbf_name: `${model.id}.sbm`,
      })
      expect(template.piddes.split(',')[0]).toBe('2')
      expect(template.category.startsWith('3D / ')).toBe(true)
      // the list's picture is the model's preview, a real PNG of the model
      expect(template.iconpath).toBe(`${template.file_path}${template.jpg_name}`)
      const preview = await test.app.inject({ method: 'GET', url: template.iconpath })
      expect(preview.statusCode).toBe(200)
      expect(preview.headers['content-type']).toBe('image/png')
      expect(preview.rawPayload.byteLength).toBeGreaterThan(500)
      const sbm = await test.app.inject({
        method: 'GET',
        url: `${template.file_path}${template.glbf_name}`,
      })
      expect(sbm.statusCode).toBe(200)
      expect(sbm.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF')
    }
    // a copy keeps the model, so the user's own 3D template works at once
    const camera = page.list.find((item) => item.category_zip_uuid === seededTemplateModels[0]!.id)!
    const copy = await ok<Template>(editor, 'copyTemplate', { id: camera.id })
    expect(copy).toMatchObject({ type: '3D', category_zip_uuid: camera.category_zip_uuid })
    await ok(editor, 'updateTemplate', { id: copy.id, name: 'My camera' })
    await ok(editor, 'deleteTemplate', { id: copy.id })
  })

  it('is read-only for editors: a change is refused with the copy hint, nothing changes', async () => {
    const page = await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'FIRE-EXT' })
    const fire = page.list[0]!
    expectRefused(
      await call(editor, 'updateTemplate', { id: fire.id, name: 'Mine' }),
      403,
      'template.library',
    )
    expectRefused(await call(editor, 'deleteTemplate', { id: fire.id }), 403, 'template.library')
    expect((await ok<Template>(editor, 'selectTemplate', { id: fire.id })).name).toBe(
      'Fire extinguisher box',
    )
  })
})

describe('categories', () => {
  it('builds a tree of any depth, form-encoded or JSON, and answers it in every shape', async () => {
    const a = await ok<Category>(
      editor,
      'createCategory',
      {},
      {
        form: { category_name: 'Plant', pid: '1' },
      },
    )
    expect(a).toMatchObject({
      pid: '1',
      piddes: `1,${a.id}`,
      level: 2,
      is_system: false,
      can_edit: true,
    })
    const b = await ok<Category>(editor, 'createCategory', { category_name: 'Pumps', pid: a.id })
    const c = await ok<Category>(editor, 'createCategory', { category_name: 'Valves', pid: b.id })
    expect(c.piddes).toBe(`1,${a.id},${b.id},${c.id}`)

    const node = await ok<CategoryNode>(editor, 'findCategory', { id: a.id })
    expect(node.children[0]!.children[0]!.category_name).toBe('Valves')
    expect(await ok<Category[]>(editor, 'selectCategoryChildren', { pid: a.id })).toHaveLength(1)

    // the other editor sees the shared tree but not these
    const theirs = await ok<CategoryNode[]>(other, 'findAllCategories', { id: 0 })
    expect(JSON.stringify(theirs)).not.toContain('Plant')
    expectRefused(await call(other, 'findCategory', { id: a.id }), 404, 'template.categoryNotFound')
    expectRefused(
      await call(other, 'updateCategory', { id: a.id, category_name: 'x' }),
      404,
      'template.categoryNotFound',
    )
    expectRefused(await call(other, 'deleteCategory', { id: a.id }), 404)
    expectRefused(
      await call(other, 'createCategory', { category_name: 'Under yours', pid: a.id }),
      404,
    )
  })

  it('refuses an empty name with the spec message, a duplicate sibling, and a cycle', async () => {
    const empty = await call(editor, 'createCategory', { category_name: '  ', pid: '1' })
    expectRefused(empty, 400, 'validation.invalidFields')
    expect(JSON.stringify(empty.envelope.datum)).toContain('template.categoryNameRequired')

    const top = await ok<Category>(editor, 'createCategory', { category_name: 'Loop', pid: '2' })
    const child = await ok<Category>(editor, 'createCategory', {
      category_name: 'Inner',
      pid: top.id,
    })
    const grandchild = await ok<Category>(editor, 'createCategory', {
      category_name: 'Innermost',
      pid: child.id,
    })
    expectRefused(
      await call(editor, 'createCategory', { category_name: 'Inner', pid: top.id }),
      409,
      'template.categoryNameTaken',
    )
    const before = await countRows('poi_categories')
    expectRefused(
      await call(editor, 'updateCategory', { id: top.id, pid: grandchild.id }),
      400,
      'template.categoryCycle',
    )
    expectRefused(
      await call(editor, 'updateCategory', { id: top.id, pid: top.id }),
      400,
      'template.categoryCycle',
    )
    expectRefused(
      await call(editor, 'updateCategory', { id: top.id, pid: '0' }),
      400,
      'template.categoryTreeChange',
    )
    expect(await countRows('poi_categories')).toBe(before)
    expect((await ok<CategoryNode>(editor, 'findCategory', { id: top.id })).pid).toBe('2')

    // a legal move and a rename
    const moved = await ok<Category>(editor, 'updateCategory', {
      id: grandchild.id,
      pid: top.id,
      category_name: 'Moved',
    })
    expect(moved).toMatchObject({
      pid: top.id,
      category_name: 'Moved',
      piddes: `2,${top.id},${grandchild.id}`,
    })
  })

  it('keeps the roots fixed and the shared categories for admins', async () => {
    expectRefused(
      await call(editor, 'updateCategory', { id: '1', category_name: 'x' }),
      403,
      'template.categoryRoot',
    )
    expectRefused(
      await call(admin, 'deleteSystemCategory', { id: '2' }),
      403,
      'template.categoryRoot',
    )
    expectRefused(
      await call(editor, 'addSystemCategory', { category_name: 'Shared', pid: '1' }),
      403,
    )
    expectRefused(await call(guest, 'createCategory', { category_name: 'Guest', pid: '1' }), 403)
    const shared = await ok<Category>(admin, 'addSystemCategory', {
      category_name: 'Shared',
      pid: '1',
    })
    expect(shared).toMatchObject({ is_system: true })
    expect((await ok<Category>(editor, 'findCategory', { id: shared.id })).can_edit).toBe(false)
    expectRefused(
      await call(editor, 'updateCategory', { id: shared.id, category_name: 'Mine' }),
      403,
      'template.categorySystem',
    )
    expectRefused(
      await call(editor, 'deleteCategory', { id: shared.id }),
      403,
      'template.categorySystem',
    )
    // an editor may file their own under a shared one; both see the shared one
    const mine = await ok<Category>(editor, 'createCategory', {
      category_name: 'Mine',
      pid: shared.id,
    })
    expect(mine.piddes).toBe(`1,${shared.id},${mine.id}`)
    const renamed = await ok<Category>(admin, 'updateSystemCategory', {
      id: shared.id,
      category_name: 'Shared 2',
    })
    expect(renamed.category_name).toBe('Shared 2')
    const guestView = await ok<Category>(guest, 'findCategory', { id: shared.id })
    expect(guestView.category_name).toBe('Shared 2')
    // the shared call refuses a cycle too
    const sharedChild = await ok<Category>(admin, 'addSystemCategory', {
      category_name: 'Shared child',
      pid: shared.id,
    })
    for (const pid of [sharedChild.id, shared.id]) {
      expectRefused(
        await call(admin, 'updateSystemCategory', { id: shared.id, pid }),
        400,
        'template.categoryCycle',
      )
    }
    // nor can a shared category go under a user's own
    expectRefused(
      await call(admin, 'updateSystemCategory', { id: shared.id, pid: mine.id }),
      404,
      'template.categoryNotFound',
    )
    expect((await ok<Category>(admin, 'findCategory', { id: shared.id })).pid).toBe('1')
  })

  it('answers the location tree for id 0 and a paged select', async () => {
    const place = await ok<Category>(editor, 'createCategory', {
      category_name: 'Floors',
      pid: '0',
    })
    expect(place).toMatchObject({ kind: 'location', pid: '0', level: 1 })
    await ok<Category>(editor, 'createCategory', { category_name: 'Floor 1', pid: place.id })
    const locations = await ok<CategoryNode[]>(editor, 'findLocationCategories', { id: '0' })
    expect(locations.map((node) => node.category_name)).toEqual(['Floors'])
    expect(locations[0]!.children[0]!.kind).toBe('location')
    // location categories never hold templates
    expectRefused(
      await call(editor, 'createTemplate', {
        name: 'Here',
        poicategory_code: 'HERE',
        piddes: place.id,
        iconpath: icon,
      }),
      400,
      'template.noSuchCategoryPath',
    )

    const first = await ok<CategoryPage>(
      editor,
      'selectCategoryPage',
      { kind: 'poi' },
      {
        query: 'pageSize=2&pageNo=1',
      },
    )
    const second = await ok<CategoryPage>(
      editor,
      'selectCategoryPage',
      { kind: 'poi' },
      {
        query: 'pageSize=2&pageNo=2',
      },
    )
    expect(first.list).toHaveLength(2)
    expect(first.total).toBe(second.total)
    expect(second.list[0]!.id).not.toBe(first.list[0]!.id)
    const search = await ok<CategoryPage>(editor, 'selectCategoryPage', { keyword: 'pump' })
    expect(search.list.map((row) => row.category_name)).toEqual(['Pumps'])
    expectRefused(
      await call(editor, 'selectCategoryPage', {}, { query: 'pageSize=abc&pageNo=1' }),
      400,
      'validation.invalidFields',
    )
  })

  it('refuses deleting a category that templates or POIs use, saying how many', async () => {
    const top = await ok<Category>(editor, 'createCategory', { category_name: 'Doomed', pid: '1' })
    const leaf = await ok<Category>(editor, 'createCategory', {
      category_name: 'Leaf',
      pid: top.id,
    })
    const template = await ok<Template>(editor, 'createTemplate', {
      name: 'Used',
      poicategory_code: 'USED-1',
      piddes: leaf.piddes,
      iconpath: icon,
    })
    const project = await createProject(test.app, editor, { name: 'Depot' })
    await insertPoi(project.id, template.id)
    await insertPoi(project.id, template.id)
    const refused = await call(editor, 'deleteCategory', { id: top.id })
    expectRefused(refused, 409, 'template.categoryInUse')
    expect(refused.envelope.message).toContain('1 template(s) and 2 POI(s)')
    expect((await ok<CategoryNode>(editor, 'findCategory', { id: top.id })).children).toHaveLength(
      1,
    )

    const empty = await ok<Category>(editor, 'createCategory', { category_name: 'Empty', pid: '1' })
    await ok<Category>(editor, 'createCategory', { category_name: 'Below', pid: empty.id })
    expect(await ok(editor, 'deleteCategory', { id: empty.id })).toEqual({ deleted: 2 })
    expectRefused(await call(editor, 'findCategory', { id: empty.id }), 404)
  })
})

describe('templates', () => {
  let category: Category
  beforeAll(async () => {
    category = await ok<Category>(editor, 'createCategory', { category_name: 'Devices', pid: '1' })
  })

  it('creates a 2D template whose id unlocks the other tabs, and answers every field', async () => {
    const created = await ok<Template>(
      editor,
      'createTemplate',
      {},
      {
        form: {
          name: 'Gate sensor',
          poicategory_code: 'GATE-1',
          piddes: category.piddes,
          iconpath: icon,
          is_iot_device: 'true',
        },
      },
    )
    expect(created).toMatchObject({
      name: 'Gate sensor',
      type: '2D',
      category_id: category.id,
      iconpath: icon,
      icon_path: icon,
      bgtype: '1',
      template_type: '0',
      is_iot_device: true,
      use_shadow_editor_render: false,
      projectInfoAllCustoms: [],
      refProjectNameList: [],
      can_edit: true,
    })
    expect(await ok<Template>(editor, 'selectTemplate', { id: created.id })).toEqual(created)
    const updated = await ok<Template>(editor, 'updateTemplate', {
      id: created.id,
      name: 'Gate sensor v2',
      bgtype: '2',
    })
    expect(updated).toMatchObject({
      name: 'Gate sensor v2',
      bgtype: '2',
      poicategory_code: 'GATE-1',
    })
    expectRefused(await call(other, 'selectTemplate', { id: created.id }), 404, 'template.notFound')
    expectRefused(await call(other, 'updateTemplate', { id: created.id, name: 'x' }), 404)
    expectRefused(await call(other, 'deleteTemplate', { id: created.id }), 404)
    expect((await ok<Template>(admin, 'selectTemplate', { id: created.id })).can_edit).toBe(true)
  })

  it('refuses incomplete or foreign input without writing anything', async () => {
    const before = await countRows('poi_templates')
    const base = { name: 'X', poicategory_code: 'X-1', piddes: category.piddes, iconpath: icon }
    expectRefused(
      await call(editor, 'createTemplate', { ...base, iconpath: '' }),
      400,
      'template.fillBasic',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, iconpath: otherIcon }),
      400,
      'template.noSuchIcon',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, iconpath: '/web/files/../etc/passwd' }),
      400,
      'template.noSuchIcon',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, piddes: category.id }),
      400,
      'template.noSuchCategoryPath',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, piddes: `2,${category.id}` }),
      400,
      'template.noSuchCategoryPath',
    )
    const theirs = await ok<Category>(other, 'createCategory', {
      category_name: 'Theirs',
      pid: '1',
    })
    expectRefused(
      await call(editor, 'createTemplate', { ...base, piddes: theirs.piddes }),
      400,
      'template.noSuchCategoryPath',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, poicategory_code: 'a b' }),
      400,
      'validation.invalidFields',
    )
    expectRefused(
      await call(editor, 'createTemplate', { ...base, name: 42 }),
      400,
      'validation.invalidFields',
    )
    expectRefused(await call(editor, 'createTemplate', { ...base, is_iot_device: 'maybe' }), 400)
    await ok(editor, 'createTemplate', { ...base, poicategory_code: 'DUP' })
    expectRefused(
      await call(editor, 'createTemplate', { ...base, poicategory_code: 'DUP' }),
      409,
      'template.codeTaken',
    )
    expect(await countRows('poi_templates')).toBe(before + 1)
    // the code is unique per owner: another user may use it
    const theirTemplate = await ok<Template>(other, 'createTemplate', {
      ...base,
      poicategory_code: 'DUP',
      piddes: theirs.piddes,
      iconpath: otherIcon,
    })
    expect(theirTemplate.poicategory_code).toBe('DUP')
  })

  it('makes a template under the 3D root 3D, and moving its category follows', async () => {
    const folder = await ok<Category>(editor, 'createCategory', {
      category_name: 'Models',
      pid: '2',
    })
    const model = await ok<Template>(editor, 'createTemplate', {
      name: 'Pump model',
      poicategory_code: 'PUMP-3D',
      piddes: folder.piddes,
      iconpath: `/web/templateModels/${seededModelId}/${seededModelId}.png`,
      category_zip_uuid: seededModelId,
    })
    expect(model.type).toBe('3D')
    const target = await ok<Category>(editor, 'createCategory', {
      category_name: 'Target',
      pid: '2',
    })
    await ok(editor, 'updateCategory', { id: folder.id, pid: target.id })
    const after = await ok<Template>(editor, 'selectTemplate', { id: model.id })
    expect(after.piddes).toBe(`2,${target.id},${folder.id}`)
  })

  it("refuses a model uuid that is unknown or another user's, saving nothing; takes the model's files", async () => {
    const folder = await ok<Category>(editor, 'createCategory', { category_name: 'Own', pid: '2' })
    const users = test.app.deps.repositories.users
    const models = test.app.deps.services.templateModels
    const sbm = await readFile(
      new URL('../../resources/template-models/sensor.sbm', import.meta.url),
    )
    const otherUser = (await users.findByName('other-editor'))!
    const editorUser = (await users.findByName(testEditor.name))!
    const theirs = await models.createFromSbm(otherUser.id, 'theirs.sbm', sbm)
    const mine = await models.createFromSbm(editorUser.id, 'mine.sbm', sbm)
    const previewOf = (model: { rootPath: string; jpgName: string }) =>
      `${model.rootPath}${model.jpgName}`
    const base = {
      name: 'Valve',
      poicategory_code: 'VALVE-3D',
      piddes: folder.piddes,
      iconpath: previewOf(mine),
    }
    const before = await countRows('poi_templates')
    for (const uuid of [theirs.uuid, randomUUID(), 'not-a-uuid']) {
      const refused = await call(editor, 'createTemplate', {
        ...base,
        category_zip_uuid: uuid,
        iconpath: uuid === theirs.uuid ? previewOf(theirs) : base.iconpath,
      })
      expectRefused(refused, 400, 'templateModel.notFound')
      expect(JSON.stringify(refused.envelope.datum)).toContain('category_zip_uuid')
    }
    // a preview that is not the template's own model's is no icon either
    expectRefused(
      await call(editor, 'createTemplate', {
        ...base,
        category_zip_uuid: mine.uuid,
        iconpath: previewOf(theirs),
      }),
      400,
      'template.noSuchIcon',
    )
    expect(await countRows('poi_templates')).toBe(before)

    // the files are the model's, whatever the client sent
    const valve = await ok<Template>(editor, 'createTemplate', {
      ...base,
      category_zip_uuid: mine.uuid,
      file_path: '/web/templateModels/elsewhere/',
      glbf_name: 'other.sbm',
    })
    expect(valve).toMatchObject({
      category_zip_uuid: mine.uuid,
      file_path: mine.rootPath,
      jpg_name: mine.jpgName,
      xml_name: mine.xmlName,
      glbf_name: mine.sbmName,
    })
    // the owner may not switch to another's model; the template is left as it was
    const switched = await call(editor, 'updateTemplate', {
      id: valve.id,
      category_zip_uuid: theirs.uuid,
      iconpath: previewOf(theirs),
    })
    expectRefused(switched, 400, 'templateModel.notFound')
    expect(await ok<Template>(editor, 'selectTemplate', { id: valve.id })).toMatchObject({
      category_zip_uuid: mine.uuid,
      iconpath: previewOf(mine),
    })
    // a system model is anyone's
    const changed = await ok<Template>(editor, 'updateTemplate', {
      id: valve.id,
      category_zip_uuid: seededModelId,
      iconpath: `/web/templateModels/${seededModelId}/${seededModelId}.png`,
    })
    expect(changed.glbf_name).toBe(`${seededModelId}.sbm`)
  })

  it('creates and saves multi-level templates', async () => {
    const levels = [
      {
        level_name: 'Building',
        customs: [{ property_column: 'floors', column_des: 'Floors', column_example: '3' }],
      },
      { level_name: 'Room', customs: [] },
    ]
    const multi = await ok<Template>(
      editor,
      'createMultiLevelTemplate',
      {},
      {
        form: {
          name: 'Campus',
          poicategory_code: 'CAMPUS',
          piddes: category.piddes,
          projectInfoAllCustoms: JSON.stringify(levels),
        },
      },
    )
    expect(multi).toMatchObject({ template_type: '1', projectInfoAllCustoms: levels })
    const saved = await ok<Template>(editor, 'saveMultiLevelTemplate', {
      id: multi.id,
      name: 'Campus 2',
      poicategory_code: 'CAMPUS',
      piddes: category.piddes,
      projectInfoAllCustoms: [levels[0]],
    })
    expect(saved).toMatchObject({ id: multi.id, name: 'Campus 2' })
    expect(saved.projectInfoAllCustoms).toHaveLength(1)
    const fresh = await ok<Template>(editor, 'saveMultiLevelTemplate', {
      name: 'Site',
      poicategory_code: 'SITE',
      piddes: category.piddes,
      projectInfoAllCustoms: levels,
    })
    expect(fresh.id).not.toBe(multi.id)
    expectRefused(
      await call(editor, 'createMultiLevelTemplate', {
        name: 'No levels',
        poicategory_code: 'NOLEVELS',
        piddes: category.piddes,
      }),
      400,
    )
    expectRefused(
      await call(editor, 'createMultiLevelTemplate', {
        name: 'Bad column',
        poicategory_code: 'BADCOL',
        piddes: category.piddes,
        projectInfoAllCustoms: [
          {
            level_name: 'L',
            customs: [{ property_column: '1x', column_des: 'a', column_example: 'b' }],
          },
        ],
      }),
      400,
    )
    const simple = (await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'GATE-1' }))
      .list[0]!
    expectRefused(
      await call(editor, 'saveMultiLevelTemplate', {
        id: simple.id,
        name: 'x',
        poicategory_code: 'GATE-1',
        piddes: category.piddes,
        projectInfoAllCustoms: levels,
      }),
      400,
      'template.notMultiLevel',
    )
  })

  it('lists with classify, category, encoding, creation time and projects, searched and paged', async () => {
    const template = await ok<Template>(editor, 'createTemplate', {
      name: 'Listed lamp',
      poicategory_code: 'LAMP-42',
      piddes: category.piddes,
      iconpath: icon,
    })
    const project = await createProject(test.app, editor, { name: 'Lamp street' })
    await insertPoi(project.id, template.id)

    const byName = await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'lamp' })
    expect(byName.list.map((item) => item.name)).toEqual(['Listed lamp'])
    expect(byName.list[0]).toMatchObject({
      classify: '2D',
      category: '2D / Devices',
      encoding: 'LAMP-42',
      refProjectNameList: ['Lamp street'],
    })
    expect(byName.list[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect((await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'mp-4' })).total).toBe(
      1,
    )
    expect(
      (await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'l' })).total,
    ).toBeGreaterThan(1)
    expect((await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: '100%' })).total).toBe(
      0,
    )
    const own = await ok<TemplatePage>(editor, 'selectTemplatePage', { scope: 'own' })
    expect(own.list.every((item) => !item.is_system)).toBe(true)
    const inCategory = await ok<TemplatePage>(editor, 'selectTemplatePage', {
      category_id: category.id,
    })
    expect(inCategory.list.every((item) => item.category_id === category.id)).toBe(true)

    const all = await ok<TemplatePage>(editor, 'selectTemplatePage', {})
    const pages = []
    for (let pageNo = 1; (pageNo - 1) * 3 < all.total; pageNo += 1) {
      pages.push(
        ...(
          await ok<TemplatePage>(
            editor,
            'selectTemplatePage',
            {},
            { query: `pageSize=3&pageNo=${pageNo}` },
          )
        ).list,
      )
    }
    expect(pages.map((item) => item.id)).toEqual(all.list.map((item) => item.id))
    const times = pages.map((item) => item.created_at)
    expect([...times].sort().reverse()).toEqual(times)
    // the other editor's list has none of these, and no project names of others
    const theirs = await ok<TemplatePage>(other, 'selectTemplatePage', { keyword: 'lamp' })
    expect(theirs.total).toBe(0)
  })

  it('copies a library template with its attributes and labels, and deletes only unused ones', async () => {
    const camera = (
      await ok<TemplatePage>(editor, 'selectTemplatePage', { keyword: 'CAM-2D', scope: 'system' })
    ).list[0]!
    const copy = await ok<Template>(editor, 'copyTemplate', { id: camera.id })
    expect(copy).toMatchObject({
      is_system: false,
      can_edit: true,
      poicategory_code: 'CAM-2D',
      piddes: camera.piddes,
    })
    expect(copy.name).toContain('Camera')
    const again = await ok<Template>(editor, 'copyTemplate', { id: camera.id })
    expect(again.poicategory_code).toBe('CAM-2D-copy')
    const third = await ok<Template>(editor, 'copyTemplate', { id: camera.id })
    expect(third.poicategory_code).toBe('CAM-2D-copy2')
    const properties = await ok<TemplateProperty[]>(editor, 'selectProperties', {
      poicategoryid: copy.id,
    })
    expect(properties.map((property) => property.property_column)).toEqual(['brand', 'stream_url'])
    const labels = await ok<TemplateLabels>(editor, 'getLabels', { id: copy.id })
    expect(labels.poicategoryLabels.map((label) => label.labelKey)).toEqual(['camera', 'security'])

    const project = await createProject(test.app, editor, { name: 'Copy site' })
    await insertPoi(project.id, copy.id)
    const refused = await call(editor, 'deleteTemplate', { id: copy.id })
    expectRefused(refused, 409, 'template.inUse')
    expect(refused.envelope.message).toContain('Copy site')
    expect(await ok(editor, 'deleteTemplate', { id: again.id })).toEqual({ deleted: 1 })
    expectRefused(await call(editor, 'selectTemplate', { id: again.id }), 404)
    expectRefused(await call(editor, 'selectProperties', { poicategoryid: again.id }), 404)
    expectRefused(await call(other, 'copyTemplate', { id: copy.id }), 404)
  })
})

describe('static attributes, labels and events', () => {
  let template: Template
  beforeAll(async () => {
    const category = await ok<Category>(editor, 'createCategory', {
      category_name: 'Parts',
      pid: '1',
    })
    template = await ok<Template>(editor, 'createTemplate', {
      name: 'Meter',
      poicategory_code: 'METER',
      piddes: category.piddes,
      iconpath: icon,
    })
  })

  it('adds, changes and deletes static attributes with identifier names', async () => {
    const added = await ok<TemplateProperty>(
      editor,
      'createProperty',
      {},
      {
        form: {
          poicategoryid: template.id,
          property_column: 'serial_no',
          column_des: 'Serial',
          column_example: 'A-1',
        },
      },
    )
    expect(added).toMatchObject({ poicategoryid: template.id, property_column: 'serial_no' })
    for (const bad of ['serial no', '1st', 'naïve', 'a-b', '']) {
      expectRefused(
        await call(editor, 'createProperty', {
          poicategoryid: template.id,
          property_column: bad,
          column_des: 'x',
          column_example: 'y',
        }),
        400,
        'validation.invalidFields',
      )
    }
    expectRefused(
      await call(editor, 'createProperty', {
        poicategoryid: template.id,
        property_column: 'x',
        column_des: '',
        column_example: 'y',
      }),
      400,
    )
    expectRefused(
      await call(editor, 'createProperty', {
        poicategoryid: template.id,
        property_column: 'serial_no',
        column_des: 'x',
        column_example: 'y',
      }),
      409,
      'template.propertyColumnTaken',
    )
    expectRefused(
      await call(editor, 'createProperty', {
        poicategoryid: randomUUID(),
        property_column: 'a',
        column_des: 'x',
        column_example: 'y',
      }),
      404,
      'template.addBasicFirst',
    )
    expectRefused(
      await call(other, 'createProperty', {
        poicategoryid: template.id,
        property_column: 'a',
        column_des: 'x',
        column_example: 'y',
      }),
      404,
      'template.addBasicFirst',
    )
    const changed = await ok<TemplateProperty>(editor, 'updateProperty', {
      id: added.id,
      column_des: 'Serial number',
    })
    expect(changed.column_des).toBe('Serial number')
    expectRefused(
      await call(other, 'updateProperty', { id: added.id, column_des: 'x' }),
      404,
      'template.propertyNotFound',
    )
    expectRefused(
      await call(other, 'deleteProperty', { id: added.id }),
      404,
      'template.propertyNotFound',
    )
    const second = await ok<TemplateProperty>(editor, 'createProperty', {
      poicategoryid: template.id,
      property_column: 'model',
      column_des: 'Model',
      column_example: 'M',
    })
    expectRefused(
      await call(editor, 'updateProperty', { id: second.id, property_column: 'serial_no' }),
      409,
    )
    expect(await ok(editor, 'deleteProperty', { id: second.id })).toBeNull()
    // a guest reads the library, not this editor's templates
    expectRefused(await call(guest, 'selectProperties', { poicategoryid: template.id }), 404)
    expect(
      (await ok<TemplateProperty[]>(editor, 'selectProperties', { poicategoryid: template.id }))
        .length,
    ).toBe(1)
  })

  it('keeps current and history labels', async () => {
    const added = await ok<TemplateLabel>(
      editor,
      'createLabel',
      {},
      {
        form: { id: template.id, 'label.labelKey': 'water' },
      },
    )
    expect(added.labelKey).toBe('water')
    await ok(editor, 'createLabel', { id: template.id, label: { labelKey: 'meter' } })
    expectRefused(
      await call(editor, 'createLabel', { id: template.id, label: { labelKey: 'water' } }),
      409,
      'template.labelTaken',
    )
    expectRefused(await call(editor, 'createLabel', { id: template.id, label: {} }), 400)
    await ok(editor, 'deleteLabel', { id: added.id, status: false })
    let labels = await ok<TemplateLabels>(editor, 'getLabels', { id: template.id })
    expect(labels.poicategoryLabels.map((label) => label.labelKey)).toEqual(['meter'])
    expect(labels.poicategoryHistoryLabels.map((label) => label.labelKey)).toEqual(['water'])
    const back = await ok<TemplateLabel>(editor, 'createLabel', {
      id: template.id,
      label: { labelKey: 'water' },
    })
    expect(back.id).toBe(added.id)
    await ok(editor, 'updateLabel', { id: added.id, labelKey: 'h2o' })
    await ok(editor, 'deleteLabel', { id: added.id, status: true })
    labels = await ok<TemplateLabels>(editor, 'getLabels', { id: template.id })
    expect(labels.poicategoryLabels.map((label) => label.labelKey)).toEqual(['meter'])
    expect(labels.poicategoryHistoryLabels).toEqual([])
    expectRefused(
      await call(other, 'deleteLabel', { id: labels.poicategoryLabels[0]!.id }),
      404,
      'template.labelNotFound',
    )
    expectRefused(await call(other, 'getLabels', { id: template.id }), 404)
  })

  it('sets the event kinds per template', async () => {
    const initial = await ok<TemplateEvent[]>(editor, 'selectEvents', {
      poicategoryid: template.id,
    })
    expect(initial.map((event) => [event.kind, event.is_enabled])).toEqual([
      ['link', false],
      ['alarm', false],
      ['offline', false],
      ['fault', false],
    ])
    const set = await ok<TemplateEvent[]>(
      editor,
      'updateEvents',
      {},
      {
        form: {
          poicategoryid: template.id,
          events: JSON.stringify([
            { kind: 'alarm', is_enabled: true, event_code: '3', event_image: icon },
            { kind: 'fault', is_enabled: 'true' },
          ]),
        },
      },
    )
    expect(set.filter((event) => event.is_enabled).map((event) => event.kind)).toEqual([
      'alarm',
      'fault',
    ])
    expect(set[1]).toMatchObject({ event_code: '3', event_image: icon })
    expectRefused(
      await call(editor, 'updateEvents', {
        poicategoryid: template.id,
        events: [{ kind: 'fire', is_enabled: true }],
      }),
      400,
    )
    expectRefused(
      await call(editor, 'updateEvents', {
        poicategoryid: template.id,
        events: [{ kind: 'link', is_enabled: true, event_image: otherIcon }],
      }),
      400,
      'template.noSuchIcon',
    )
    expectRefused(
      await call(other, 'updateEvents', {
        poicategoryid: template.id,
        events: [{ kind: 'link', is_enabled: true }],
      }),
      404,
    )
    const after = await ok<TemplateEvent[]>(editor, 'selectEvents', { poicategoryid: template.id })
    expect(after.find((event) => event.kind === 'link')!.is_enabled).toBe(false)
  })
})

describe('POIs made from templates', () => {
  it('pushes the attributes onto all POIs, or one project’s, in one go; others are untouched', async () => {
    const category = await ok<Category>(editor, 'createCategory', {
      category_name: 'Synced',
      pid: '1',
    })
    const template = await ok<Template>(editor, 'createTemplate', {
      name: 'Synced',
      poicategory_code: 'SYNC',
      piddes: category.piddes,
      iconpath: icon,
    })
    await ok(editor, 'createProperty', {
      poicategoryid: template.id,
      property_column: 'a',
      column_des: 'A',
      column_example: '1',
    })
    const first = await createProject(test.app, editor, { name: 'First' })
    const second = await createProject(test.app, editor, { name: 'Second' })
    const theirs = await createProject(test.app, other, { name: 'Theirs' })
    const poiA = await insertPoi(first.id, template.id)
    const poiB = await insertPoi(second.id, template.id)
    const poiC = await insertPoi(theirs.id, template.id)
    const { db } = test.app.deps.database
    const valuesOf = async (poiId: string) =>
      (
        await db
          .selectFrom('poi_custom_properties')
          .selectAll()
          .where('poi_id', '=', poiId)
          .orderBy('property_column')
          .execute()
      ).map((row) => `${row.property_column}=${row.column_value}`)

    expect(
      await ok(editor, 'syncProjectProperties', {
        poicategoryid: template.id,
        project_id: first.id,
      }),
    ).toEqual({ poi_count: 1 })
    expect(await valuesOf(poiA)).toEqual(['a=1'])
    expect(await valuesOf(poiB)).toEqual([])
    await db
      .updateTable('poi_custom_properties')
      .set({ column_value: 'kept' })
      .where('poi_id', '=', poiA)
      .execute()
    await ok(editor, 'createProperty', {
      poicategoryid: template.id,
      property_column: 'b',
      column_des: 'B',
      column_example: '2',
    })
    expect(await ok(editor, 'syncProperties', { poicategoryid: template.id })).toEqual({
      poi_count: 2,
    })
    expect(await valuesOf(poiA)).toEqual(['a=kept', 'b=2'])
    expect(await valuesOf(poiB)).toEqual(['a=1', 'b=2'])
    expect(await valuesOf(poiC)).toEqual([])

    expectRefused(
      await call(other, 'syncProjectProperties', {
        poicategoryid: template.id,
        project_id: first.id,
      }),
      404,
    )
    expectRefused(
      await call(editor, 'syncProjectProperties', {
        poicategoryid: template.id,
        project_id: theirs.id,
      }),
      403,
    )
    expectRefused(await call(editor, 'syncProperties', { poicategoryid: randomUUID() }), 404)

    // another template for two POIs: its attributes replace the old ones
    const other2 = await ok<Template>(editor, 'createTemplate', {
      name: 'Other',
      poicategory_code: 'OTHER',
      piddes: category.piddes,
      iconpath: icon,
    })
    await ok(editor, 'createProperty', {
      poicategoryid: other2.id,
      property_column: 'b',
      column_des: 'Bee',
      column_example: '9',
    })
    expect(
      await ok(editor, 'updatePoiTemplate', { id: [poiA, poiB], poicategoryid: other2.id }),
    ).toEqual({ poi_count: 2 })
    expect(await valuesOf(poiA)).toEqual(['b=2'])
    const moved = await db
      .selectFrom('pois')
      .selectAll()
      .where('id', '=', poiA)
      .executeTakeFirstOrThrow()
    expect(moved).toMatchObject({ category_id: other2.id, poicategory_code: 'OTHER' })
    // someone else's POI: refused as unknown, and nothing moved
    expectRefused(
      await call(editor, 'updatePoiTemplate', { id: [poiB, poiC], poicategoryid: template.id }),
      404,
      'template.poiNotFound',
    )
    expect(
      (
        await db
          .selectFrom('pois')
          .select('category_id')
          .where('id', '=', poiB)
          .executeTakeFirstOrThrow()
      ).category_id,
    ).toBe(other2.id)
    expectRefused(
      await call(editor, 'updatePoiTemplate', { id: randomUUID(), poicategoryid: template.id }),
      404,
    )
  })

  it('copies and deletes POIs with their project', async () => {
    const project = await createProject(test.app, editor, { name: 'Lifecycle' })
    const template = (
      await ok<TemplatePage>(editor, 'selectTemplatePage', { scope: 'system', keyword: 'LIGHT' })
    ).list[0]!
    await insertPoi(project.id, template.id)
    const copy = await callApi<{ id: string }>(test.app, {
      url: '/web/project/copyProject',
      token: editor,
      json: { id: project.id },
    })
    const { db } = test.app.deps.database
    const countIn = async (projectId: string) =>
      (await db.selectFrom('pois').select('id').where('project_id', '=', projectId).execute())
        .length
    expect(await countIn(copy.envelope.datum.id)).toBe(1)
    await callApi(test.app, {
      url: '/web/project/deleteProject',
      token: editor,
      json: { id: project.id },
    })
    expect(await countIn(project.id)).toBe(0)
  })
})

describe('the access matrix', () => {
  const readCalls: TemplateCallName[] = [
    'findCategory',
    'findAllCategories',
    'findLocationCategories',
    'findCategoryGroups',
    'selectCategoryChildren',
    'selectCategoryPage',
    'selectTemplate',
    'selectTemplatePage',
    'selectProperties',
    'getLabels',
    'selectEvents',
  ]
  const names = Object.keys(templateCalls) as TemplateCallName[]

  it('answers anonymous callers with the session code on every call', async () => {
    for (const name of names) {
      const answer = await call(undefined, name, {})
      expect(answer.envelope.code, name).toBe('2011')
    }
  })

  it('lets guests read and nothing more; admin-only calls refuse editors', async () => {
    for (const name of names) {
      const answer = await call(guest, name, {})
      if (readCalls.includes(name)) {
        expect(answer.statusCode, name).not.toBe(403)
      } else {
        expect(answer.statusCode, name).toBe(403)
      }
      if (templateCalls[name].auth === 'admin') {
        expect((await call(editor, name, {})).statusCode, name).toBe(403)
      }
    }
  })

  it('never answers 500 to junk input, unknown ids or wrong types', async () => {
    const junk: unknown[] = [
      {},
      { id: randomUUID() },
      { id: 42 },
      { id: ['a'] },
      { pid: '' },
      { poicategoryid: { a: 1 } },
      {
        id: randomUUID(),
        poicategoryid: randomUUID(),
        project_id: randomUUID(),
        name: 'x',
        poicategory_code: 'x',
        piddes: '1,zz',
        iconpath: 'x',
        projectInfoAllCustoms: '[',
        events: 'nope',
        label: 'x',
        category_name: 'x',
      },
    ]
    for (const name of names) {
      for (const body of junk) {
        for (const token of [editor, admin]) {
          const answer = await call(token, name, body)
          expect(answer.statusCode, `${name} ${JSON.stringify(body)}`).toBeLessThan(500)
          expect(answer.envelope.code).not.toBe('1500')
        }
      }
    }
  })
})
