import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Project, ProjectTokenDatum } from '../../../contract/project'
import { defaultStyleSetting, type GlobalSetting } from '../../../contract/style'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'
import { createProject, signInNewUser } from './project-test-kit'

const call = <Datum = GlobalSetting>(
  app: FastifyInstance,
  path: 'find' | 'add' | 'update' | 'del',
  token: string | undefined,
  json: unknown,
  headers?: Record<string, string>,
) =>
  callApi<Datum>(app, {
    url: `/web/globalsetting/${path}`,
    json,
    ...(token === undefined ? {} : { token }),
    ...(headers === undefined ? {} : { headers }),
  })

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`

describe('global style setting (/globalsetting)', () => {
  let testApp: TestApp
  let app: FastifyInstance
  let owner: string
  let admin: string
  let stranger: string
  let guest: string
  let building: Project

  beforeAll(async () => {
    testApp = await createTestApp()
    app = testApp.app
    owner = await signInNewUser(app, unique('style-owner'))
    stranger = await signInNewUser(app, unique('style-stranger'))
    guest = await signInNewUser(app, unique('style-guest'), 'guest')
    admin = await signIn(app, testAdmin)
    building = await createProject(app, owner, { kind: 'building', name: 'Style tower' })
  })
  afterAll(async () => {
    await testApp.close()
  })

  it('answers null before anything is saved, then saves, reads back and changes fields', async () => {
    expect((await call(app, 'find', owner, { project_id: building.id })).envelope).toMatchObject({
      code: '0',
      datum: null,
    })
    const added = await call(app, 'add', owner, {
      project_id: building.id,
      setting: { ...defaultStyleSetting, air_style: 3, fog_color: 'rgba(10,20,30,0.456)' },
    })
    expect(added.envelope.code).toBe('0')
    // the alpha is kept with two decimals, the text canonical
    expect(added.envelope.datum.setting).toMatchObject({
      air_style: 3,
      fog_color: 'rgba(10, 20, 30, 0.46)',
    })
    const updated = await call(app, 'update', owner, {
      project_id: building.id,
      setting: { version: 1, weather_style: 'snow', ground_style: 'grassland' },
    })
    expect(updated.envelope.code).toBe('0')
    const found = await call(app, 'find', owner, { project_id: building.id })
    expect(found.envelope.datum?.setting).toMatchObject({
      air_style: 3,
      weather_style: 'snow',
      ground_style: 'grassland',
      directional_light_color: 'rgba(255, 190, 55, 1)',
    })
    // a second add is refused: the record exists
    const again = await call(app, 'add', owner, {
      project_id: building.id,
      setting: defaultStyleSetting,
    })
    expect(again.statusCode).toBe(409)
    expect(again.envelope.messageId).toBe('style.alreadySaved')
  })

  it('takes a form body with the setting as JSON text', async () => {
    const project = await createProject(app, owner, { kind: 'city' })
    const answer = await callApi<GlobalSetting>(app, {
      url: '/web/globalsetting/update',
      token: owner,
      form: {
        project_id: project.id,
        setting: JSON.stringify({ version: 1, air_style: '2', fog_is_on: 'true' }),
      },
    })
    expect(answer.envelope.code).toBe('0')
    // a project without a saved setting starts from the defaults
    expect(answer.envelope.datum.setting).toMatchObject({
      air_style: 2,
      fog_is_on: true,
      ambient_light_color: 'rgba(33, 33, 33, 1)',
    })
  })

  it('refuses bad colours, other versions and unknown fields with clear codes, writing nothing', async () => {
    const project = await createProject(app, owner, { kind: 'building' })
    const cases: Array<[unknown, string]> = [
      [{ version: 1, fog_color: 'red' }, 'style.colorMalformed'],
      [{ version: 1, fog_color: 'rgba(1, 2, 3' }, 'style.colorMalformed'],
      [{ version: 1, path_color: 'rgba(256, 0, 0, 1)' }, 'style.colorOutOfRange'],
      [{ version: 1, ambient_light_color: 'rgba(0, 0, 0, 1.5)' }, 'style.colorOutOfRange'],
      [{ version: 1, ambient_light_color: 'rgba(0, -1, 0, 1)' }, 'style.colorOutOfRange'],
      [{ version: 2, air_style: 1 }, 'style.unsupportedVersion'],
      [{ air_style: 1 }, 'validation.required'],
      [{ version: 1, visual_distance_min: 10, visual_distance_max: 5 }, 'style.distanceOrder'],
      [{ version: 1, air_style: 5 }, 'validation.tooBig'],
      [{ version: 1, weather_style: 'hail' }, 'validation.oneOf'],
    ]
    for (const [setting, messageId] of cases) {
      const answer = await call(app, 'update', owner, { project_id: project.id, setting })
      expect(answer.statusCode, JSON.stringify(setting)).toBe(400)
      expect(answer.envelope.code).not.toBe('0')
      const details = (answer.envelope.datum as unknown as { details: { messageId?: string }[] })
        .details
      expect(details.map((detail) => detail.messageId)).toContain(messageId)
    }
    const unknownField = await call(app, 'update', owner, {
      project_id: project.id,
      setting: { version: 1, sky: 1 },
    })
    expect(unknownField.statusCode).toBe(400)
    // a patch of one distance is checked against the saved other one
    const farther = await call(app, 'update', owner, {
      project_id: project.id,
      setting: { version: 1, visual_distance_min: 2e7 },
    })
    expect(farther.statusCode).toBe(400)
    expect(farther.envelope.messageId).toBe('style.distanceOrder')
    expect((await call(app, 'find', owner, { project_id: project.id })).envelope.datum).toBeNull()
    const broken = await callApi(app, {
      url: '/web/globalsetting/add',
      token: owner,
      form: { project_id: project.id, setting: '{"version":1,' },
    })
    expect(broken.statusCode).toBe(400)
  })

  it('refuses a stored setting of another version clearly instead of half-reading it', async () => {
    const project = await createProject(app, owner, { kind: 'building' })
    await app.deps.database.db
      .insertInto('project_styles')
      .values({
        project_id: project.id,
        version: 2,
        setting_json: '{"version":2,"sky":{"kind":"physical"}}',
        created_at: '2026-11-26T00:00:00.000Z',
        updated_at: '2026-11-26T00:00:00.000Z',
      })
      .execute()
    const found = await call(app, 'find', owner, { project_id: project.id })
    expect(found.statusCode).toBe(409)
    expect(found.envelope.messageId).toBe('style.storedVersionUnsupported')
    const patched = await call(app, 'update', owner, {
      project_id: project.id,
      setting: { version: 1, air_style: 2 },
    })
    expect(patched.statusCode).toBe(409)
    // deleting it lets the project start again from the defaults
    expect((await call(app, 'del', owner, { project_id: project.id })).envelope.datum).toEqual({
      deleted: true,
    })
    expect((await call(app, 'find', owner, { project_id: project.id })).envelope.datum).toBeNull()
  })

  it('applies the access matrix: owner and admin write, readers and token holders read', async () => {
    const project = await createProject(app, owner, { kind: 'building' })
    const patch = { project_id: project.id, setting: { version: 1, air_style: 4 } }
    // writers
    expect((await call(app, 'update', owner, patch)).envelope.code).toBe('0')
    expect((await call(app, 'update', admin, patch)).envelope.code).toBe('0')
    // someone else's project, a guest, nobody
    for (const path of ['add', 'update', 'del'] as const) {
      const body = path === 'add' ? { ...patch, setting: defaultStyleSetting } : patch
      expect((await call(app, path, stranger, body)).statusCode).toBe(403)
      expect((await call(app, path, guest, body)).statusCode).toBe(403)
      expect((await call(app, path, undefined, body)).envelope.code).toBe('2011')
    }
    expect((await call(app, 'find', stranger, { project_id: project.id })).statusCode).toBe(403)
    expect((await call(app, 'find', undefined, { project_id: project.id })).envelope.code).toBe(
      '2011',
    )
    expect((await call(app, 'find', admin, { project_id: project.id })).envelope.code).toBe('0')
    expect((await call(app, 'update', owner, { ...patch, project_id: 'nope' })).statusCode).toBe(
      404,
    )

    // a project token reads (public preview), in the body or the header, and writes nothing
    const issued = await callApi<ProjectTokenDatum>(app, {
      url: '/web/project/getPTokenByprojectId',
      token: owner,
      json: { id: project.id },
    })
    const projectToken = issued.envelope.datum.project_token
    const byBody = await call(app, 'find', undefined, {
      project_id: project.id,
      project_token: projectToken,
    })
    expect(byBody.envelope.datum?.setting.air_style).toBe(4)
    const byHeader = await call(
      app,
      'find',
      undefined,
      { project_id: project.id },
      {
        projecttoken: projectToken,
      },
    )
    expect(byHeader.envelope.datum?.setting.air_style).toBe(4)
    const writeByToken = await call(app, 'update', undefined, patch, { projecttoken: projectToken })
    expect(writeByToken.envelope.code).toBe('2011')
    const elsewhere = await call(app, 'find', undefined, {
      project_id: building.id,
      project_token: projectToken,
    })
    expect(elsewhere.statusCode).toBe(403)
    // deleting: the owner only, once
    expect((await call(app, 'del', owner, { project_id: project.id })).envelope.datum).toEqual({
      deleted: true,
    })
    expect((await call(app, 'del', owner, { project_id: project.id })).envelope.datum).toEqual({
      deleted: false,
    })
  })

  it('copies the setting with its project and drops it with the project', async () => {
    const project = await createProject(app, owner, { kind: 'building' })
    await call(app, 'update', owner, {
      project_id: project.id,
      setting: { version: 1, ground_style: 'ashBlackGravel' },
    })
    const copied = await callApi<Project>(app, {
      url: '/web/project/copyProject',
      token: owner,
      json: { id: project.id },
    })
    expect(copied.envelope.code).toBe('0')
    const ofCopy = await call(app, 'find', owner, { project_id: copied.envelope.datum.id })
    expect(ofCopy.envelope.datum?.setting.ground_style).toBe('ashBlackGravel')
    const deleted = await callApi(app, {
      url: '/web/project/deleteProject',
      token: owner,
      json: { id: project.id },
    })
    expect(deleted.envelope.code).toBe('0')
    const rows = await app.deps.database.db
      .selectFrom('project_styles')
      .select('project_id')
      .where('project_id', '=', project.id)
      .execute()
    expect(rows).toEqual([])
  })
})
