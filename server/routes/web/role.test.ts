import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../../contract/role'
import { builtinRoleMenuKeys } from '../../../contract/role'
import type { ManagedUser } from '../../../contract/user'
import { callApi, createTestApp, signIn, type TestApp, testAdmin } from '../../testing/test-app'

describe('roles as data', () => {
  let testApp: TestApp
  let adminToken: string
  beforeAll(async () => {
    testApp = await createTestApp()
    adminToken = await signIn(testApp.app, testAdmin)
  })
  afterAll(async () => {
    await testApp.close()
  })

  const asAdmin = <Datum>(url: string, body: unknown = {}) =>
    callApi<Datum>(testApp.app, { url, token: adminToken, json: body })
  const menuOf = async (token: string) =>
    (
      await callApi<string[]>(testApp.app, {
        method: 'GET',
        url: '/web/roleMenu/selectRoleMenu_Vue',
        token,
      })
    ).envelope.datum

  it('starts with the built-in admin, editor and guest roles and their menus', async () => {
    const all = await asAdmin<Role[]>('/web/role/findAll')
    expect(
      all.envelope.datum.map((role) => [role.name, role.access_level, role.is_builtin]),
    ).toEqual([
      ['admin', 'admin', true],
      ['editor', 'editor', true],
      ['guest', 'guest', true],
    ])
    for (const role of all.envelope.datum) {
      expect(role.menu_keys).toEqual(builtinRoleMenuKeys[role.access_level])
      expect(role.description).toBeNull()
    }
    expect(await menuOf(adminToken)).toContain('system.roles')
    const editorMenu = await menuOf(
      await signIn(testApp.app, { name: 'demo', password: 'demo-twinscape-2026' }),
    )
    expect(editorMenu).toContain('projectManage.city')
    expect(editorMenu).not.toContain('system.users')
  })

  it('creates a role, gives it to a new account, and its menu follows the role', async () => {
    const added = await callApi<Role>(testApp.app, {
      url: '/web/role/add',
      token: adminToken,
      // form-encoded, with the menu keys as repeated fields
      form: 'name=Reviewer&description=Reads%20and%20comments&menu_keys=projectManage.cases&menu_keys=system.person',
    })
    expect(added.envelope.code).toBe('0')
    expect(added.envelope.datum).toMatchObject({
      name: 'Reviewer',
      description: 'Reads and comments',
      access_level: 'editor',
      menu_keys: ['projectManage.cases', 'system.person'],
      is_builtin: false,
    })
    for (const name of ['reviewer', 'ADMIN']) {
      const duplicate = await asAdmin('/web/role/add', { name })
      expect(duplicate.statusCode, name).toBe(409)
    }

    const inserted = await asAdmin<ManagedUser>('/web/user/insertUser', {
      name: 'rita',
      password: 'Reviewer-Pass-62',
      role: 'reviewer',
    })
    expect(inserted.envelope.datum).toMatchObject({
      name: 'rita',
      role: 'editor',
      role_id: added.envelope.datum.id,
      role_name: 'Reviewer',
    })
    const ritaToken = await signIn(testApp.app, { name: 'rita', password: 'Reviewer-Pass-62' })
    expect(await menuOf(ritaToken)).toEqual(['projectManage.cases', 'system.person'])

    // Raising the role's level raises its holders at once, on their open sessions too.
    const refusedBefore = await callApi(testApp.app, {
      url: '/web/user/selectUser',
      token: ritaToken,
      json: {},
    })
    expect(refusedBefore.statusCode).toBe(403)
    const edited = await asAdmin<Role>('/web/role/edit', {
      id: added.envelope.datum.id,
      access_level: 'admin',
      menu_keys: ['system.users'],
    })
    expect(edited.envelope.datum).toMatchObject({
      access_level: 'admin',
      menu_keys: ['system.users'],
    })
    const allowedAfter = await callApi(testApp.app, {
      url: '/web/user/selectUser',
      token: ritaToken,
      json: {},
    })
    expect(allowedAfter.envelope.code).toBe('0')
    expect(await menuOf(ritaToken)).toEqual(['system.users'])

    // A role someone holds cannot be deleted.
    const held = await asAdmin('/web/role/delete', { id: added.envelope.datum.id })
    expect(held.statusCode).toBe(409)
    expect(held.envelope).toMatchObject({ messageId: 'role.held', params: { holders: 1 } })
  })

  it('keeps the built-in roles: no delete, rename or level change, but menus are editable', async () => {
    const all = (await asAdmin<Role[]>('/web/role/findAll')).envelope.datum
    const editor = all.find((role) => role.name === 'editor') as Role
    expect((await asAdmin('/web/role/delete', { id: editor.id })).statusCode).toBe(403)
    expect((await asAdmin('/web/role/edit', { id: editor.id, name: 'writer' })).statusCode).toBe(
      403,
    )
    expect(
      (await asAdmin('/web/role/edit', { id: editor.id, access_level: 'admin' })).statusCode,
    ).toBe(403)
    const narrowed = await asAdmin<Role>('/web/role/edit', {
      id: editor.id,
      menu_keys: ['projectManage.city'],
    })
    expect(narrowed.envelope.datum.menu_keys).toEqual(['projectManage.city'])
    const demoToken = await signIn(testApp.app, { name: 'demo', password: 'demo-twinscape-2026' })
    expect(await menuOf(demoToken)).toEqual(['projectManage.city'])
    // The guest level is for guest sign-in only.
    const guestLevel = await asAdmin('/web/role/add', { name: 'Visitor', access_level: 'guest' })
    expect(guestLevel.statusCode).toBe(400)
    const guestAccount = await asAdmin('/web/user/insertUser', {
      name: 'static-guest',
      password: 'Static-Guest-Pass-1',
      role: 'guest',
    })
    expect(guestAccount.statusCode).toBe(400)
  })

  it('finds one role, searches by keyword a page at a time, and deletes an unheld role', async () => {
    for (const name of ['Survey team', 'Survey lead', 'Facility ops']) {
      testApp.clock.advanceMs(1_000)
      expect((await asAdmin('/web/role/add', { name })).envelope.code).toBe('0')
    }
    const page = await asAdmin<{ total: number; list: Role[] }>('/web/role/search', {
      keyword: 'SURVEY',
      pageNo: 2,
      pageSize: 1,
    })
    expect(page.envelope.datum.total).toBe(2)
    expect(page.envelope.datum.list.map((role) => role.name)).toEqual(['Survey lead'])
    const wildcard = await asAdmin<{ total: number }>('/web/role/search', { keyword: '%' })
    expect(wildcard.envelope.datum.total).toBe(0)

    const surveyLead = page.envelope.datum.list[0] as Role
    const found = await asAdmin<Role>('/web/role/findOne', { id: surveyLead.id })
    expect(found.envelope.datum.name).toBe('Survey lead')
    expect((await asAdmin('/web/role/delete', { id: surveyLead.id })).envelope.code).toBe('0')
    expect((await asAdmin('/web/role/findOne', { id: surveyLead.id })).statusCode).toBe(404)
  })
})
